// Every resource body the storage sandbox reads, with every member (and every element of a list, and every
// member of a nested object, through $refs) given a value of the wrong type: the answer is a 400 in the Drive
// error shape naming the member, never a 500. The wrong values are generated from our own description
// document, so a member added to a schema is covered without touching this table.
import * as assert from 'node:assert/strict';
import store from '../../../schemas/store.v2.json';
import type { ErrorBody } from '../../../src/shared/wire/storage';
import { startStorage, type Harness } from './emulatorHarness';

interface Node {
  type?: string;
  $ref?: string;
  items?: Node;
  properties?: Record<string, Node>;
  additionalProperties?: Node;
}

const SCHEMAS = (store as unknown as { schemas: Record<string, Node> }).schemas;

/** Values that are not of the node's type (a null element of a list is wrong too: it is not "unset"). */
function wrongValues(node: Node): unknown[] {
  switch (node.type) {
    case 'string':
      return [5, true, {}, []];
    case 'boolean':
      return ['yes', 1, {}];
    case 'integer':
    case 'number':
      return ['many', {}, [], true];
    case 'array':
      return ['x', 5, {}];
    case 'object':
      return ['x', 5, []];
    default:
      return [];
  }
}

interface Case {
  /** Where the wrong value sits, as the service names it (`parents[0].id`). */
  location: string;
  body: unknown;
}

/** Builds bodies with one wrong value each, walking the schema up to `depth` levels of nesting. */
function cases(
  node: Node,
  depth: number,
  seen: readonly string[] = [],
): { location: string; wrap: (v: unknown) => unknown; node: Node }[] {
  const out: { location: string; wrap: (v: unknown) => unknown; node: Node }[] = [];
  if (node.$ref) {
    if (seen.includes(node.$ref) && depth < 2) return out;
    return cases(SCHEMAS[node.$ref], depth, [...seen, node.$ref]);
  }
  if (depth <= 0) return out;
  if (node.type === 'object' || node.properties) {
    for (const [key, sub] of Object.entries(node.properties ?? {})) {
      out.push({ location: key, wrap: (v) => ({ [key]: v }), node: resolve(sub) });
      for (const inner of cases(sub, depth - 1, seen))
        out.push({
          location: inner.location.startsWith('[') ? key + inner.location : `${key}.${inner.location}`,
          wrap: (v) => ({ [key]: inner.wrap(v) }),
          node: inner.node,
        });
    }
    if (node.additionalProperties) {
      const sub = node.additionalProperties;
      out.push({ location: 'someKey', wrap: (v) => ({ someKey: v }), node: resolve(sub) });
      for (const inner of cases(sub, depth - 1, seen))
        out.push({
          location: inner.location.startsWith('[') ? 'someKey' + inner.location : `someKey.${inner.location}`,
          wrap: (v) => ({ someKey: inner.wrap(v) }),
          node: inner.node,
        });
    }
  } else if (node.type === 'array' && node.items) {
    const items = node.items;
    out.push({ location: '[0]', wrap: (v) => [v], node: resolve(items) });
    for (const inner of cases(items, depth - 1, seen))
      out.push({
        location: inner.location.startsWith('[') ? '[0]' + inner.location : `[0].${inner.location}`,
        wrap: (v) => [inner.wrap(v)],
        node: inner.node,
      });
  }
  return out;
}

function resolve(node: Node): Node {
  let n = node;
  for (let i = 0; n.$ref && i < 8; i++) n = SCHEMAS[n.$ref];
  return n;
}

function bodiesOf(schema: string): Case[] {
  const out: Case[] = [];
  for (const c of cases({ type: 'object', ...SCHEMAS[schema] }, 3)) {
    for (const v of wrongValues(c.node)) out.push({ location: c.location, body: c.wrap(v) });
    // A null element of a list is a wrong-typed element, not an unset member.
    if (c.location.endsWith(']')) out.push({ location: c.location, body: c.wrap(null) });
  }
  return out;
}

