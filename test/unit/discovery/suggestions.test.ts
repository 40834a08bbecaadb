// "Did you mean" work is bounded per document, and findings on long lists are placed without
// re-walking the list for each one.
import * as assert from 'node:assert/strict';
import { editDistance, NameSuggester, SUGGESTION_BUDGET, closestName } from '../../../src/discovery/core/similar';
import { analyzeText } from '../../../src/discovery/core/analyze';
import { childOf, nodeAt } from '../../../src/discovery/core/jsonTreeLookup';
import { parseJson } from '../../../src/discovery/core/parse';

describe('discovery: bounded suggestions', () => {
  it('banded edit distance agrees with the definition, transpositions included', () => {
    assert.equal(editDistance('kitten', 'sitting'), 3);
    assert.equal(editDistance('Operation', 'Opreation'), 1);
    assert.equal(editDistance('abc', 'abc'), 0);
    assert.equal(editDistance('', 'abcd'), 4);
    assert.equal(editDistance('abcdefgh', 'zzzzzzzz', 2), 3, 'over the cap reports cap + 1');
    assert.equal(editDistance('abcdef', 'abcdefghij', 3), 4, 'a length gap over the cap stops at once');
  });

  it('still suggests typos, case slips and nothing for far names', () => {
    const s = new NameSuggester(['Operation', 'Operations', 'Policy', 'ListOperationsResponse']);
    assert.equal(s.suggest('Operaton'), 'Operation');
    assert.equal(s.suggest('policy'), 'Policy');
    assert.equal(s.suggest('ListOperationResponse'), 'ListOperationsResponse');
    assert.equal(s.suggest('Unrelated'), undefined);
    assert.equal(closestName('Polcy', ['Policy']), 'Policy');
  });

  it('spends at most its budget however many names are asked about', () => {
    const names = Array.from({ length: 5000 }, (_, i) => `Schema${i.toString(36).padStart(4, '0')}Name`);
    const s = new NameSuggester(names);
    for (let i = 0; i < 5000; i++) s.suggest(`Missing${i.toString(36).padStart(4, '0')}Nam`);
    assert.ok(s.spent > 0);
    assert.ok(s.spent <= SUGGESTION_BUDGET + 1000, `spent ${s.spent}`);
    assert.equal(s.suggest('x'.repeat(100000)), undefined, 'a huge name is not compared at all');
  });

  it('reports every unresolved ref of a document with thousands of schemas and refs', () => {
    const n = 3000;
    const schemas: Record<string, unknown> = {};
    for (let i = 0; i < n; i++)
      schemas[`Schema${i}`] = { id: `Schema${i}`, type: 'object', properties: { p: { $ref: `Shema${i}` } } };
    const doc = {
      kind: 'discovery#restDescription',
      discoveryVersion: 'v1',
      id: 'x:v1',
      name: 'x',
      version: 'v1',
      rootUrl: 'https://x.example.com/',
      servicePath: '',
      baseUrl: 'https://x.example.com/',
      schemas,
    };
    const a = analyzeText(JSON.stringify(doc));
    const refs = a.diagnostics.filter((d) => d.code === 'ref-unresolved');
    assert.equal(refs.length, n);
    assert.match(refs[0].message, /Did you mean "Schema0"\?/);
  });

  it('finds the items of a long array by index', () => {
    const list = Array.from({ length: 5000 }, (_, i) => `v${i}`);
    const text = JSON.stringify({ a: list });
    const tree = parseJson(text).tree!;
    const node = nodeAt(tree, ['a', 4321]);
    assert.equal(text.slice(tree.start[node], tree.end[node]), '"v4321"');
    assert.equal(childOf(tree, nodeAt(tree, ['a']), 5000), -1);
    assert.equal(childOf(tree, nodeAt(tree, ['a']), 1.5), -1);
  });
});
