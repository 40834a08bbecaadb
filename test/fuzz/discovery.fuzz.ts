// Fuzz: discovery analysis (parse + every rule) over mutated real documents. Properties: never
// throws, no rule gives up on an input (`rule-failed`), every diagnostic lies inside the text.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { analyzeText } from '../../src/discovery/core/analyze';
import { RULES } from '../../src/discovery/core/rules';
import { budget, fuzz, mutateBytes, mutateTree } from './fuzz';

const DIR = process.env.API_WORKBENCH_DATA
  ? join(process.env.API_WORKBENCH_DATA, 'discovery')
  : resolve(__dirname, '../../../shared/data/discovery');
// The smaller real documents: mutations are what is fuzzed, and small documents allow many of them.
const DOCS = readdirSync(DIR)
  .filter((f) => f.endsWith('.json') && f !== 'directory-list.json' && statSync(join(DIR, f)).size < 120_000)
  .map((f) => ({ name: f, text: readFileSync(join(DIR, f), 'utf8') }));
const ALL_RULES_ON = Object.fromEntries(RULES.map((r) => [r.code, 'warning' as const]));

describe('fuzz: discovery analysis on mutated real documents', () => {
  it('has real documents to mutate', () => {
    assert.ok(DOCS.length >= 5, `only ${DOCS.length} documents under ${DIR}`);
  });

  for (const [kind, seed] of [
    ['value-level (type confusion)', 51],
    ['byte-level (damaged text)', 52],
  ] as const) {
    it(`${kind}: never throws, no rule fails, diagnostics inside the text`, () => {
      const n = fuzz(seed, budget({ iterations: 2000, seconds: 4 }), (r) => {
        const doc = r.pick(DOCS);
        const text =
          seed === 51
            ? JSON.stringify(mutateTree(r, JSON.parse(doc.text), 1 + r.int(12)), null, r.chance(0.5) ? 1 : 0)
            : mutateBytes(r, Buffer.from(doc.text)).toString('utf8');
        const a = analyzeText(text, { rules: ALL_RULES_ON });
        const failed = a.diagnostics.filter((d) => d.code === 'rule-failed');
        assert.deepEqual(
          failed.map((d) => d.message),
          [],
          doc.name,
        );
        // A syntax error at the end of the text may underline the one missing character after it.
        for (const d of a.diagnostics)
          assert.ok(
            d.offset >= 0 && d.length >= 0 && d.offset <= text.length && d.offset + d.length <= text.length + 1,
            `${d.code} at ${d.offset}+${d.length}`,
          );
      });
      assert.ok(n > 0);
    });
  }
});
