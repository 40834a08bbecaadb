import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

interface ContributesScript {
  contributesDrift: (pkg?: unknown) => string[];
  mergeContributes: (fragments: { file: string; data: unknown }[]) => unknown;
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
      assert.equal(c.category, 'API Workbench', `${c.command} has the category`);
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
