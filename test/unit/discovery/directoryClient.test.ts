import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { analyzeText } from '../../../src/discovery/core';
import {
  fetchDescription,
  fetchDirectory,
  fileNameFor,
  filterDirectory,
  DirectoryError,
} from '../../../src/discovery/core/directory';
import { redactUrl } from '../../../src/shared/http';
import { anchorForPath, escapeHtml, renderPreviewBody } from '../../../src/discovery/core/preview';
import { createDirectoryEmulatorFrom } from '../../../src/sandbox/directory';
import type { SandboxContext } from '../../../src/sandbox/types';
import { minimalDocument } from './helpers';

describe('directory client', () => {
  let origin = '';
  let server: http.Server;
  before(async () => {
    const ctx: SandboxContext = { apiKey: 'k', accessToken: 't', origin: () => origin };
    const em = createDirectoryEmulatorFrom(ctx, () => [
      { doc: { ...minimalDocument(), name: 'demo', version: 'v1', id: 'demo:v1', title: 'Demo API' }, preferred: true },
      {
        doc: {
          ...minimalDocument(),
          name: 'demo',
          version: 'v0',
          id: 'demo:v0',
          title: 'Old demo',
          labels: ['deprecated'],
        },
        preferred: false,
      },
    ]);
    server = http.createServer((req, res) => void em.handle(req, res, new URL(req.url ?? '/', origin)));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  it('lists, filters and opens documents from the sandbox directory', async () => {
    const items = await fetchDirectory(`${origin}/discovery/v1/apis`);
    assert.deepEqual(
      items.map((i) => i.id),
      ['demo:v1', 'demo:v0'],
    );
    assert.deepEqual(
      filterDirectory(items, { preferredOnly: true, text: '' }).map((i) => i.id),
      ['demo:v1'],
    );
    assert.deepEqual(
      filterDirectory(items, { preferredOnly: false, text: 'deprecated' }).map((i) => i.id),
      ['demo:v0'],
    );
    assert.deepEqual(
      filterDirectory(items, { preferredOnly: false, text: 'DEMO old' }).map((i) => i.id),
      ['demo:v0'],
    );
    const text = await fetchDescription(items[0]);
    assert.ok(text.includes('\n  "kind": "discovery#restDescription"'), 'pretty-printed');
    const a = analyzeText(text);
    assert.ok(a.model);
    assert.equal(a.model.root.rootUrl, `${origin}/`);
    assert.equal(fileNameFor(items[0]), 'demo.v1.json');
  });

  it('reports HTTP errors with the service message and never shows keys', async () => {
    await assert.rejects(
      fetchDescription({ discoveryRestUrl: `${origin}/discovery/v1/apis/nope/v1/rest?key=SECRET` }),
      (e: unknown) => {
        assert.ok(e instanceof DirectoryError);
        assert.equal(e.status, 404);
        assert.match(e.message, /Requested entity was not found/);
        assert.ok(!e.message.includes('SECRET'));
        return true;
      },
    );
    await assert.rejects(fetchDirectory(`${origin}/discovery/v1/apis/demo/v1/rest`), /not a discovery directory/);
    await assert.rejects(fetchDirectory('http://127.0.0.1:1/discovery/v1/apis'), /Cannot reach/);
    assert.equal(redactUrl('https://x/y?a=1&key=abc&b=2'), 'https://x/y?a=1&key=REDACTED&b=2');
  });
});

describe('reference preview body', () => {
  it('escapes document text and links $refs to schema anchors', () => {
    const doc = minimalDocument();
    doc.title = '<script>alert(1)</script>';
    doc.resources.items.methods.get.description = '<img src=x onerror=alert(1)>';
    const a = analyzeText(JSON.stringify(doc));
    const html = renderPreviewBody(a.model!);
    assert.ok(!html.includes('<script>') && !html.includes('<img'));
    assert.ok(html.includes(escapeHtml('<script>alert(1)</script>')));
    assert.ok(html.includes('GET</span> <span class="url">https://demo.example.com/v1/{+name}'));
    assert.ok(html.includes(`href="#${anchorForPath(a.model!, ['schemas', 'Item'])}"`));
    assert.equal(
      anchorForPath(a.model!, ['resources', 'items', 'methods', 'get', 'parameters', 'name']),
      anchorForPath(a.model!, ['resources', 'items', 'methods', 'get']),
    );
  });
});
