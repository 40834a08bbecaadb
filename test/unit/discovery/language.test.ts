import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  analyzeText,
  applyEdits,
  completionsAt,
  definitionAt,
  documentSymbols,
  hoverAt,
  referencesAt,
  renameSchemaAt,
} from '../../../src/discovery/core';
import { REPO_ROOT } from './helpers';

const text = readFileSync(join(REPO_ROOT, 'samples/discovery/bookshelf.v1.json'), 'utf8');
const analysis = analyzeText(text);
/** Offset just inside the n-th occurrence of a marker (plus a shift). */
const at = (marker: string, shift = 1, nth = 0): number => {
  let i = -1;
  for (let k = 0; k <= nth; k++) i = text.indexOf(marker, i + 1);
  assert.ok(i >= 0, marker);
  return i + shift;
};
const slice = (s: { offset: number; length: number }) => text.slice(s.offset, s.offset + s.length);

describe('discovery language features (core)', () => {
  describe('hover', () => {
    it('a $ref shows the target schema with type, description and properties', () => {
      const h = hoverAt(analysis, at('"$ref": "Author"', 10))!;
      assert.match(h.markdown, /\*\*Author\*\* · `object`/);
      assert.match(h.markdown, /A person who writes books/);
      assert.match(h.markdown, /`displayName`: `string`/);
    });

    it('a method shows verb, full URL, parameters and scopes', () => {
      const h = hoverAt(analysis, at('"get": {', 2))!;
      assert.match(h.markdown, /`GET https:\/\/bookshelf\.example\.com\/v1\/\{\+name\}`/);
      assert.match(h.markdown, /`name`: `string` \(path, required\)/);
      assert.match(h.markdown, /auth\/books\.readonly/);
    });

    it('a scope shows its description; an enum value its enumDescriptions entry', () => {
      const scope = hoverAt(analysis, at('"scopes": ["https://bookshelf.example.com/auth/books"', 13))!;
      assert.match(scope.markdown, /Read and change your shelves and books/);
      const e = hoverAt(analysis, at('"HISTORY"'))!;
      assert.match(e.markdown, /Past events/);
    });

    it("a key shows our schema's field docs", () => {
      const h = hoverAt(analysis, at('"servicePath"'))!;
      assert.match(h.markdown, /Path of the API under rootUrl/);
      const f = hoverAt(analysis, at('"parameterOrder"'))!;
      assert.match(f.markdown, /required parameters, most important first/);
    });
  });

  describe('completion', () => {
    it('offers schema names in a $ref', () => {
      const labels = completionsAt(analysis, at('"$ref": "Author"', 10)).items.map((c) => c.label);
      assert.deepEqual(labels.sort(), ['Author', 'Book', 'Empty', 'ListBooksResponse', 'ListShelvesResponse', 'Shelf']);
    });

    it('offers keys that are valid and missing, with value snippets', () => {
      const offset = at('"list": {\n          "id"', 10);
      const items = completionsAt(analysis, offset).items;
      const labels = items.map((c) => c.label);
      assert.ok(labels.includes('supportsMediaUpload'));
      assert.ok(!labels.includes('httpMethod'), 'present keys are not offered again');
      const upload = items.find((c) => c.label === 'supportsMediaUpload')!;
      assert.equal(upload.insertText, '"supportsMediaUpload": ${1|true,false|}');
    });

    it('offers enum-like values, formats for the type, scopes and parameters', () => {
      assert.ok(completionsAt(analysis, at('"httpMethod": "GET"', 15)).items.some((c) => c.label === 'PATCH'));
      const formats = completionsAt(analysis, at('"format": "int64"', 12)).items.map((c) => c.label);
      assert.ok(formats.includes('uint64') && !formats.includes('int32'));
      assert.ok(completionsAt(analysis, at('"location": "query"', 14)).items.some((c) => c.label === 'path'));
      const scopes = completionsAt(analysis, at('"scopes": ["https://bookshelf.example.com/auth/books"', 13)).items.map(
        (c) => c.label,
      );
      assert.equal(scopes.length, 2);
      const params = completionsAt(analysis, at('"parameterOrder": ["parent"]', 20)).items.map((c) => c.label);
      assert.equal(params[0], 'parent');
    });
  });

  describe('navigation', () => {
    it('goes from a $ref to the schema key', () => {
      const d = definitionAt(analysis, at('"$ref": "ListBooksResponse"', 10))!;
      assert.equal(slice(d), '"ListBooksResponse"');
      assert.ok(text.slice(d.offset).startsWith('"ListBooksResponse": {'));
    });

    it('goes from a scope to auth and from parameterOrder to the parameter', () => {
      const s = definitionAt(analysis, at('"scopes": ["https://bookshelf.example.com/auth/books"', 13))!;
      assert.equal(slice(s), '"https://bookshelf.example.com/auth/books"');
      assert.ok(s.offset < text.indexOf('"parameters"'));
      const p = definitionAt(analysis, at('"parameterOrder": ["parent"]', 20))!;
      assert.equal(slice(p), '"parent"');
      assert.ok(text.slice(p.offset).startsWith('"parent": {'));
    });

    it('finds every reference of a schema', () => {
      const refs = referencesAt(analysis, at('"Shelf": {', 2));
      assert.equal(refs.length, 4, 'declaration + 3 $refs');
      assert.deepEqual(refs.slice(1).map(slice), ['"Shelf"', '"Shelf"', '"Shelf"']);
    });

    it('renames a schema everywhere and refuses collisions', () => {
      const r = renameSchemaAt(analysis, at('"$ref": "Shelf"', 10), 'Bookcase');
      assert.ok('edits' in r);
      const next = applyEdits(text, r.edits);
      const after = analyzeText(next);
      assert.ok(after.model!.schemas.has('Bookcase'));
      assert.ok(!after.model!.schemas.has('Shelf'));
      assert.equal(after.model!.schemas.get('Bookcase')!.value.id, 'Bookcase');
      assert.equal(after.model!.refsByTarget.get('Bookcase')!.length, 3);
      assert.deepEqual(
        after.diagnostics.filter((d) => d.severity === 'error').map((d) => d.data?.target),
        ['Note'],
      );
      const clash = renameSchemaAt(analysis, at('"$ref": "Shelf"', 10), 'Book');
      assert.ok('error' in clash && /already exists/.test(clash.error));
    });

    it('lists resources → methods and schemas as symbols', () => {
      const syms = documentSymbols(analysis);
      const names = syms.map((s) => s.name);
      assert.deepEqual(names, ['resources', 'schemas', 'parameters', 'scopes']);
      const shelves = syms[0].children[0];
      assert.equal(shelves.name, 'shelves');
      assert.deepEqual(
        shelves.children.map((c) => `${c.kind}:${c.name}`),
        ['method:list', 'method:create', 'resource:books'],
      );
      assert.equal(shelves.children[0].detail, 'GET v1/shelves');
      assert.ok(
        syms[1].children.some(
          (s) => s.name === 'Book' && s.children.some((p) => p.name === 'author' && p.detail === 'Author'),
        ),
      );
      assert.equal(slice(shelves.selection), '"shelves"');
    });
  });
});
