import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { completeBody, type BodyCompletions } from '../../../src/discovery/core/tryIt';
import type { Obj } from '../../../src/discovery/core/model';
import { REPO_ROOT } from '../discovery/helpers';

const doc: Obj = {
  schemas: {
    Book: {
      id: 'Book',
      type: 'object',
      properties: {
        name: { type: 'string', description: 'Output only. Resource name.' },
        author: { type: 'string', description: 'Who wrote it.' },
        title: { type: 'string', description: 'The title.', annotations: { required: ['books.create'] } },
        state: {
          type: 'string',
          enum: ['DRAFT', 'PUBLISHED', 'RETIRED'],
          enumDescriptions: ['Not yet out.', 'In shops.', 'Gone.'],
          enumDeprecated: [false, false, true],
        },
        pages: { type: 'string', format: 'int64' },
        signed: { type: 'boolean' },
        etag: { type: 'string', readOnly: true },
        shelf: { $ref: 'Shelf' },
        notes: { type: 'array', items: { $ref: 'Note' } },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
      },
    },
    Shelf: { id: 'Shelf', type: 'object', properties: { theme: { type: 'string', enum: ['FICTION', 'HISTORY'] } } },
    Note: { id: 'Note', type: 'object', properties: { text: { type: 'string' }, pinned: { type: 'boolean' } } },
  },
};
const request = { $ref: 'Book' };

/** Completion at the `|` of `marked`. */
function at(marked: string, methodId = 'books.create'): BodyCompletions & { text: string } {
  const offset = marked.indexOf('|');
  const text = marked.slice(0, offset) + marked.slice(offset + 1);
  return { ...completeBody(doc, request, methodId, text, offset), text };
}
const labels = (r: BodyCompletions) => r.items.map((i) => i.label);
/** The text after accepting the item labelled `label`, with the caret as `|`. */
function accept(r: BodyCompletions & { text: string }, label: string): string {
  const item = r.items.find((i) => i.label === label);
  assert.ok(item, `no item ${label} in ${labels(r).join(', ')}`);
  let text = r.text;
  let shift = 0;
  if (r.commaAt !== undefined) {
    text = text.slice(0, r.commaAt) + ',' + text.slice(r.commaAt);
    shift = 1;
  }
  const start = r.replace.offset + shift;
  const out = text.slice(0, start) + item.insertText + text.slice(start + r.replace.length);
  const caret = start + item.caret;
  return out.slice(0, caret) + '|' + out.slice(caret);
}

