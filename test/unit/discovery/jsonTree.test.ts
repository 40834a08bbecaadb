import * as assert from 'node:assert/strict';
import {
  buildJsonTree,
  keyOf,
  keyNodeAtOffset,
  nodeAt,
  nodeAtOffset,
  pathOf,
  NodeKind,
} from '../../../src/discovery/core';

describe('json structural index', () => {
  const text = '{\n  "a": {"b": [1, "two", {"c": null}]},\n  // note\n  "d\\"q": true,\n}';
  const tree = buildJsonTree(text);

  it('finds nodes by path with exact offsets', () => {
    const c = nodeAt(tree, ['a', 'b', 2, 'c']);
    assert.equal(text.slice(tree.start[c], tree.end[c]), 'null');
    const two = nodeAt(tree, ['a', 'b', 1]);
    assert.equal(text.slice(tree.start[two], tree.end[two]), '"two"');
    assert.equal(tree.kind[two], NodeKind.String);
    assert.equal(nodeAt(tree, ['a', 'zz']), -1);
  });

  it('decodes escaped keys and maps offsets back to paths', () => {
    const q = nodeAt(tree, ['d"q']);
    assert.ok(q > 0);
    assert.equal(keyOf(tree, q), 'd"q');
    assert.deepEqual(pathOf(tree, nodeAtOffset(tree, text.indexOf('null') + 1)), ['a', 'b', 2, 'c']);
    const k = keyNodeAtOffset(tree, text.indexOf('"c"') + 1);
    assert.deepEqual(pathOf(tree, k), ['a', 'b', 2, 'c']);
  });

  it('reports duplicate keys in small and large objects', () => {
    assert.equal(buildJsonTree('{"a":1,"b":2,"a":3}').duplicates.length, 1);
    const many = '{' + Array.from({ length: 40 }, (_, i) => `"k${i}":${i}`).join(',') + ',"k7":0}';
    const t = buildJsonTree(many);
    assert.equal(t.duplicates.length, 1);
    assert.equal(keyOf(t, t.duplicates[0].node), 'k7');
  });

  it('indexes runs of blanks the same in ASCII text (skipped four at a time) and in other text', () => {
    const blanks = [' ', '  ', '   ', '    ', '     ', '\n', '\n      ', '\n\t   ', '\r\n        ', '       \t  \n'];
    let ascii = '{';
    for (let i = 0; i < 40; i++) {
      const b = blanks[i % blanks.length];
      ascii += `${b}"k${i}"${b}:${b}[${b}${i}${b},${b}"v"${b},${b}{${b}}${b}]${b}${i < 39 ? ',' : ''}`;
    }
    ascii += '   }   ';
    // One non-ASCII letter of the same length in place of "v" takes the other path; every offset is unchanged.
    const other = ascii.replace('"v"', '"\u00e9"');
    assert.notEqual(other, ascii);
    const a = buildJsonTree(ascii);
    const o = buildJsonTree(other);
    assert.equal(a.count, o.count);
    assert.equal(a.count, 1 + 40 * 4);
    for (const k of ['kind', 'start', 'end', 'parent', 'keyStart', 'keyEnd', 'firstChild', 'nextSibling'] as const)
      assert.deepEqual(a[k].slice(0, a.count), o[k].slice(0, o.count), k);
    const last = nodeAt(a, ['k39', 2]);
    assert.equal(ascii.slice(a.start[last], a.end[last]), '{       \t  \n}');
  });

  it('links children past the first allocation (dense values make the index grow several times)', () => {
    const text = `{"a":[${'1,'.repeat(20000)}1],"b":{${Array.from({ length: 3000 }, (_, i) => `"k${i}":[]`).join(',')}}}`;
    const t = buildJsonTree(text);
    const a = nodeAt(t, ['a']);
    const b = nodeAt(t, ['b']);
    assert.equal(t.count, 1 + 1 + 20001 + 1 + 3000);
    assert.equal(t.childCount[a], 20001);
    assert.equal(t.childCount[b], 3000);
    let n = 0;
    for (let c = t.firstChild[a]; c >= 0; c = t.nextSibling[c], n++) assert.equal(t.parent[c], a);
    assert.equal(n, 20001);
    assert.equal(t.nextSibling[a], b);
    assert.equal(keyOf(t, nodeAt(t, ['b', 'k2999'])), 'k2999');
    assert.equal(t.firstChild[nodeAt(t, ['b', 'k2999'])], -1);
  });

  it('survives 10,000 levels of nesting and garbage without throwing', () => {
    const deep = buildJsonTree('['.repeat(10000) + ']'.repeat(10000));
    assert.equal(deep.maxDepth, 10000);
    const junk = buildJsonTree('}}]] "unterminated {[ :: ,, \u0000\u0007');
    assert.ok(junk.count >= 1);
  });
});
