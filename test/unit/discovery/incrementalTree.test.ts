// shiftedTree (the outline's and folding's index carried across a keystroke) must equal a fresh
// index of the edited text whenever it answers, and answer for the common keystrokes.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import {
  applyChange,
  buildJsonTree,
  documentSymbols,
  shiftedSymbols,
  shiftedTree,
  symbolEdgeWithin,
  type DocumentSymbol,
  type JsonTree,
  type TextChange,
} from '../../../src/discovery/core';
import { Random } from '../../fuzz/fuzz';
import { listAtLoad } from '../../support/sharedData';
import { realDocumentFiles } from './helpers';

const ARRAYS = [
  'kind',
  'start',
  'end',
  'parent',
  'keyStart',
  'keyEnd',
  'firstChild',
  'nextSibling',
  'childCount',
] as const;

/** Every symbol's range and selection as line:column pairs in `text`. */
function positions(symbols: readonly DocumentSymbol[], text: string): string[] {
  const at = (o: number) => {
    const line = text.slice(0, o).split('\n').length - 1;
    return `${line}:${o - (text.lastIndexOf('\n', o - 1) + 1)}`;
  };
  const out: string[] = [];
  const walk = (s: DocumentSymbol) => {
    out.push(
      `${at(s.range.offset)}-${at(s.range.offset + s.range.length)} ${at(s.selection.offset)}-${at(s.selection.offset + s.selection.length)}`,
    );
    s.children.forEach(walk);
  };
  symbols.forEach(walk);
  return out;
}

function assertSameTree(got: JsonTree, want: JsonTree, what: string): void {
  assert.equal(got.text, want.text, what);
  assert.equal(got.count, want.count, what);
  assert.equal(got.maxDepth, want.maxDepth, what);
  assert.deepEqual(got.duplicates, want.duplicates, what);
  for (const k of ARRAYS)
    for (let i = 0; i < want.count; i++)
      if (got[k][i] !== want[k][i]) assert.fail(`${what}: ${k}[${i}] ${got[k][i]} ≠ ${want[k][i]}`);
}

/** A keystroke-like edit somewhere: a letter, a blank, a quote, a backslash, a newline, a deletion. */
function randomChange(r: Random, text: string): TextChange {
  const offset = 1 + r.int(text.length - 2);
  switch (r.int(7)) {
    case 0:
      return { offset, length: 0, text: r.pick(['x', 'é', '1', ' ', '  ', '\t']) };
    case 1:
      return { offset, length: 1, text: '' };
    case 2:
      return { offset, length: 1, text: r.pick(['y', ' ', '"', '}']) };
    case 3:
      return { offset, length: 0, text: r.pick(['"', '\\', '\n', ',', ':', '{', '//', '/*']) };
    case 4:
      return { offset, length: Math.min(3, text.length - offset - 1), text: r.pick(['', 'abc', ' ']) };
    default: {
      // Typing into a string: an offset inside the quotes of a nearby value.
      const q = text.indexOf('": "', offset);
      return q < 0 ? { offset, length: 0, text: 'z' } : { offset: q + 5, length: 0, text: r.pick(['z', 'ab', ' ']) };
    }
  }
}

describe('shiftedTree and shiftedSymbols: the structure and outline carried across an edit', function () {
  this.timeout(60000);
  const { files, failIfMissing } = listAtLoad(realDocumentFiles);

  it('equals a fresh index whenever it answers, and answers for most keystrokes', () => {
    failIfMissing();
    const docs = files
      .map((f) => ({ name: basename(f), text: readFileSync(f, 'utf8') }))
      .filter((d) => d.text.length < 400_000)
      .slice(0, 10);
    docs.push({
      name: 'broken',
      text: '{"a": [1, 2, "x\\"y", {"b": tru, "c": "unterminated\n  }, /* c */ "d": 1 // e\n}',
    });
    const r = new Random(11);
    let answered = 0;
    let asked = 0;
    let moved = 0;
    let kept = 0;
    for (const doc of docs) {
      let tree = buildJsonTree(doc.text);
      for (let i = 0; i < 150; i++) {
        const change = randomChange(r, tree.text);
        const shifted = shiftedTree(tree, change);
        const fresh = buildJsonTree(applyChange(tree.text, change));
        asked++;
        if (shifted) {
          answered++;
          assertSameTree(shifted, fresh, `${doc.name} edit ${i} ${JSON.stringify(change)}`);
          const symbols = shiftedSymbols(documentSymbols(tree), tree, change);
          if (symbols) {
            moved++;
            const before = documentSymbols(tree);
            assert.deepEqual(symbols, documentSymbols(fresh), `${doc.name} symbols after edit ${i}`);
            // With no symbol edge from the edit to its line's end, every symbol keeps its line and column.
            const lineEnd = tree.text.indexOf('\n', change.offset);
            const sameLine = !/[\r\n]/.test(
              change.text + tree.text.slice(change.offset, change.offset + change.length),
            );
            if (sameLine && !symbolEdgeWithin(before, change.offset, lineEnd < 0 ? tree.text.length : lineEnd)) {
              kept++;
              assert.deepEqual(
                positions(symbols, fresh.text),
                positions(before, tree.text),
                `${doc.name} symbol positions after edit ${i} ${JSON.stringify(change)}`,
              );
            }
          }
        }
        // Carry on from the edited text, as typing does.
        tree = shifted ?? fresh;
      }
    }
    assert.ok(answered > asked * 0.4, `answered only ${answered} of ${asked} edits`);
    assert.ok(moved > answered * 0.5, `moved the symbols for only ${moved} of ${answered} edits`);
    assert.ok(kept > moved * 0.3, `kept the symbols' positions for only ${kept} of ${moved} edits`);
  });

  it('finds a symbol edge between an edit and the end of its line, and none inside a key', () => {
    const text = '{\n  "schemas": {\n    "A": {"type": "string"}\n  }\n}';
    const symbols = documentSymbols(buildJsonTree(text));
    const a = text.indexOf('"A"');
    const lineEnd = text.indexOf('\n', a);
    assert.ok(symbolEdgeWithin(symbols, a - 1, lineEnd), 'the key of A starts after the edit on its line');
    const key = text.indexOf('"schemas"');
    assert.ok(!symbolEdgeWithin(symbols, key + 3, key + 5), 'no edge inside a key');
    const typeValue = text.indexOf('string');
    assert.ok(symbolEdgeWithin(symbols, typeValue, lineEnd), "A's range ends after the value on its line");
  });

  it('refuses an edit inside a key (keys decide duplicates) and a quote inside a string', () => {
    const text = '{"ab": 1, "a": "text"}';
    const tree = buildJsonTree(text);
    assert.equal(shiftedTree(tree, { offset: 3, length: 1, text: '' }), undefined);
    assert.equal(shiftedTree(tree, { offset: 17, length: 0, text: '"' }), undefined);
    assert.ok(shiftedTree(tree, { offset: 17, length: 0, text: 'more ' }));
  });
});
