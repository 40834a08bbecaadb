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

  it('survives 10,000 levels of nesting and garbage without throwing', () => {
    const deep = buildJsonTree('['.repeat(10000) + ']'.repeat(10000));
    assert.equal(deep.maxDepth, 10000);
    const junk = buildJsonTree('}}]] "unterminated {[ :: ,, \u0000\u0007');
    assert.ok(junk.count >= 1);
  });
});
