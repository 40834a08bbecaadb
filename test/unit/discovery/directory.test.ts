import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDirectoryEmulator, createDirectoryEmulatorFrom } from '../../../src/sandbox/directory';
import { CATALOG, type CatalogEntry } from '../../../src/sandbox/directory/catalog';
import type { Emulator, SandboxContext } from '../../../src/sandbox/types';
import { analyzeText } from '../../../src/discovery/core';
import type { DirectoryError, DirectoryList } from '../../../src/shared/wire/discovery';
import { jsonOf } from '../../support/typedJson';
import { minimalDocument } from './helpers';

/** The parts of a served description document these tests read. */
interface ServedDescription {
  kind: string;
  id: string;
  rootUrl: string;
  baseUrl: string;
  servicePath: string;
  resources: Record<string, { methods: Record<string, { path: string }> }>;
}

async function serve(make: (ctx: SandboxContext) => Emulator): Promise<{ origin: string; close(): Promise<void> }> {
  let origin = '';
  const ctx: SandboxContext = { apiKey: 'k', accessToken: 't', origin: () => origin };
  const emulator = make(ctx);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    void emulator.handle(req, res, url);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise<void>((r) => server.close(() => r())) };
}

function doc(name: string, version: string): Record<string, unknown> {
  return { ...minimalDocument(), name, version, id: `${name}:${version}`, title: `${name} ${version}` };
}

describe('sandbox directory emulator', () => {
  const catalog: CatalogEntry[] = [
    { doc: doc('demo', 'v1'), preferred: false },
    { doc: { ...doc('demo', 'v2'), labels: ['limited_availability'] }, preferred: true },
    { doc: doc('other', 'v1'), preferred: true },
  ];
  let s: Awaited<ReturnType<typeof serve>>;
  before(async () => {
    s = await serve((ctx) => createDirectoryEmulatorFrom(ctx, () => catalog));
  });
  after(() => s.close());

  it('lists every API as a discovery#directoryList pointing at the sandbox', async () => {
    const res = await fetch(`${s.origin}/discovery/v1/apis`);
    assert.equal(res.status, 200);
    const body = await jsonOf<DirectoryList>(res);
    assert.equal(body.kind, 'discovery#directoryList');
    assert.equal(body.discoveryVersion, 'v1');
    assert.deepEqual(
      body.items?.map((i) => i.id),
      ['demo:v1', 'demo:v2', 'other:v1'],
    );
    const item = body.items?.[1];
    assert.ok(item);
    assert.equal(item.kind, 'discovery#directoryItem');
    assert.equal(item.discoveryRestUrl, `${s.origin}/discovery/v1/apis/demo/v2/rest`);
    assert.equal(item.preferred, true);
    assert.deepEqual(item.labels, ['limited_availability']);
  });

  it('filters by name and preferred like the real service', async () => {
    const byName = await jsonOf<DirectoryList>(await fetch(`${s.origin}/discovery/v1/apis?name=demo`));
    assert.deepEqual(
      byName.items?.map((i) => i.id),
      ['demo:v1', 'demo:v2'],
    );
    const pref = await jsonOf<DirectoryList>(await fetch(`${s.origin}/discovery/v1/apis?preferred=true`));
    assert.deepEqual(
      pref.items?.map((i) => i.id),
      ['demo:v2', 'other:v1'],
    );
    const none = await jsonOf<DirectoryList>(await fetch(`${s.origin}/discovery/v1/apis?name=nothing`));
    assert.equal(none.items, undefined);
    const bad = await fetch(`${s.origin}/discovery/v1/apis?preferred=yes`);
    assert.equal(bad.status, 400);
    assert.equal((await jsonOf<DirectoryError>(bad)).error.code, 400);
  });

  it('serves a description with rootUrl rewritten to the sandbox', async () => {
    const res = await fetch(`${s.origin}/discovery/v1/apis/demo/v1/rest`);
    assert.equal(res.status, 200);
    const body = await jsonOf<ServedDescription>(res);
    assert.equal(body.kind, 'discovery#restDescription');
    assert.equal(body.rootUrl, `${s.origin}/`);
    assert.equal(body.baseUrl, `${s.origin}/`);
    assert.equal(catalog[0].doc.rootUrl, 'https://demo.example.com/', 'the catalog copy is untouched');
  });

  it('answers unknown documents, paths and methods with Google-shaped errors', async () => {
    const missing = await fetch(`${s.origin}/discovery/v1/apis/demo/v9/rest`);
    assert.equal(missing.status, 404);
    assert.equal((await jsonOf<DirectoryError>(missing)).error.status, 'NOT_FOUND');
    assert.equal((await fetch(`${s.origin}/discovery/v1/elsewhere`)).status, 404);
    assert.equal((await fetch(`${s.origin}/discovery/v1/apis`, { method: 'POST' })).status, 405);
  });
});

describe('sandbox directory catalog', () => {
  it("serves the repository's own storage and generation documents, each validating without errors", async () => {
    const s = await serve(createDirectoryEmulator);
    try {
      const list = await jsonOf<DirectoryList>(await fetch(`${s.origin}/discovery/v1/apis`));
      const ids = list.items?.map((i) => i.id);
      assert.deepEqual(
        ids,
        CATALOG.map((e) => `${String(e.doc.name)}:${String(e.doc.version)}`),
      );
      assert.ok(ids?.includes('store:v2'));
      assert.ok(ids?.some((id) => id.endsWith(':v1beta')));
      for (const item of list.items ?? []) {
        const text = await (await fetch(item.discoveryRestUrl)).text();
        const a = analyzeText(text);
        assert.ok(a.model, `${item.id} is a description document`);
        assert.equal(a.model.root.rootUrl, `${s.origin}/`);
        const errors = a.diagnostics.filter((d) => d.severity === 'error' || d.severity === 'warning');
        assert.deepEqual(
          errors.map((d) => `${item.id} ${d.code}: ${d.message}`),
          [],
        );
      }
    } finally {
      await s.close();
    }
  });

  it("describes itself: the served discovery:v1 document's methods reach this emulator", async () => {
    const s = await serve(createDirectoryEmulator);
    try {
      const doc = await jsonOf<ServedDescription>(await fetch(`${s.origin}/discovery/v1/apis/discovery/v1/rest`));
      const base = doc.rootUrl + doc.servicePath;
      const list = doc.resources.apis.methods.list;
      const listed = await fetch(`${base}${list.path}?preferred=true`);
      assert.equal(listed.status, 200);
      assert.equal((await jsonOf<DirectoryList>(listed)).kind, 'discovery#directoryList');
      const getRest = doc.resources.apis.methods.getRest;
      const url = base + getRest.path.replace('{api}', 'store').replace('{version}', 'v2');
      const got = await fetch(url);
      assert.equal(got.status, 200);
      assert.equal((await jsonOf<ServedDescription>(got)).id, 'store:v2');
    } finally {
      await s.close();
    }
  });
});
