// `npm run contributes`: package.json `contributes` (and the activation events VS Code cannot infer) is the
// merge of one fragment per feature (src/contributes.json for the platform, src/<feature>/contributes.json
// for each feature), so each feature declares its commands, views and settings next to its code. The
// fragments are the source of truth; this script is the only thing that writes package.json from them (the
// build never does), and test/unit/platform/contributes.test.ts fails when the committed file is out of step.
// `node scripts/contributes.mjs --check` exits 1 instead of writing.
import { readFileSync, writeFileSync, readdirSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function fragmentPaths() {
  const paths = [join(root, 'src', 'contributes.json')];
  for (const entry of readdirSync(join(root, 'src'), { withFileTypes: true }).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    const p = join(root, 'src', entry.name, 'contributes.json');
    if (entry.isDirectory() && entry.name !== 'platform' && existsSync(p)) paths.push(p);
  }
  // The platform's own views (the Request Log) and the walkthrough come after every feature's, so they sit
  // at the bottom of the API Workbench side bar.
  const platform = join(root, 'src', 'platform', 'contributes.json');
  if (existsSync(platform)) paths.push(platform);
  return paths;
}

function asSections(configuration) {
  if (!configuration) return [];
  return Array.isArray(configuration) ? configuration : [configuration];
}

/** Merges fragments; throws on a duplicate command id, view id or setting key. */
export function mergeContributes(fragments) {
  const out = {};
  const seen = new Map();
  const claim = (kind, id, from) => {
    const key = `${kind}:${id}`;
    if (seen.has(key)) throw new Error(`duplicate ${kind} "${id}" in ${from} (also in ${seen.get(key)})`);
    seen.set(key, from);
  };
  for (const { file, data } of fragments) {
    for (const [key, value] of Object.entries(data)) {
      if (key === 'configuration') {
        const sections = asSections(value);
        for (const s of sections) for (const k of Object.keys(s.properties ?? {})) claim('setting', k, file);
        out.configuration = [...(out.configuration ?? []), ...sections];
      } else if (Array.isArray(value)) {
        if (key === 'commands') for (const c of value) claim('command', c.command, file);
        out[key] = [...(out[key] ?? []), ...value];
      } else if (value && typeof value === 'object') {
        out[key] ??= {};
        for (const [sub, subValue] of Object.entries(value)) {
          if (key === 'views') for (const v of subValue) claim('view', v.id, file);
          out[key][sub] = Array.isArray(subValue) ? [...(out[key][sub] ?? []), ...subValue] : subValue;
        }
      } else {
        out[key] = value;
      }
    }
  }
  return out;
}

function activationEvents(contributes) {
  // Most activation is inferred by VS Code from contributions; these are the ones it cannot infer.
  // JSON files are checked by content (a discovery document loads that feature), a water query loads its feature,
  // and a reopened `store:` workspace folder needs its provider at once. The entry is small enough (no feature
  // loads at activation) to start with every window, so the status bar item shows from the first one.
  const events = new Set([
    'onStartupFinished',
    'onLanguage:json',
    'onLanguage:jsonc',
    'onLanguage:discovery-json',
    'onLanguage:water-query',
    'onLanguage:dotprompt',
    'onFileSystem:store',
    // The chat and the API preview restored in the editor area (their serializers are among the entry's shells).
    'onWebviewPanel:apiWorkbench.generation.chat',
    'onWebviewPanel:apiWorkbench.discoveryPreview',
    'onWebviewPanel:apiWorkbench.generation.evalGrid',
  ]);
  for (const nb of contributes.notebooks ?? []) events.add(`onNotebook:${nb.type}`);
  for (const fs of contributes.resourceLabelFormatters ?? []) events.add(`onFileSystem:${fs.scheme}`);
  return [...events];
}

// Localisation: engineers write plain English in the fragments; the merged package.json carries `%key%`
// placeholders and package.nls.json the English text, so a translation is one more package.nls.<lang>.json.
// Keys come from where a string sits (the command, view, setting or walkthrough step it belongs to), so
// regenerating is idempotent and a new literal anywhere in a fragment is converted by re-running this script.

/** Fields of a contribution whose string value is shown to people. */
const LOCALISED = new Set([
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
  'enumItemLabels',
  'displayName',
  'label',
  'altText',
]);
/** Top-level package.json fields shown in the Extensions view. */
const LOCALISED_PACKAGE_FIELDS = ['displayName', 'description'];
const ID_FIELDS = ['command', 'id', 'view', 'type', 'viewType'];
const PLACEHOLDER = /^%([^%\s]+)%$/;

function idOf(item) {
  if (!item || typeof item !== 'object') return undefined;
  for (const f of ID_FIELDS) if (typeof item[f] === 'string' && !PLACEHOLDER.test(item[f])) return item[f];
  return undefined;
}

/** "API Workbench: Endpoints" → "apiWorkbenchEndpoints". */
function slug(text) {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w, i) => (i === 0 ? w.toLowerCase() : w[0].toUpperCase() + w.slice(1).toLowerCase()))
    .join('');
}

