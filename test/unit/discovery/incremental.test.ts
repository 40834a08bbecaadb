import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeText, hoverAt, shiftedDiagnostics, shiftedIndex, type TextChange } from '../../../src/discovery/core';
import { minimalDocument } from './helpers';

const DATA = process.env.API_WORKBENCH_DATA
  ? join(process.env.API_WORKBENCH_DATA, 'discovery')
  : join(__dirname, '../../../../shared/data/discovery');

const apply = (text: string, c: TextChange) => text.slice(0, c.offset) + c.text + text.slice(c.offset + c.length);

/** The shortcut must give exactly what a full analysis of the edited text gives. */
function assertSameAsFull(text: string, change: TextChange): void {
  const before = analyzeText(text);
  const shifted = shiftedDiagnostics(text, change, before.diagnostics, before.parsed.strict);
  assert.ok(shifted, `the edit at ${change.offset} should be answered without a full analysis`);
  assert.deepEqual(shifted, analyzeText(apply(text, change)).diagnostics);
}

describe('edits inside a description', () => {
  it('move the findings after the edit and grow the ranges holding it, as a full analysis would', function () {
    this.timeout(60000);
    // A real document (its findings span the whole text) with seeded findings before and after.
    const text = readFileSync(join(DATA, 'bigquery.v2.json'), 'utf8');
    let seen = 0;
    for (
      let at = text.indexOf('"description": "');
      at >= 0 && seen < 12;
      at = text.indexOf('"description": "', at + 50_000)
    ) {
      const inside = at + 20;
      assertSameAsFull(text, { offset: inside, length: 0, text: 'typed words ' });
      assertSameAsFull(text, { offset: inside, length: 2, text: '' });
      assertSameAsFull(text, { offset: inside, length: 1, text: 'é😀' });
      seen++;
    }
    assert.ok(seen >= 5);
  });

  it('moves a duplicate key finding and the offset of its first occurrence', () => {
    const doc = minimalDocument();
    doc.description = 'A library of shelves.';
    const text = JSON.stringify(doc, null, 2).replace('"kind":', '"version": "v0",\n  "kind":');
    const before = analyzeText(text).diagnostics;
    assert.ok(before.some((d) => d.code === 'json-duplicate-key'));
    assertSameAsFull(text, { offset: text.indexOf('A library') + 2, length: 0, text: 'big ' });
  });

  it('leaves everything else to a full analysis', () => {
    const doc = minimalDocument();
    doc.description = 'Shelves \\u00e9 and "quoted" text.';
    doc.title = 'Library';
    const text = JSON.stringify(doc, null, 2);
    const diags = analyzeText(text).diagnostics;
    assert.ok(shiftedDiagnostics(text, { offset: text.indexOf('Shelves'), length: 0, text: 'x' }, diags, true));
    const d = text.indexOf('Shelves');
    const cases: TextChange[] = [
      { offset: d, length: 0, text: '"' }, // a quote ends the string
      { offset: d, length: 0, text: '\\' }, // a backslash starts an escape
      { offset: d, length: 0, text: '\n' }, // strings do not span lines
      { offset: text.indexOf('u00e9') + 1, length: 1, text: '' }, // splits an escape
      { offset: text.indexOf('quoted') - 2, length: 2, text: '' }, // removes a quote
      { offset: text.indexOf('Library') + 1, length: 0, text: 'x' }, // a title, not a description
      { offset: text.indexOf('"description"') + 3, length: 0, text: 'x' }, // the key itself
    ];
    for (const c of cases) assert.equal(shiftedDiagnostics(text, c, diags, true), undefined, JSON.stringify(c));
    // Text with comments (not strict JSON) is always analysed again.
    assert.equal(
      shiftedDiagnostics(text, { offset: text.indexOf('Shelves'), length: 0, text: 'x' }, diags, false),
      undefined,
    );
  });
});

describe('the index after an edit inside a description', () => {
  it('is what indexing the edited text gives: same structure, value and hover text', function () {
    this.timeout(60000);
    const text = readFileSync(join(DATA, 'bigquery.v2.json'), 'utf8');
    let seen = 0;
    for (
      let at = text.indexOf('"description": "', text.indexOf('"schemas": {'));
      at >= 0 && seen < 6;
      at = text.indexOf('"description": "', at + 80_000)
    ) {
      const change = { offset: at + 20, length: 1, text: 'typed é ' };
      const before = analyzeText(text);
      const shifted = shiftedIndex(before, change);
      assert.ok(shifted, `the edit at ${change.offset} should move the index`);
      const full = analyzeText(apply(text, change));
      const a = shifted.parsed.tree!;
      const b = full.parsed.tree!;
      assert.equal(shifted.parsed.text, full.parsed.text);
      assert.equal(a.count, b.count);
      for (const k of ['start', 'end', 'keyStart', 'keyEnd', 'parent'] as const) assert.deepEqual(a[k], b[k], k);
      assert.deepEqual(shifted.parsed.value, full.parsed.value);
      const hoverOffset = at + 5;
      assert.deepEqual(hoverAt(shifted, hoverOffset), hoverAt(full, hoverOffset));
      seen++;
    }
    assert.ok(seen >= 3);
  });

  it('is left to a new parse for structural edits and scope descriptions', () => {
    const doc = minimalDocument();
    doc.description = 'A library of shelves.';
    const text = JSON.stringify(doc, null, 2);
    const before = analyzeText(text);
    assert.equal(shiftedIndex(before, { offset: text.indexOf('"kind"'), length: 0, text: ' ' }), undefined);
    assert.equal(shiftedIndex(before, { offset: text.indexOf('A library') + 2, length: 0, text: '"' }), undefined);
    assert.ok(shiftedIndex(before, { offset: text.indexOf('A library') + 2, length: 0, text: 'big ' }));
  });
});
