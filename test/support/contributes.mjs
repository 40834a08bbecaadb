// package.json `contributes` is generated from one fragment per feature (src/contributes.json for the
// platform, src/<feature>/contributes.json for each feature), so each feature declares its own commands,
// views and settings next to its code. `syncContributes()` rewrites package.json only when the merge
// differs; `checkContributes()` is what the unit test uses to keep the committed file in step.
import { readFileSync, writeFileSync, readdirSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function fragmentPaths() {
  const paths = [join(root, 'src', 'contributes.json')];
  for (const entry of readdirSync(join(root, 'src'), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = join(root, 'src', entry.name, 'contributes.json');
    if (entry.isDirectory() && existsSync(p)) paths.push(p);
  }
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
  const fragments = fragmentPaths().map((file) => ({ file: file.slice(root.length + 1), data: JSON.parse(readFileSync(file, 'utf8')) }));
  const contributes = mergeContributes(fragments);
  const next = { ...pkg, activationEvents: activationEvents(contributes), contributes };
  return { pkgPath, current: pkg, next };
}

export function syncContributes() {
  const { pkgPath, current, next } = expectedPackageJson();
  const text = JSON.stringify(next, null, 2) + '\n';
  if (JSON.stringify(current, null, 2) + '\n' !== text) {
    writeFileSync(pkgPath, text);
    console.log('[contributes] package.json contributions updated from src/**/contributes.json');
  }
}

export function checkContributes() {
  const { current, next } = expectedPackageJson();
  return JSON.stringify(current.contributes) === JSON.stringify(next.contributes) &&
    JSON.stringify(current.activationEvents) === JSON.stringify(next.activationEvents);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) syncContributes();
