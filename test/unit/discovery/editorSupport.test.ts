import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  applyEdits,
  buildJsonTree,
  documentSymbols,
  fixSelection,
  FOLDING_LIMIT,
  foldingSpans,
  formatEdits,
  LineIndex,
  PARSE_CODES,
  SYMBOL_LIMIT,
  symbolPositions,
  type DocumentSymbol,
  RULES,
  ruleSectionLines,
} from '../../../src/discovery/core';
import { REPO_ROOT } from './helpers';

describe('discovery editor support: formatting', () => {
  it('lays out JSON with the editor indentation and keeps comments and trailing commas', () => {
    const text = '{"kind":"discovery#restDescription", // why\n"schemas":{"A":{"id":"A",},},}';
    const out = applyEdits(text, formatEdits(text, { tabSize: 2, insertSpaces: true, eol: '\n' }));
    assert.ok(out.includes('// why'));
    assert.ok(out.includes('\n  "schemas": {\n    "A": {\n      "id": "A",\n    },'), out);
  });

  it('formats only the given range', () => {
    const text = '{"a":{"b":1},\n"c":{"d":2}}';
    const c = text.indexOf('{"d"');
    const out = applyEdits(
      text,
      formatEdits(text, { tabSize: 4, insertSpaces: true, eol: '\n' }, { offset: c, length: 7 }),
    );
    assert.ok(out.startsWith('{"a":{"b":1}'), out);
    assert.ok(out.includes('"d": 2'), out);
  });
});

describe('discovery editor support: folding', () => {
  it('one span per object or array over more than one line, by line', () => {
    const text = '{\n  "a": {\n    "b": [1, 2]\n  },\n  "c": [\n    1\n  ]\n}';
    assert.deepEqual(foldingSpans(buildJsonTree(text)), [
      { startLine: 0, endLine: 7 },
      { startLine: 1, endLine: 3 },
      { startLine: 4, endLine: 6 },
    ]);
  });

  it('a minified document has nothing to fold', () => {
    assert.deepEqual(foldingSpans(buildJsonTree(JSON.stringify({ a: { b: [1, { c: 2 }] } }))), []);
  });
});

describe('discovery editor support: rule documentation links', () => {
  const text = readFileSync(join(REPO_ROOT, 'docs/rules.md'), 'utf8');
  const lines = ruleSectionLines(text);
  it('finds the heading line of every rule code in docs/rules.md', () => {
    const all = text.split('\n');
    for (const code of [...Object.keys(PARSE_CODES), ...RULES.map((r) => r.code)]) {
      const line = lines.get(code);
      assert.ok(line, code);
      assert.equal(all[line - 1], `## ${code}`);
    }
  });
  it('does not take other headings for codes', () => {
    assert.ok(!lines.has('Summary') && !lines.has('Changing severities'));
  });
});

describe('discovery editor support: what a quick fix shows', () => {
  it('the empty value to fill in, in the offsets after the edits', () => {
    const text = '{"a": 1, "b": 2}';
    const edits = [
      { offset: 1, length: 7, newText: '' },
      { offset: 15, length: 0, newText: ', "c": {"description": ""}' },
    ];
    const s = fixSelection(edits);
    const after = applyEdits(text, edits);
    assert.ok(s);
    assert.equal(after.slice(s.offset - 1, s.offset + 1), '""');
    assert.equal(s.length, 0);
  });
  it('otherwise the inserted text without its separators', () => {
    const text = '["a"]';
    const s = fixSelection([{ offset: 4, length: 0, newText: ', "b"' }]);
    assert.ok(s);
    assert.equal(
      applyEdits(text, [{ offset: 4, length: 0, newText: ', "b"' }]).slice(s.offset, s.offset + s.length),
      '"b"',
    );
  });
  it('nothing for a deletion', () => {
    assert.equal(fixSelection([{ offset: 0, length: 3, newText: '' }]), undefined);
  });
});

describe('discovery editor support: packaging', () => {
  it('the .vsix ships docs/rules.md, the target of every rule code link', () => {
    const lines = readFileSync(join(REPO_ROOT, '.vscodeignore'), 'utf8').split('\n');
    assert.ok(lines.includes('!docs/rules.md'));
    assert.ok(!lines.includes('docs/**') || lines.indexOf('!docs/rules.md') > lines.indexOf('docs/**'));
  });
});

describe('discovery editor support: big documents', () => {
  // A document with far more foldable objects and symbols than the editor keeps.
  const schemas: Record<string, unknown> = {};
  for (let i = 0; i < 3000; i++)
    schemas[`S${i}`] = { id: `S${i}`, type: 'object', properties: { a: { type: 'string' }, b: { $ref: 'S0' } } };
  const text = JSON.stringify(
    { kind: 'discovery#restDescription', resources: { r: { methods: {} } }, schemas },
    null,
    2,
  );
  const tree = buildJsonTree(text);

  it('folds at most the editor maximum, dropping the deepest levels first', () => {
    const all = foldingSpans(tree, Infinity);
    const kept = foldingSpans(tree);
    assert.ok(all.length > FOLDING_LIMIT);
    assert.equal(kept.length, FOLDING_LIMIT);
    // The outer levels are all there: the document, "schemas" and every schema.
    for (const line of [0, 1]) assert.ok(kept.some((s) => s.startLine === all[line].startLine));
    const schemaLines = new Set(kept.map((s) => s.startLine));
    const lines = new LineIndex(text);
    for (let i = 0; i < 3000; i++) {
      const line = lines.positionAt(text.indexOf(`"S${i}": {`)).line - 1;
      assert.ok(schemaLines.has(line), `schema S${i} folds`);
    }
  });

  it('lists at most the symbol limit, breadth first: every schema before any property', () => {
    const syms = documentSymbols(tree);
    let count = 0;
    const walk = (s: DocumentSymbol[]): void => {
      for (const x of s) {
        count++;
        walk(x.children);
      }
    };
    walk(syms);
    assert.equal(count, SYMBOL_LIMIT);
    const schemasSection = syms.find((s) => s.name === 'schemas')!;
    assert.equal(schemasSection.detail, '3000');
    assert.equal(schemasSection.children.length, 3000);
    assert.equal(documentSymbols(tree, Infinity).find((s) => s.name === 'schemas')!.children[2999].children.length, 2);
  });

  it('gives the line and column of every symbol as the editor counts them, with LF or CRLF line breaks', () => {
    for (const eol of ['\n', '\r\n']) {
      const t = text.slice(0, 20_000).replace(/\n/g, eol) + '}}}';
      const syms = documentSymbols(buildJsonTree(t));
      // The editor's way: split into lines on its line break, then count.
      const starts = [0];
      for (let i = t.indexOf(eol); i >= 0; i = t.indexOf(eol, i + 1)) starts.push(i + eol.length);
      const editorPosition = (offset: number) => {
        let line = 0;
        while (line + 1 < starts.length && starts[line + 1] <= offset) line++;
        return [line, offset - starts[line]];
      };
      const expected: number[] = [];
      const walk = (list: DocumentSymbol[]): void => {
        for (const s of list) {
          for (const o of [s.range.offset, s.range.offset + s.range.length, s.selection.offset])
            expected.push(...editorPosition(o));
          expected.push(...editorPosition(s.selection.offset + s.selection.length));
          walk(s.children);
        }
      };
      walk(syms);
      assert.ok(expected.length > 400, `${expected.length / 8} symbols`);
      assert.deepEqual([...symbolPositions(syms, t)], expected, JSON.stringify(eol));
    }
  });
});
