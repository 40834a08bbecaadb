// A small description document with one of everything the diff compares, for seeding single changes.
import * as assert from 'node:assert/strict';
import { diffDiscovery, DIFF_CODES, type DiffChange, type DiffPlace } from '../../../../src/discovery/core/diff';

const SCOPE = 'https://demo.example.com/auth/demo';

export function baseDocument() {
  return {
    kind: 'discovery#restDescription',
    discoveryVersion: 'v1',
    id: 'demo:v1',
    name: 'demo',
    version: 'v1',
    revision: '20260101',
    title: 'Demo API',
    description: 'A document for tests.',
    protocol: 'rest',
    rootUrl: 'https://demo.example.com/',
    servicePath: '',
    batchPath: 'batch',
    auth: { oauth2: { scopes: { [SCOPE]: { description: 'Everything' } } } },
    parameters: { key: { type: 'string', location: 'query', description: 'API key.' } },
    schemas: {
      Item: {
        id: 'Item',
        type: 'object',
        description: 'An item.',
        properties: {
          name: { type: 'string', annotations: { required: ['demo.items.insert'] } },
          size: { type: 'string', format: 'int64', description: 'Bytes.' },
          tags: { type: 'array', items: { type: 'string' } },
          owner: { $ref: 'Owner' },
        },
      },
      Owner: { id: 'Owner', type: 'object', properties: { email: { type: 'string' } } },
      Contact: { id: 'Contact', type: 'object', properties: { email: { type: 'string' } } },
      CreateRequest: {
        id: 'CreateRequest',
        type: 'object',
        properties: {
          mode: { type: 'string', enum: ['FAST', 'SAFE'], enumDescriptions: ['Fast.', 'Safe.'] },
          title: { type: 'string' },
        },
      },
      Status: {
        id: 'Status',
        type: 'object',
        properties: {
          state: { type: 'string', enum: ['ACTIVE', 'DELETED'], enumDescriptions: ['Live.', 'Gone.'] },
        },
      },
    },
    resources: {
      items: {
        methods: {
          get: {
            id: 'demo.items.get',
            path: 'v1/{+name}',
            flatPath: 'v1/items/{itemsId}',
            httpMethod: 'GET',
            description: 'Gets an item.',
            parameters: {
              name: { type: 'string', location: 'path', required: true, pattern: '^items/[^/]+$' },
              view: { type: 'string', location: 'query', enum: ['BASIC', 'FULL'], enumDescriptions: ['b', 'f'] },
              fields: { type: 'string', location: 'query', repeated: true },
            },
            parameterOrder: ['name'],
            response: { $ref: 'Item' },
            scopes: [SCOPE, `${SCOPE}.readonly`],
            supportsMediaDownload: true,
          },
          create: {
            id: 'demo.items.create',
            path: 'v1/items',
            httpMethod: 'POST',
            request: { $ref: 'CreateRequest' },
            response: { $ref: 'Status' },
            scopes: [SCOPE],
          },
          delete: {
            id: 'demo.items.delete',
            path: 'v1/{+name}',
            httpMethod: 'DELETE',
            parameters: { name: { type: 'string', location: 'path', required: true } },
            scopes: [SCOPE],
          },
          insert: {
            id: 'demo.items.insert',
            path: 'v1/items:insert',
            httpMethod: 'POST',
            request: { $ref: 'Item' },
            response: { $ref: 'Item' },
            scopes: [SCOPE],
            supportsMediaUpload: true,
            mediaUpload: {
              accept: ['image/*', 'text/plain'],
              maxSize: '10MB',
              protocols: { simple: { multipart: true, path: '/upload/v1/items' } },
            },
          },
        },
      },
    },
  };
}

export type Doc = ReturnType<typeof baseDocument>;
export const DEMO_SCOPE = SCOPE;

/** Diffs the base against a copy changed by `seed`; both pretty-printed like real documents. */
export function diffSeeded(seed: (doc: Doc) => void): { changes: DiffChange[]; oldText: string; newText: string } {
  const before = baseDocument();
  const after = baseDocument();
  seed(after);
  const oldText = JSON.stringify(before, null, 2);
  const newText = JSON.stringify(after, null, 2);
  return { changes: diffDiscovery(oldText, newText), oldText, newText };
}

/** The value at an RFC 6901 pointer, walked independently of the code under test. */
function valueAt(root: unknown, pointer: string): unknown {
  let v = root;
  for (const raw of pointer.split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(v)) v = v[Number(seg)];
    else if (typeof v === 'object' && v !== null) v = (v as Record<string, unknown>)[seg];
    else return undefined;
  }
  return v;
}

/** A place names an existing value, and its line shows that value's key (or, in an array, the value). */
export function assertPlace(text: string, place: DiffPlace, what: string): void {
  const value = valueAt(JSON.parse(text), place.pointer);
  assert.notEqual(value, undefined, `${what}: ${place.pointer} does not exist`);
  const line = text.split('\n')[place.line - 1] ?? '';
  const last = place.pointer.split('/').pop()!.replace(/~1/g, '/').replace(/~0/g, '~');
  const element = /^\d+$/.test(last);
  const marker = !element
    ? JSON.stringify(last)
    : typeof value === 'object' && value !== null
      ? Array.isArray(value)
        ? '['
        : '{'
      : JSON.stringify(value);
  assert.ok(line.includes(marker), `${what}: line ${place.line} ${JSON.stringify(line)} lacks ${marker}`);
}

/** Every change carries its code's severity and well-placed pointers on the sides where it exists. */
export function assertWellFormed(changes: DiffChange[], oldText: string, newText: string): void {
  for (const c of changes) {
    assert.equal(c.severity, DIFF_CODES[c.code].severity, c.code);
    assert.ok(c.old || c.new, `${c.code} has no place at all`);
    assert.ok(!c.message.includes('\n') && c.message.length > 10, `${c.code}: one-line message`);
    if (c.old) assertPlace(oldText, c.old, `${c.code} old`);
    if (c.new) assertPlace(newText, c.new, `${c.code} new`);
  }
}
