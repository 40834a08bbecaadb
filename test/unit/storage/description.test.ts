import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { defaultOperations, OperationTable } from '../../../src/storage/core/operations';
import { OPERATION_IDS } from '../../../src/storage/core/operationTypes';
import { sharedData, sharedSpecification } from '../../support/sharedData';

const DOC_PATH = path.join(__dirname, '../../../schemas/store.v2.json');
const doc = JSON.parse(fs.readFileSync(DOC_PATH, 'utf8')) as StoreDescription;

interface Method {
  id: string;
  path: string;
  httpMethod: string;
  parameters: Record<
    string,
    { location?: string; required?: boolean; type?: string; enum?: string[]; enumDescriptions?: string[] }
  >;
  parameterOrder: string[];
  scopes: string[];
  request?: { $ref: string };
  response?: { $ref: string };
  supportsMediaUpload?: boolean;
  mediaUpload?: { protocols: Record<string, { path: string }> };
}
interface StoreDescription {
  kind: string;
  servicePath: string;
  resources: Record<string, { methods: Record<string, Method> }>;
  schemas: Record<string, { id: string }>;
  auth: { oauth2: { scopes: Record<string, unknown> } };
}
const methods: Method[] = Object.values(doc.resources).flatMap((r) => Object.values(r.methods));

