import * as assert from 'node:assert/strict';
import { analyzeText, parseJson, type JsonTree } from '../../../src/discovery/core';

const HEAD = '{"kind": "discovery#restDescription", ';

describe('bad input never crashes or hangs', () => {
  it('reports truncated JSON as a syntax error', () => {
    const a = analyzeText(HEAD + '"schemas": {"A": {"id": "A", "type": "obj');
    assert.ok(a.diagnostics.some((d) => d.code === 'json-syntax' && d.severity === 'error'));
  });

  it('reports text that is not JSON', () => {
    const a = analyzeText('this is not json at all');
    assert.ok(a.diagnostics.some((d) => d.code === 'json-syntax'));
    assert.equal(a.model, undefined);
  });

  it('reports duplicate keys at the second key', () => {
    const text = HEAD + '"schemas": {}, "schemas": {}}';
    const dup = analyzeText(text).diagnostics.filter((d) => d.code === 'json-duplicate-key');
    assert.equal(dup.length, 1);
    assert.equal(dup[0].offset, text.lastIndexOf('"schemas"'));
  });

  it('refuses 10,000-deep nesting with one warning', () => {
    const text = HEAD + '"x": ' + '{"a": '.repeat(10000) + '1' + '}'.repeat(10000) + '}';
    const a = analyzeText(text);
    assert.deepEqual(
      a.diagnostics.map((d) => d.code),
      ['document-too-deep'],
    );
  });

  it('refuses a document over the size limit without parsing it', () => {
    // Broken past the head, so any parse would report json-syntax; the spies see whether one ran at all.
    const text = HEAD + '"description": "' + 'x'.repeat(50 * 1024 * 1024) + '" ,, }}';
    const realParse = JSON.parse;
    let jsonParses = 0;
    JSON.parse = (...args: Parameters<typeof JSON.parse>): unknown => {
      jsonParses++;
      return realParse(...args);
    };
    let treeReads = 0;
    const tree = new Proxy({} as JsonTree, {
      get: () => {
        treeReads++;
        return undefined;
      },
    });
    let p: ReturnType<typeof parseJson>;
    try {
      p = parseJson(text, {}, tree);
    } finally {
      JSON.parse = realParse;
    }
    assert.deepEqual(
      p.problems.map((d) => d.code),
      ['document-too-large'],
    );
    assert.equal(p.tree, undefined);
    assert.equal(p.value, undefined);
    assert.equal(jsonParses, 0, 'JSON.parse ran');
    assert.equal(treeReads, 0, 'the structural index was read');
  });

  it('survives binary content', () => {
    const bytes = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)).toString('latin1');
    assert.doesNotThrow(() => analyzeText(bytes));
    assert.doesNotThrow(() => analyzeText(HEAD + bytes));
  });
});
