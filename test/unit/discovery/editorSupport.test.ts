import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  applyEdits,
  buildJsonTree,
  fixSelection,
  foldingSpans,
  formatEdits,
  PARSE_CODES,
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