describe('schemas/store.v2.json (our description of the storage API)', () => {
  it('describes exactly the operations of spec §4.2 with their verbs and paths', () => {
    const rows = [
      ...fs
        .readFileSync(sharedSpecification(), 'utf8')
        .matchAll(/^\| (\w+) \| (\w+) \| (GET|POST|PUT|PATCH|DELETE) \/store\/v2\/(\S+)/gm),
    ];
    assert.equal(rows.length, 69);
    const byId = new Map(methods.map((m) => [m.id, m]));
    for (const [, res, op, verb, p] of rows) {
      const m = byId.get(`store.${res}.${op}`);
      assert.ok(m, `store.${res}.${op}`);
      assert.equal(m.httpMethod, verb, m.id);
      assert.equal(m.path, p, m.id);
    }
    assert.equal(methods.length, rows.length);
    assert.deepEqual(Object.keys(doc.resources).sort(), [
      'about',
      'apps',
      'changes',
      'channels',
      'children',
      'comments',
      'drives',
      'files',
      'parents',
      'permissions',
      'properties',
      'replies',
      'revisions',
    ]);
  });

  it('resolves under /store/v2 and uploads under /upload/store/v2', () => {
    assert.equal(doc.servicePath, 'store/v2/');
    assert.equal(doc.kind, 'discovery#restDescription');
    const insert = methods.find((m) => m.id === 'store.files.insert')!;
    assert.equal(insert.mediaUpload!.protocols.simple.path, '/upload/store/v2/files');
    const ops = defaultOperations();
    assert.equal(ops.uploadPath, 'upload/store/v2/');
    assert.deepEqual(
      ops.resolve(ops.get('replies.get'), { fileId: 'f 1', commentId: 'c', replyId: 'r', fields: 'content' }),
      { path: 'files/f%201/comments/c/replies/r', query: { fields: 'content' } },
    );
    assert.throws(() => ops.resolve(ops.get('files.export'), { fileId: 'x' }), /needs mimeType/);
  });

  it('is internally consistent: refs, parameter order, path parameters, ids, scopes, enums', () => {
    const errors: string[] = [];
    const walk = (node: unknown, where: string): void => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${where}[${i}]`));
      if (!node || typeof node !== 'object') return;
      const o = node as Record<string, unknown>;
      if (typeof o.$ref === 'string' && !doc.schemas[o.$ref]) errors.push(`${where}: $ref ${o.$ref}`);
      if (o.type === 'array' && !o.items) errors.push(`${where}: array without items`);
      for (const [k, v] of Object.entries(o)) walk(v, `${where}.${k}`);
    };
    walk(doc, '#');
    for (const [k, s] of Object.entries(doc.schemas)) if (s.id !== k) errors.push(`schema ${k} id ${s.id}`);
    const scopes = new Set(Object.keys(doc.auth.oauth2.scopes));
    const ids = new Set<string>();
    for (const m of methods) {
      if (ids.has(m.id)) errors.push(`duplicate ${m.id}`);
      ids.add(m.id);
      const required = Object.entries(m.parameters)
        .filter(([, p]) => p.required)
        .map(([n]) => n)
        .sort();
      if (JSON.stringify([...m.parameterOrder].sort()) !== JSON.stringify(required))
        errors.push(`${m.id}: parameterOrder ${m.parameterOrder.join(',')} vs required ${required.join(',')}`);
      for (const [, v] of m.path.matchAll(/\{\+?([^}]+)\}/g))
        if (m.parameters[v]?.location !== 'path') errors.push(`${m.id}: {${v}} is not a path parameter`);
      for (const [n, p] of Object.entries(m.parameters)) {
        if (p.location === 'path' && (!p.required || !m.path.includes(`{${n}}`)))
          errors.push(`${m.id}: path parameter ${n}`);
        if (p.enum && p.enum.length !== p.enumDescriptions?.length) errors.push(`${m.id}: enumDescriptions of ${n}`);
      }
      if (m.scopes.length === 0) errors.push(`${m.id}: no scopes`);
      for (const s of m.scopes) if (!scopes.has(s)) errors.push(`${m.id}: undeclared scope ${s}`);
      if (!!m.supportsMediaUpload !== !!m.mediaUpload) errors.push(`${m.id}: mediaUpload iff supportsMediaUpload`);
    }
    assert.deepEqual(errors, []);
  });

  it("has its own prose, not the Drive document's", () => {
    const drivePath = sharedData('discovery', 'drive.v2.json');
    const drive: unknown = JSON.parse(fs.readFileSync(drivePath, 'utf8'));
    const theirs = new Set<string>();
    const collect = (n: unknown): void => {
      if (Array.isArray(n)) return n.forEach(collect);
      if (!n || typeof n !== 'object') return;
      for (const [k, v] of Object.entries(n)) {
        if (k === 'description' && typeof v === 'string' && v.length > 30) theirs.add(v);
        else collect(v);
      }
    };
    collect(drive);
    const copied: string[] = [];
    const check = (n: unknown): void => {
      if (Array.isArray(n)) return n.forEach(check);
      if (!n || typeof n !== 'object') return;
      for (const [k, v] of Object.entries(n)) {
        if (k === 'description' && typeof v === 'string' && theirs.has(v)) copied.push(v);
        else check(v);
      }
    };
    check(doc);
    assert.deepEqual(copied, []);
  });

  it('gets no diagnostics from our discovery language service', async () => {
    const { analyzeText } = await import('../../../src/discovery/core');
    const analysis = analyzeText(fs.readFileSync(DOC_PATH, 'utf8'));
    assert.deepEqual(
      analysis.diagnostics.map((d) => `${d.severity} ${d.code}: ${d.message}`),
      [],
    );
  });

  it('the typed operation map covers every operation of the document', () => {
    assert.deepEqual([...OPERATION_IDS].sort(), defaultOperations().ids().sort());
  });

  it('drives the client from another description document (its servicePath)', () => {
    const other = new OperationTable({
      rootUrl: 'https://example.com/',
      servicePath: 'drive/v2/',
      resources: {
        files: {
          methods: {
            get: {
              httpMethod: 'GET',
              path: 'files/{fileId}',
              parameters: { fileId: { location: 'path', required: true } },
              parameterOrder: ['fileId'],
            },
          },
        },
      },
    });
    assert.equal(other.servicePath, 'drive/v2/');
    assert.equal(other.uploadPath, 'upload/drive/v2/');
    assert.equal(other.resolve(other.get('drive.files.get'), { fileId: 'a' }).path, 'files/a');
  });
});
