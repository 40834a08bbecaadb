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
  // JSON files are checked by content; a reopened `store:` workspace folder needs its provider at once.
  const events = new Set(['onLanguage:json', 'onLanguage:jsonc', 'onFileSystem:store']);
  for (const nb of contributes.notebooks ?? []) events.add(`onNotebook:${nb.type}`);
  for (const fs of contributes.resourceLabelFormatters ?? []) events.add(`onFileSystem:${fs.scheme}`);
  return [...events];
}

export function expectedPackageJson() {
  const pkgPath = join(root, 'package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8'));
  const fragments = fragmentPaths().map((file) => ({
    file: file.slice(root.length + 1),
    data: JSON.parse(readFileSync(file, 'utf8')),
  }));
  const contributes = mergeContributes(fragments);
  const next = { ...pkg, activationEvents: activationEvents(contributes), contributes };
  return { pkgPath, current: pkg, next };
}

export function syncContributes() {
  const { pkgPath, current, next } = expectedPackageJson();
  const text = JSON.stringify(next, null, 2) + '\n';
  if (JSON.stringify(current, null, 2) + '\n' === text) return false;
  writeFileSync(pkgPath, text);
  return true;
}

/** The generated keys of `pkg` that differ from the merge of the fragments (empty when in step). */
export function contributesDrift(pkg = expectedPackageJson().current) {
  const { next } = expectedPackageJson();
  const drift = [];
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
      syncContributes() ? 'package.json updated from src/**/contributes.json' : 'package.json already in step',
    );
  }
}
