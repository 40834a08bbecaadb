// Type-confused and truncated variants of a real-shaped document: every entry point must answer
// without throwing. A seeded generator keeps failures reproducible.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  analyzeText,
  completionsAt,
  definitionAt,
  documentSymbols,
  hoverAt,
  quickFixes,
  referencesAt,
  renameSchemaAt,
} from '../../../src/discovery/core';
import { REPO_ROOT } from './helpers';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const WEIRD: unknown[] = [
  null,
  0,
  -1.5,
  true,
  'text',
  [],
  {},
  [1, 'a', null],
  { $ref: 'Shelf' },
  { $ref: 7 },
  '{+name}',
  ['x', 'x'],
];

/** Replaces one random value somewhere in the tree with a value of another type. */
function mutate(value: unknown, r: () => number): unknown {
  const copy = JSON.parse(JSON.stringify(value)) as unknown;
  const containers: { holder: Record<string, unknown> | unknown[]; key: string | number }[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v))
      v.forEach((x, i) => {
        containers.push({ holder: v, key: i });
        walk(x);
      });
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        containers.push({ holder: v as Record<string, unknown>, key: k });
        walk(x);
      }
  };
  walk(copy);
  for (let n = 0; n < 3; n++) {
    const c = containers[Math.floor(r() * containers.length)];
    (c.holder as Record<string | number, unknown>)[c.key] = WEIRD[Math.floor(r() * WEIRD.length)];
  }
  return copy;
}

describe('fuzz: no entry point throws', function () {
  this.timeout(30000);
  const sample = JSON.parse(readFileSync(join(REPO_ROOT, 'samples/discovery/bookshelf.v1.json'), 'utf8')) as unknown;

  it('on 150 type-confused and truncated variants', () => {
    const r = rng(20260901);
    for (let i = 0; i < 150; i++) {
      let text = JSON.stringify(mutate(sample, r), null, i % 2 ? 2 : 0);
      if (i % 7 === 0) text = text.slice(0, Math.floor(r() * text.length));
      if (i % 11 === 0) text = text.replace(/,\n/g, ',\n// note\n');
      const a = analyzeText(text);
      assert.ok(Array.isArray(a.diagnostics));
      documentSymbols(a);
      for (let k = 0; k < 8; k++) {
        const offset = Math.floor(r() * (text.length + 1));
        hoverAt(a, offset);
        completionsAt(a, offset);
        definitionAt(a, offset);
        referencesAt(a, offset);
        renameSchemaAt(a, offset, 'Renamed');
      }
      for (const d of a.diagnostics) quickFixes(a, d);
    }
  });
});