describe('Try it: body completion from the request schema', () => {
  it('proposes the property names of an empty object, required first, output-only ones left out', () => {
    const r = at('{|}');
    assert.deepEqual(labels(r), ['title', 'author', 'state', 'pages', 'signed', 'shelf', 'notes', 'labels']);
    const title = r.items[0];
    assert.equal(title.required, true);
    assert.equal(title.detail, 'string');
    assert.equal(title.documentation, 'The title.');
    assert.equal(r.items.find((i) => i.label === 'pages')?.detail, 'string (int64)');
    assert.equal(r.items.find((i) => i.label === 'notes')?.detail, 'array of Note');
    assert.equal(r.items.find((i) => i.label === 'shelf')?.detail, 'Shelf');
  });

  it('required depends on the method', () => {
    assert.equal(at('{|}', 'books.patch').items.find((i) => i.label === 'title')?.required, undefined);
    assert.equal(labels(at('{|}', 'books.patch'))[0], 'author');
  });

  it('inserts the name, colon and an empty value of its type, the caret where the value goes', () => {
    assert.equal(accept(at('{|}'), 'title'), '{"title": "|"}');
    assert.equal(accept(at('{|}'), 'shelf'), '{"shelf": {|}}');
    assert.equal(accept(at('{|}'), 'notes'), '{"notes": [|]}');
    assert.equal(accept(at('{|}'), 'signed'), '{"signed": |}');
    assert.equal(at('{|}').items.find((i) => i.label === 'signed')?.retrigger, true);
    assert.equal(at('{|}').items.find((i) => i.label === 'state')?.retrigger, true);
  });

  it('filters by what is typed, quoted or not, and replaces it', () => {
    assert.deepEqual(labels(at('{"ti|')), ['title']);
    assert.equal(accept(at('{"ti|'), 'title'), '{"title": "|"');
    assert.equal(accept(at('{ au| }'), 'author'), '{ "author": "|" }');
    // Matches inside the name come after those that start with it.
    assert.deepEqual(labels(at('{"s|')), ['state', 'signed', 'shelf', 'pages', 'notes', 'labels']);
  });

  it('renaming an existing key replaces only the key, keeping its value', () => {
    assert.equal(accept(at('{"au|thor": "x"}'), 'author'), '{"author"|: "x"}');
  });

  it('leaves out the keys already present, before and after the cursor', () => {
    const r = at('{"title": "a",\n  |\n  "author": "b", "labels": {"x": "y"}}');
    assert.ok(!labels(r).includes('title') && !labels(r).includes('author') && !labels(r).includes('labels'));
    assert.ok(labels(r).includes('state'));
    assert.ok(!labels(r).includes('x'), 'a nested key is not a key of this object');
  });

  it('adds the missing comma after the previous member, and one before a following key', () => {
    assert.equal(accept(at('{"title": "a"\n  |\n}'), 'author'), '{"title": "a",\n  "author": "|"\n}');
    assert.equal(accept(at('{\n  |\n  "title": "a"\n}'), 'author'), '{\n  "author": "|",\n  "title": "a"\n}');
  });

  it('follows $ref, arrays and nesting into the schema the cursor is in', () => {
    assert.deepEqual(labels(at('{"shelf": {|')), ['theme']);
    assert.deepEqual(labels(at('{"notes": [{"text": "a"}, {|}]}')), ['text', 'pinned']);
    assert.deepEqual(labels(at('{"notes": [{"text": "a", "pinned": |')), ['true', 'false', 'null']);
  });

  it('proposes enum values with their descriptions, deprecated ones marked', () => {
    const r = at('{"state": |}');
    assert.deepEqual(labels(r), ['DRAFT', 'PUBLISHED', 'RETIRED', 'null']);
    assert.equal(r.items[1].documentation, 'In shops.');
    assert.equal(r.items[2].deprecated, true);
    assert.equal(accept(r, 'PUBLISHED'), '{"state": "PUBLISHED"|}');
    assert.deepEqual(labels(at('{"state": "PU|"}')), ['PUBLISHED']);
    assert.equal(accept(at('{"state": "PU|"}'), 'PUBLISHED'), '{"state": "PUBLISHED"|}');
    assert.deepEqual(labels(at('{"shelf": {"theme": "h|')), ['HISTORY']);
  });

  it('proposes true/false/null for a boolean, filtered by the word typed', () => {
    assert.deepEqual(labels(at('{"signed": |}')), ['true', 'false', 'null']);
    assert.deepEqual(labels(at('{"signed": f|}')), ['false']);
    assert.equal(accept(at('{"signed": tr|}'), 'true'), '{"signed": true|}');
    assert.deepEqual(labels(at('{"title": |')), ['null']);
  });

  it('proposes nothing after a key before its colon, inside a number, or past the end of the root', () => {
    assert.deepEqual(labels(at('{"title" |')), []);
    assert.deepEqual(labels(at('{"pages": 12|')), []);
    assert.deepEqual(labels(at('{} |')), []);
  });

  it('values of a map come from its additionalProperties', () => {
    assert.deepEqual(labels(at('{"labels": {"x": |')), ['null']);
    assert.deepEqual(labels(at('{"labels": {|')), []);
  });

  it('an empty body proposes the root object', () => {
    assert.equal(accept(at('|'), '{}'), '{|}');
  });

  it('works on the real store:v2 File schema (files.insert)', () => {
    const store = JSON.parse(readFileSync(join(REPO_ROOT, 'schemas', 'store.v2.json'), 'utf8')) as Obj;
    const r = completeBody(store, { $ref: 'File' }, 'drive.files.insert', '{"labels": {"st', 15);
    assert.deepEqual(
      r.items.map((i) => i.label),
      ['starred'],
    );
    const top = completeBody(store, { $ref: 'File' }, 'drive.files.insert', '{"ti', 4);
    assert.equal(top.items[0].label, 'title');
    assert.equal(top.items[0].documentation, 'Name shown to users; not unique within a folder.');
  });
});
