import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeText } from '../../../src/discovery/core';
import { REPO_ROOT, lineOf, lineOfText, minimalDocument } from './helpers';

const errorsOf = (text: string, code: string) => analyzeText(text).diagnostics.filter((d) => d.code === code);

describe('rule ref-unresolved', () => {
  it('is silent on a clean document', () => {
    assert.deepEqual(analyzeText(JSON.stringify(minimalDocument(), null, 2)).diagnostics, []);
  });

  it('flags an unknown $ref on the line of its value, with a suggestion', () => {
    const doc = minimalDocument();
    doc.resources.items.methods.get.response = { $ref: 'Itme' };
    const text = JSON.stringify(doc, null, 2);
    const found = errorsOf(text, 'ref-unresolved');
    assert.equal(found.length, 1);
    assert.equal(found[0].severity, 'error');
    assert.equal(lineOf(text, found[0]), lineOfText(text, '"Itme"'));
    assert.equal(text.slice(found[0].offset, found[0].offset + found[0].length), '"Itme"');
    assert.match(found[0].message, /Did you mean "Item"/);
  });

  it('reads a "$ref" key inside properties as a property name, not a reference', () => {
    const doc = minimalDocument();
    doc.schemas.Item.properties.$ref = { type: 'string', description: 'a property literally named $ref' };
    assert.deepEqual(errorsOf(JSON.stringify(doc), 'ref-unresolved'), []);
    doc.schemas.Item.properties.$ref = { $ref: 'Nope' };
    assert.equal(errorsOf(JSON.stringify(doc), 'ref-unresolved').length, 1);
  });

  it('follows refs in items, additionalProperties, parameters and variants', () => {
    const doc = minimalDocument();
    doc.schemas.Item.properties.map = { type: 'object', additionalProperties: { $ref: 'Missing1' } };
    doc.schemas.Item.properties.tags.items = { $ref: 'Missing2' };
    doc.schemas.Item.variant = { discriminant: 'kind', map: [{ type_value: 'A', $ref: 'Missing3' }] };
    doc.resources.items.methods.insert.request = { $ref: 'Missing4' };
    const targets = errorsOf(JSON.stringify(doc), 'ref-unresolved')
      .map((d) => d.data?.target)
      .sort();
    assert.deepEqual(targets, ['Missing1', 'Missing2', 'Missing3', 'Missing4']);
  });

  it('handles self and mutual $ref cycles without looping', () => {
    const doc = minimalDocument();
    doc.schemas.Node = { id: 'Node', type: 'object', properties: { next: { $ref: 'Node' }, other: { $ref: 'Other' } } };
    doc.schemas.Other = { id: 'Other', type: 'object', properties: { back: { $ref: 'Node' } } };
    assert.deepEqual(
      analyzeText(JSON.stringify(doc)).diagnostics.filter((d) => d.severity === 'error'),
      [],
    );
  });

  it("shows the sample document's deliberate defect", () => {
    const text = readFileSync(join(REPO_ROOT, 'samples/discovery/bookshelf.v1.json'), 'utf8');
    const found = analyzeText(text).diagnostics.filter((d) => d.severity === 'error');
    assert.equal(found.length, 1);
    assert.equal(found[0].code, 'ref-unresolved');
    assert.equal(lineOf(text, found[0]), lineOfText(text, '"$ref": "Note"'));
  });

  it('works on JSONC with comments and trailing commas', () => {
    const text =
      '{\n  // comment\n  "kind": "discovery#restDescription",\n  "schemas": {\n    "A": {"id": "A", "type": "object", "properties": {"b": {"$ref": "B"},},},\n  },\n}\n';
    const a = analyzeText(text);
    assert.deepEqual(
      a.diagnostics
        .filter((d) => d.code.startsWith('ref') || d.code.startsWith('json'))
        .map((d) => [d.code, lineOf(text, d)]),
      [['ref-unresolved', 5]],
    );
  });
});
