// `node scripts/vocabulary-common.mjs`: writes the completion ranking of the water-quality vocabulary into
// src/waterData/core/vocabulary.json (`common`), so the extension never reads ../shared at run time.
// The shared data has no per-value usage counts (schema/counts.csv counts values per field), so "common"
// means: the characteristics the DataStream schema gives a water-quality guideline for, in the schema's own
// order (it lists pH and water temperature first), restricted to the primary vocabulary we ship.
// test/unit/waterData/vocabulary.test.ts regenerates it from the shared file and fails when it is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const GUIDELINES = 'datastream/schema/lookup/CharacteristicName-Guideline-MeasurementUnit.json';

/** The ranked common names of each field, from the shared guideline lookup and the shipped values. */
export function commonValues(guidelinesFile, values) {
  const guided = Object.keys(JSON.parse(readFileSync(guidelinesFile, 'utf8')));
  const known = new Set(values.CharacteristicName);
  return { CharacteristicName: guided.filter((n) => known.has(n)) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = join(root, 'src/waterData/core/vocabulary.json');
  const data = JSON.parse(readFileSync(file, 'utf8'));
  data.common = commonValues(join(root, '..', 'shared', 'data', GUIDELINES), data.values);
  writeFileSync(file, oneEntryPerLine(data) + '\n');
}

/** The file's own layout: every member on its own line, no indentation (a 1,661-name list diffs line by line). */
function oneEntryPerLine(v) {
  if (Array.isArray(v)) return v.length ? `[\n${v.map(oneEntryPerLine).join(',\n')}\n]` : '[]';
  if (v && typeof v === 'object') {
    const members = Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${oneEntryPerLine(x)}`);
    return members.length ? `{\n${members.join(',\n')}\n}` : '{}';
  }
  return JSON.stringify(v);
}
