// Names a discovery document chooses (parameters, schemas, properties, types) and names a Try it form sends
// are used as keys: `__proto__`, `constructor`, `toString` and `hasOwnProperty` are names like any other.
import * as assert from 'node:assert/strict';
import { analyzeText, completionsAt } from '../../../src/discovery/core';
import type { Obj } from '../../../src/discovery/core/model';
import {
  buildTryRequest,
  checkBody,
  completeBody,
  expandTemplate,
  explainRpcError,
  mediaTypeOf,
  tryItForm,
  tryValuesOf,
} from '../../../src/discovery/core/tryIt';
import { seedValue } from '../../../src/discovery/core/tryIt/form';
import { minimalDocument } from './helpers';

const HOSTILE = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
const parse = (json: string) => JSON.parse(json) as Obj;

describe('discovery: hostile names as keys', () => {
  it('a parameterOrder entry named constructor or __proto__ that is no parameter is reported', () => {
    for (const k of HOSTILE) {
      const d = minimalDocument();
      d.resources.items.methods.get.parameterOrder = ['name', k];
      const found = analyzeText(JSON.stringify(d, null, 2)).diagnostics.filter(
        (x) => x.code === 'parameter-order-unknown',
      );
      assert.deepEqual(
        found.map((x) => x.data?.name),
        [k],
        k,
      );
    }
  });

  it('a schema named __proto__ is found in a document with a trailing comma as in a strict one', () => {
    const d = minimalDocument();
    d.resources.items.methods.get.response = { $ref: '__proto__' };
    const strict = JSON.stringify(d, null, 2).replace(
      '"schemas": {',
      '"schemas": {\n    "__proto__": {"id": "__proto__", "type": "object", "properties": {"a": {"type": "string"}}},',
    );
    const lenient = strict.replace('"batchPath": "batch"', '"batchPath": "batch",\n  // a comment\n');
    const codes = (text: string) =>
      analyzeText(text)
        .diagnostics.map((x) => x.code)
        .filter((c) => c !== 'json-syntax');
    assert.deepEqual(codes(strict), []);
    assert.deepEqual(codes(lenient), []);
  });

  it('format completion under a type named constructor offers every format, as for any unknown type', () => {
    const at = (type: string) => {
      const d = minimalDocument() as unknown as Obj;
      const text = JSON.stringify(d, null, 2).replace(
        '"name": {\n          "type": "string"\n        }',
        `"name": {\n          "type": ${JSON.stringify(type)},\n          "format": ""\n        }`,
      );
      const offset = text.indexOf('"format": ""') + '"format": "'.length;
      return completionsAt(analyzeText(text), offset).items.map((i) => i.label);
    };
    const unknown = at('zzz');
    assert.ok(unknown.length > 0);
    for (const k of HOSTILE) assert.deepEqual(at(k), unknown, k);
  });

  it('a Try it form lists a global parameter named toString and no field for a parameterOrder __proto__', () => {
    for (const k of HOSTILE) {
      const doc = parse(`{"parameters": {${JSON.stringify(k)}: {"type": "string", "location": "query"}}}`);
      const method = parse(
        `{"id": "m", "path": "v1/x", "httpMethod": "GET", "parameterOrder": ["__proto__"], "parameters": {"a": {"type": "string", "location": "query"}}}`,
      );
      const form = tryItForm(doc, method, 'm');
      assert.deepEqual(
        form.fields.map((f) => [f.name, f.global]),
        [
          ['a', false],
          [k, true],
        ],
        k,
      );
    }
  });

  it('a seeded request body keeps a property named __proto__', () => {
    const schema = parse(
      '{"type": "object", "properties": {"__proto__": {"type": "string"}, "constructor": {"type": "integer"}, "a": {"type": "boolean"}}}',
    );
    assert.equal(JSON.stringify(seedValue({}, schema, 'm')), '{"__proto__":"","constructor":0,"a":false}');
  });

  it('a body checks a key named __proto__ as any unknown key, and a required toString as any required one', () => {
    const schema = parse(
      '{"id": "S", "type": "object", "properties": {"a": {"type": "string"}, "toString": {"type": "string", "required": true}}}',
    );
    assert.deepEqual(
      checkBody({}, schema, 'm', '{"__proto__": 1, "constructor": 2, "a": "x"}').map((p) => [p.pointer, p.message]),
      [
        ['/__proto__', '"__proto__" is not a property of S.'],
        ['/constructor', '"constructor" is not a property of S.'],
        ['', '"toString" is required for m.'],
      ],
    );
  });

  it('a request is built with parameters named __proto__ and constructor, given or left empty', () => {
    const params = Object.fromEntries(
      HOSTILE.map((k, i) => [k, { type: 'string', location: i < 2 ? 'path' : 'query', required: i < 2 }]),
    );
    const method = parse(
      JSON.stringify({ id: 'm', path: 'v1/{__proto__}/{constructor}', httpMethod: 'GET', parameters: params }),
    );
    const doc = parse('{"rootUrl": "https://x.example/", "servicePath": ""}');
    const form = tryItForm(doc, method, 'm');
    const values = { params: parse('{"__proto__": ["p"], "constructor": ["c"]}') as Record<string, string[]> };
    assert.equal(buildTryRequest(doc, method, form, values).url, 'https://x.example/v1/p/c');
    const all = {
      params: parse('{"__proto__": ["p"], "constructor": ["c"], "toString": ["t"]}') as Record<string, string[]>,
    };
    assert.equal(buildTryRequest(doc, method, form, all).url, 'https://x.example/v1/p/c?toString=t');
  });

  it('a URI template variable named toString or __proto__ with no value expands to nothing', () => {
    for (const k of HOSTILE) {
      assert.equal(expandTemplate(`a/{${k}}/b{?${k}}`, {}), 'a//b', k);
      assert.equal(expandTemplate(`a/{${k}}`, parse(`{${JSON.stringify(k)}: "v"}`) as Record<string, string>), 'a/v');
    }
  });

  it('body completion inside a map entry keyed __proto__ offers the entry schema of the map', () => {
    const doc = parse(
      '{"schemas": {"Shelf": {"id": "Shelf", "type": "object", "properties": {"theme": {"type": "string"}}}}}',
    );
    const schema = parse(
      '{"type": "object", "properties": {"shelves": {"type": "object", "additionalProperties": {"$ref": "Shelf"}}}}',
    );
    for (const k of [...HOSTILE, 'a']) {
      const text = `{"shelves": {${JSON.stringify(k)}: {""}}}`;
      const offset = text.indexOf('{""}') + 2;
      assert.deepEqual(
        completeBody(doc, schema, 'm', text, offset).items.map((i) => i.label),
        ['theme'],
        k,
      );
    }
  });

  it('the values a form sends keep fields named __proto__ and constructor; a media file x.constructor is octet-stream', () => {
    const message: unknown = JSON.parse(
      '{"params": {"__proto__": ["p", 1], "constructor": ["c"], "a": "x"}, "body": "{}"}',
    );
    const values = tryValuesOf(message);
    assert.deepEqual(Object.getOwnPropertyDescriptor(values.params, '__proto__')?.value, ['p']);
    assert.deepEqual(Object.keys(values.params), ['__proto__', 'constructor']);
    assert.equal(values.body, '{}');
    assert.deepEqual(Object.keys(tryValuesOf(undefined).params), []);
    for (const k of HOSTILE) assert.equal(mediaTypeOf(`/w/file.${k}`), 'application/octet-stream', k);
    assert.equal(mediaTypeOf('/w/a.b/Notes.TXT'), 'text/plain');
  });

  it("a server's error status named constructor or toString has no meaning, as any unknown status", () => {
    for (const k of HOSTILE) {
      const e = explainRpcError(JSON.stringify({ error: { code: 499, message: 'm', status: k } }));
      assert.equal(e?.status, k);
      assert.equal(e?.meaning, undefined, k);
    }
  });
});