/**
 * Replaces every shown string of `contributes` with a `%key%` placeholder, returning the new tree and the
 * key → English map. `known` is the current package.nls.json, for placeholders a fragment already holds.
 */
export function localise(contributes, known = {}) {
  const nls = {};
  const put = (key, value) => {
    let k = key;
    for (let n = 2; nls[k] !== undefined && nls[k] !== value; n++) k = `${key}.${n}`;
    nls[k] = value;
    return `%${k}%`;
  };
  const text = (key, value) => {
    const m = PLACEHOLDER.exec(value);
    if (!m) return put(key, value);
    if (known[m[1]] === undefined) throw new Error(`${value} has no entry in package.nls.json`);
    nls[m[1]] = known[m[1]];
    return value;
  };
  const walk = (node, path) => {
    if (Array.isArray(node)) return node.map((item, i) => walk(item, [...path, idOf(item) ?? String(i)]));
    if (!node || typeof node !== 'object') return node;
    const out = {};
    for (const [k, v] of Object.entries(node)) {
      // A setting's key names it (in a list of sections or a single one); a section is named by its title;
      // a category is shared by many commands.
      const p = path.indexOf('properties');
      const inSetting = path[0] === 'configuration' && (p === 1 || p === 2) && path.length > p + 1;
      const base = inSetting
        ? ['configuration', ...path.slice(p + 1)]
        : path[0] === 'configuration'
          ? ['configuration']
          : path;
      if (!LOCALISED.has(k) || path[0] === 'menus') out[k] = walk(v, [...path, k]);
      else if (k === 'category' && typeof v === 'string') out[k] = text(`category.${slug(v)}`, v);
      else if (path[0] === 'configuration' && !inSetting && k === 'title' && typeof v === 'string')
        out[k] = text(`configuration.${slug(v)}.title`, v);
      else if (typeof v === 'string') out[k] = text([...base, k].join('.'), v);
      else if (Array.isArray(v) && v.every((x) => typeof x === 'string'))
        out[k] = v.map((x, i) => text([...base, k, String(i)].join('.'), x));
      else out[k] = walk(v, [...path, k]);
    }
    return out;
  };
  const localised = {};
  for (const [key, value] of Object.entries(contributes)) localised[key] = walk(value, [key]);
  return { contributes: localised, nls };
}

function readJson(path, fallback) {
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : fallback;
}

export function expectedPackageJson() {
  const pkgPath = join(root, 'package.json');
  const nlsPath = join(root, 'package.nls.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8'));
  const currentNls = readJson(nlsPath, {});
  const fragments = fragmentPaths().map((file) => ({
    file: file.slice(root.length + 1),
    data: JSON.parse(readFileSync(file, 'utf8')),
  }));
  const merged = mergeContributes(fragments);
  const { contributes, nls: contributed } = localise(merged, currentNls);
  const nls = {};
  const next = { ...pkg, activationEvents: activationEvents(merged), contributes };
  for (const field of LOCALISED_PACKAGE_FIELDS) {
    const value = pkg[field];
    if (typeof value !== 'string') continue;
    const m = PLACEHOLDER.exec(value);
    nls[m ? m[1] : field] = m ? currentNls[m[1]] : value;
    next[field] = m ? value : `%${field}%`;
  }
  Object.assign(nls, contributed);
  return { pkgPath, nlsPath, current: pkg, currentNls, next, nls };
}

const asText = (value) => JSON.stringify(value, null, 2) + '\n';

export function syncContributes() {
  const { pkgPath, nlsPath, current, currentNls, next, nls } = expectedPackageJson();
  let changed = false;
  if (asText(current) !== asText(next)) {
    writeFileSync(pkgPath, asText(next));
    changed = true;
  }
  if (asText(currentNls) !== asText(nls)) {
    writeFileSync(nlsPath, asText(nls));
    changed = true;
  }
  return changed;
}

/** The generated keys of `pkg` that differ from the merge of the fragments (empty when in step). */
export function contributesDrift(pkg = expectedPackageJson().current) {
  const { next, nls, currentNls } = expectedPackageJson();
  const drift = [];
  if (asText(nls) !== asText(currentNls)) drift.push('package.nls.json');
  for (const field of LOCALISED_PACKAGE_FIELDS) if (pkg[field] !== next[field]) drift.push(field);
  if (JSON.stringify(pkg.activationEvents) !== JSON.stringify(next.activationEvents)) drift.push('activationEvents');
  const keys = new Set([...Object.keys(pkg.contributes ?? {}), ...Object.keys(next.contributes)]);
  for (const key of [...keys].sort()) {
    if (JSON.stringify(pkg.contributes?.[key]) !== JSON.stringify(next.contributes[key]))
      drift.push(`contributes.${key}`);
  }
  return drift;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes('--check')) {
    const drift = contributesDrift();
    if (drift.length) {
      console.error(
        `package.json is out of step with src/**/contributes.json in ${drift.join(', ')}: run npm run contributes`,
      );
      process.exit(1);
    }
  } else {
    console.log(
      syncContributes()
        ? 'package.json and package.nls.json updated from src/**/contributes.json'
        : 'package.json and package.nls.json already in step',
    );
  }
}
