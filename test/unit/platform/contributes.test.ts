import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

interface ContributesScript {
  contributesDrift: (pkg?: unknown) => string[];
  mergeContributes: (fragments: { file: string; data: unknown }[]) => unknown;
  localise: (
    contributes: unknown,
    known?: Record<string, string>,
  ) => { contributes: unknown; nls: Record<string, string> };
}
// A plain string, so TypeScript does not look for the .mjs script's types.
const SCRIPT: string = '../../../scripts/contributes.mjs';
const script = (): Promise<ContributesScript> => import(SCRIPT);

interface PackageJson {
  activationEvents: string[];
  contributes: {
    commands: { command: string; category?: string }[];
    configuration: { properties: Record<string, Record<string, unknown>> }[];
    views: Record<string, { id: string }[]>;
    walkthroughs?: unknown[];
  };
}
const packageJson = () => JSON.parse(readFileSync('package.json', 'utf8')) as PackageJson;
const packageNls = () => JSON.parse(readFileSync('package.nls.json', 'utf8')) as Record<string, string>;
/** A `%key%` placeholder resolved through package.nls.json (a literal comes back as is). */
const english = (value: string | undefined) =>
  value?.replace(/^%([^%\s]+)%$/, (_m, k: string) => packageNls()[k] ?? _m);

/** Fields whose string values people read: each must be a placeholder in the generated package.json. */
const SHOWN = new Set([
  'title',
  'shortTitle',
  'category',
  'name',
  'contextualTitle',
  'contents',
  'description',
  'markdownDescription',
  'deprecationMessage',
  'markdownDeprecationMessage',
  'enumDescriptions',
  'markdownEnumDescriptions',
  'displayName',
  'label',
  'altText',
]);

/** Every [path, value] pair of shown text under `node` (menus hold none). */
function shownStrings(node: unknown, path: string[] = []): [string, string][] {
  if (Array.isArray(node)) return node.flatMap((item, i) => shownStrings(item, [...path, String(i)]));
  if (!node || typeof node !== 'object') return [];
  const out: [string, string][] = [];
  for (const [k, v] of Object.entries(node)) {
    const here = [...path, k];
    if (SHOWN.has(k) && path[0] !== 'menus' && typeof v === 'string') out.push([here.join('.'), v]);
    else if (SHOWN.has(k) && Array.isArray(v) && v.every((x) => typeof x === 'string'))
      v.forEach((x: string, i) => out.push([[...here, String(i)].join('.'), x]));
    else out.push(...shownStrings(v, here));
  }
  return out;
}

function allStrings(node: unknown): string[] {
  if (typeof node === 'string') return [node];
  if (Array.isArray(node)) return node.flatMap(allStrings);
  if (node && typeof node === 'object') return Object.values(node).flatMap(allStrings);
  return [];
}