describe('sandbox storage: a wrong-typed member anywhere in a resource body → 400 naming it', function () {
  this.timeout(120_000);
  let h: Harness;
  const ids: Record<string, string> = {};

  before(async () => {
    h = await startStorage();
    const file = await h.call<{ id: string }>('POST', '/store/v2/files', { body: { title: 'typed' } });
    ids.file = file.json.id;
    const folder = await h.call<{ id: string }>('POST', '/store/v2/files', {
      body: { title: 'dir', mimeType: 'application/vnd.google-apps.folder' },
    });
    ids.folder = folder.json.id;
    const perm = await h.call<{ id: string }>('POST', `/store/v2/files/${ids.file}/permissions`, {
      body: { role: 'reader', type: 'anyone' },
    });
    ids.permission = perm.json.id;
    const comment = await h.call<{ commentId: string }>('POST', `/store/v2/files/${ids.file}/comments`, {
      body: { content: 'c' },
    });
    ids.comment = comment.json.commentId;
    const reply = await h.call<{ replyId: string }>(
      'POST',
      `/store/v2/files/${ids.file}/comments/${ids.comment}/replies`,
      { body: { content: 'r' } },
    );
    ids.reply = reply.json.replyId;
    await h.call('POST', `/store/v2/files/${ids.file}/properties`, { body: { key: 'k', value: 'v' } });
    const drive = await h.call<{ id: string }>('POST', '/store/v2/drives?requestId=typed-1', { body: { name: 'd' } });
    ids.drive = drive.json.id;
    const revs = await h.call<{ items: { id: string }[] }>('GET', `/store/v2/files/${ids.file}/revisions`);
    ids.revision = revs.json.items[0].id;
    for (const [k, v] of Object.entries(ids)) assert.ok(v, `set-up made no ${k}`);
  });
  after(() => h.close());

  const routes: [method: string, path: () => string, schema: string][] = [
    ['POST', () => '/store/v2/files', 'File'],
    ['PATCH', () => `/store/v2/files/${ids.file}`, 'File'],
    ['PUT', () => `/store/v2/files/${ids.file}`, 'File'],
    ['POST', () => `/store/v2/files/${ids.file}/copy`, 'File'],
    ['POST', () => `/store/v2/files/${ids.file}/modifyLabels`, 'ModifyLabelsRequest'],
    ['POST', () => `/store/v2/files/${ids.file}/parents`, 'ParentReference'],
    ['POST', () => `/store/v2/files/${ids.folder}/children`, 'ChildReference'],
    ['POST', () => `/store/v2/files/${ids.file}/permissions`, 'Permission'],
    ['PATCH', () => `/store/v2/files/${ids.file}/permissions/${ids.permission}`, 'Permission'],
    ['POST', () => `/store/v2/files/${ids.file}/properties`, 'Property'],
    ['PATCH', () => `/store/v2/files/${ids.file}/properties/k`, 'Property'],
    ['PATCH', () => `/store/v2/files/${ids.file}/revisions/${ids.revision}`, 'Revision'],
    ['POST', () => `/store/v2/files/${ids.file}/comments`, 'Comment'],
    ['PATCH', () => `/store/v2/files/${ids.file}/comments/${ids.comment}`, 'Comment'],
    ['POST', () => `/store/v2/files/${ids.file}/comments/${ids.comment}/replies`, 'CommentReply'],
    ['PATCH', () => `/store/v2/files/${ids.file}/comments/${ids.comment}/replies/${ids.reply}`, 'CommentReply'],
    ['POST', () => '/store/v2/drives?requestId=typed-2', 'Drive'],
    ['PUT', () => `/store/v2/drives/${ids.drive}`, 'Drive'],
    ['POST', () => '/store/v2/changes/watch', 'Channel'],
    ['POST', () => `/store/v2/files/${ids.file}/watch`, 'Channel'],
    ['POST', () => '/store/v2/channels/stop', 'Channel'],
  ];

  for (const [method, path, schema] of routes) {
    it(`${method} ${path().replace(/undefined/g, '{id}')} (${schema})`, async () => {
      const all = bodiesOf(schema);
      assert.ok(all.length > 0);
      const wrong: string[] = [];
      for (const c of all) {
        const a = await h.call<ErrorBody>(method, path(), { body: c.body });
        const location = a.json?.error?.errors?.[0]?.location;
        if (a.status !== 400 || a.json?.error?.code !== 400 || location !== c.location)
          wrong.push(`${JSON.stringify(c.body)} → ${a.status} at ${String(location)} (want 400 at ${c.location})`);
      }
      assert.deepEqual(wrong.slice(0, 10), [], `${wrong.length} of ${all.length} bodies`);
    });
  }

  it('the multipart and resumable upload metadata: a null parent → 400', async () => {
    const boundary = 'b0undary';
    const multipart = [
      `--${boundary}`,
      'content-type: application/json',
      '',
      JSON.stringify({ title: 'm', parents: [null] }),
      `--${boundary}`,
      'content-type: text/plain',
      '',
      'hello',
      `--${boundary}--`,
      '',
    ].join('\r\n');
    const m = await h.call<ErrorBody>('POST', '/upload/store/v2/files?uploadType=multipart', {
      raw: multipart,
      headers: { 'content-type': `multipart/related; boundary=${boundary}` },
    });
    assert.equal(m.status, 400, m.text);
    assert.equal(m.json.error.errors[0].location, 'parents[0]');
    const r = await h.call<ErrorBody>('POST', '/upload/store/v2/files?uploadType=resumable', {
      body: { title: 'r', parents: [null] },
    });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.json.error.errors[0].location, 'parents[0]');
  });
});
