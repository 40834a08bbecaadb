// Findings over every shared document, clean and with deterministic damage, are pinned to a fixture
// generated from the code before the analysis was reworked for speed (issue 11): a faster parse or
// rule walk must report the same codes, ranges, messages and data, in the same order.
// Regenerate (only when a finding is meant to change): UPDATE_FINDINGS_FIXTURE=1 npx mocha ... this file.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { analyzeText, RULES } from '../../../src/discovery/core';
import { listAtLoad } from '../../support/sharedData';
import { realDocumentFiles } from './helpers';

const FIXTURE = join(__dirname, 'fixtures', 'sharedFindings.json');
const ALL_ON = Object.fromEntries(RULES.map((r) => [r.code, 'warning' as const]));

/** Replaces every `every`-th occurrence of `find` (counting from the first) with `by`. */
function everyNth(text: string, find: string, every: number, by: string): string {
  let out = '';
  let from = 0;
  let n = 0;
  for (let at = text.indexOf(find); at >= 0; at = text.indexOf(find, at + find.length)) {
    if (n++ % every !== 0) continue;
    out += text.slice(from, at) + by;
    from = at + find.length;
  }
  return out + text.slice(from);
}

// Edits that real rules notice: broken references, wrong types and formats, bad methods and paths,
// missing enum descriptions, duplicate keys and enum or parameterOrder entries, unknown methods and scopes; one variant is JSONC (comment), one is cut off mid-way.
const DAMAGE: [string, number, string][] = [
  ['"$ref": "', 7, '"$ref": "Typo'],
  ['"type": "string"', 11, '"type": "strin"'],
  ['"location": "query"', 13, '"location": "body"'],
  ['"required": true', 5, '"required": "true"'],
  ['"format": "int64"', 3, '"format": "int63"'],
  ['"httpMethod": "GET"', 9, '"httpMethod": "FETCH"'],
  ['"enumDescriptions": [', 6, '"enumDescriptionz": ['],
  ['"flatPath": "', 8, '"flatPath": "x/'],
  ['"parameterOrder": [', 4, '"parameterOrder": ["nope", '],
  ['"description": "', 43, '"description": "d", "description": "'],
  ['"items": {', 10, '"items": {"type": "object", '],
  ['"path": "', 12, '"path": "{+missing}/'],
  ['"enum": [', 5, '"enum": ["DUP", "DUP", '],
  ['"parameterOrder": [', 3, '"parameterOrder": ["dup", "dup", '],
  ['"annotations": {', 2, '"annotations": {"required": ["no.such.method"], '],
  ['"scopes": [', 6, '"scopes": ["https://example.com/unknown-scope", '],
];

function variants(text: string): Record<string, string> {
  const damaged = DAMAGE.reduce((t, [find, every, by]) => everyNth(t, find, every, by), text);
  return {
    clean: text,
    damaged,
    jsonc: text.replace('{', '{\n  // a comment makes it JSONC\n'),
    truncated: damaged.slice(0, Math.floor(damaged.length * 0.6)),
  };
}

/** JSON with sorted object keys, so two equal findings built in a different key order hash the same. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

interface Summary {
  count: number;
  codes: Record<string, number>;
  sha256: string;
}

function summarise(text: string): Summary {
  const diagnostics = analyzeText(text, { rules: ALL_ON }).diagnostics;
  const codes: Record<string, number> = {};
  for (const d of diagnostics) codes[d.code] = (codes[d.code] ?? 0) + 1;
  const sha256 = createHash('sha256').update(canonical(diagnostics)).digest('hex');
  return { count: diagnostics.length, codes: Object.fromEntries(Object.entries(codes).sort()), sha256 };
}

describe('findings over the shared documents match the committed fixture', function () {
  this.timeout(120000);
  const { files, failIfMissing } = listAtLoad(realDocumentFiles);
  const update = process.env.UPDATE_FINDINGS_FIXTURE === '1';
  const fixture = update ? {} : (JSON.parse(readFileSync(FIXTURE, 'utf8')) as Record<string, Record<string, Summary>>);
  const fresh: Record<string, Record<string, Summary>> = {};

  it('covers every shared document', () => {
    failIfMissing();
    if (!update) assert.deepEqual(files.map((f) => basename(f)).sort(), Object.keys(fixture).sort());
  });

  for (const file of files) {
    it(`${basename(file)}: clean, damaged, JSONC and truncated`, () => {
      const text = readFileSync(file, 'utf8');
      const got = Object.fromEntries(Object.entries(variants(text)).map(([k, t]) => [k, summarise(t)]));
      fresh[basename(file)] = got;
      if (!update) assert.deepEqual(got, fixture[basename(file)]);
    });
  }

  after(() => {
    if (update) writeFileSync(FIXTURE, JSON.stringify(fresh, null, 1) + '\n');
  });
});