describe('package.json contributions', () => {
  it('are in step with src/**/contributes.json (run `npm run contributes` to regenerate)', async () => {
    const { contributesDrift } = await script();
    assert.deepEqual(contributesDrift(), []);
  });

  it('a package.json edited by hand is caught, key by key', async () => {
    const { contributesDrift } = await script();
    const pkg = packageJson();
    pkg.contributes.commands.pop();
    pkg.contributes.walkthroughs = [];
    pkg.activationEvents.push('*');
    assert.deepEqual(contributesDrift(pkg), ['activationEvents', 'contributes.commands', 'contributes.walkthroughs']);
  });

  it('are localisable: no shown title or description is a literal, and every %key% resolves', () => {
    const pkg = packageJson() as PackageJson & Record<string, unknown>;
    const shown = shownStrings(pkg.contributes, ['contributes']);
    assert.ok(shown.length > 100, `found ${shown.length} shown strings`);
    const literals = shown.filter(([, v]) => !/^%[^%\s]+%$/.test(v));
    assert.deepEqual(literals, [], 'literal text in package.json: run `npm run contributes`');
    for (const field of ['displayName', 'description']) assert.match(String(pkg[field]), /^%[^%\s]+%$/, field);
    const nls = packageNls();
    const unresolved = allStrings(pkg)
      .flatMap((v) => [...v.matchAll(/^%([^%\s]+)%$/g)].map((m) => m[1]))
      .filter((k) => typeof nls[k] !== 'string' || nls[k] === '');
    assert.deepEqual(unresolved, []);
    assert.equal(
      english(
        pkg.contributes.views.apiWorkbench.find((v) => v.id === 'apiWorkbench.requestLog') &&
          '%views.apiWorkbench.apiWorkbench.requestLog.name%',
      ),
      'Request Log',
    );
  });

  it('converts a literal written in a fragment by re-running the script, idempotently', async () => {
    const { localise } = await script();
    const fragment = {
      commands: [{ command: 'apiWorkbench.new', title: 'Do the New Thing', category: 'API Workbench' }],
      views: { apiWorkbench: [{ id: 'apiWorkbench.v', name: 'New View' }] },
      configuration: {
        title: 'API Workbench: New',
        properties: {
          'apiWorkbench.n': { type: 'string', enum: ['a'], enumDescriptions: ['The a'], description: 'N' },
        },
      },
      menus: { 'view/title': [{ command: 'apiWorkbench.new', when: 'view == apiWorkbench.v' }] },
    };
    const once = localise(fragment);
    assert.deepEqual(once.nls, {
      'commands.apiWorkbench.new.title': 'Do the New Thing',
      'category.apiWorkbench': 'API Workbench',
      'views.apiWorkbench.apiWorkbench.v.name': 'New View',
      'configuration.apiWorkbenchNew.title': 'API Workbench: New',
      'configuration.apiWorkbench.n.enumDescriptions.0': 'The a',
      'configuration.apiWorkbench.n.description': 'N',
    });
    assert.deepEqual((once.contributes as { commands: unknown[] }).commands[0], {
      command: 'apiWorkbench.new',
      title: '%commands.apiWorkbench.new.title%',
      category: '%category.apiWorkbench%',
    });
    const twice = localise(once.contributes, once.nls);
    assert.deepEqual(twice, once, 'running again over its own output changes nothing');
    assert.throws(() => localise({ commands: [{ command: 'x', title: '%missing.key%' }] }), /missing\.key/);
  });

  it('the build does not write package.json', () => {
    assert.doesNotMatch(readFileSync('esbuild.mjs', 'utf8'), /contributes|package\.json|writeFile/);
  });

  it('rejects a command id declared twice', async () => {
    const { mergeContributes } = await script();
    const frag = { commands: [{ command: 'apiWorkbench.x', title: 'X' }] };
    assert.throws(
      () =>
        mergeContributes([
          { file: 'a', data: frag },
          { file: 'b', data: frag },
        ]),
      /duplicate command "apiWorkbench.x"/,
    );
  });

  it('follow VS Code conventions: category, markdownDescription, lazy activation', () => {
    const pkg = packageJson();
    assert.ok(!pkg.activationEvents.includes('*'), 'no * activation');
    for (const c of pkg.contributes.commands) {
      assert.equal(english(c.category), 'API Workbench', `${c.command} has the category`);
      assert.match(c.command, /^apiWorkbench\./);
    }
    for (const section of pkg.contributes.configuration) {
      for (const [key, prop] of Object.entries(section.properties)) {
        assert.match(key, /^apiWorkbench\./);
        assert.ok(prop.markdownDescription, `${key} has a markdownDescription`);
      }
    }
    const containerViews = pkg.contributes.views.apiWorkbench.map((v) => v.id);
    for (const id of ['apiWorkbench.storage', 'apiWorkbench.directory', 'apiWorkbench.generation'])
      assert.ok(containerViews.includes(id), `${id} in the container`);
  });
});
