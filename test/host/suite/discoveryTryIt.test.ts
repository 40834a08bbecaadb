// Export as OpenAPI and Try it, in a real extension host, against the sandbox's own documents opened from
// the API Directory (served with the sandbox as rootUrl). Try it is driven through the preview's message
// protocol: the seam hands the host a message as the page would send it and returns what the host posted.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { WorkbenchServices } from '../../../src/platform/services';
import { fetchDirectory } from '../../../src/discovery/core/directory';
import type { PreviewHostToWebview, PreviewWebviewToHost } from '../../../src/discovery/protocol';

const EXTENSION_ID = 'api-workbench.api-workbench';

async function services(): Promise<WorkbenchServices> {
  const s = (await vscode.extensions.getExtension(EXTENSION_ID)?.activate()) as WorkbenchServices | undefined;
  assert.ok(s, 'extension API');
  return s;
}

/** Opens a sandbox directory document (store:v2, generativelanguage:v1beta) as the API Directory view does. */
async function openFromDirectory(id: string): Promise<vscode.TextDocument> {
  const endpoint = await (await services()).endpoints.resolve('directory');
  const item = (await fetchDirectory(endpoint.baseUrl)).find((i) => i.id === id);
  assert.ok(item, `${id} in the sandbox directory`);
  const doc = await vscode.commands.executeCommand<vscode.TextDocument>('apiWorkbench.directory.open', {
    kind: 'item',
    item,
  });
  await vscode.window.showTextDocument(doc);
  return doc;
}

const send = (m: PreviewWebviewToHost) =>
  vscode.commands.executeCommand<PreviewHostToWebview[]>('apiWorkbench._testDiscoveryPreviewMessage', m);

suite('discovery: Try it and Export as OpenAPI', function () {
  this.timeout(120_000);
  let dir: string;
  suiteSetup(() => (dir = mkdtempSync(join(tmpdir(), 'openapi-export-'))));
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(dir, { recursive: true, force: true });
  });

  test('Export as OpenAPI writes the document and opens it beside its source', async () => {
    const source = await openFromDirectory('store:v2');
    const target = vscode.Uri.file(join(dir, 'store.openapi.json'));
    const written = await vscode.commands.executeCommand<vscode.Uri | undefined>(
      'apiWorkbench.discovery.exportOpenApi',
      source.uri,
      target,
      '3.1',
    );
    assert.equal(written?.fsPath, target.fsPath);
    const doc = JSON.parse(readFileSync(target.fsPath, 'utf8')) as { openapi: string; paths: Record<string, unknown> };
    assert.equal(doc.openapi, '3.1.0');
    assert.ok(doc.paths['/files']);
    const beside = vscode.window.visibleTextEditors.find((e) => e.document.uri.fsPath === target.fsPath);
    assert.ok(beside, 'the export is open');
    assert.notEqual(beside.viewColumn, vscode.ViewColumn.One);
  });

  // A small page: the sandbox's own files would otherwise pass the display limit.
  for (const [id, path, key, params] of [
    ['store:v2', ['resources', 'files', 'methods', 'list'], 'items', { maxResults: ['3'] }],
    ['generativelanguage:v1beta', ['resources', 'models', 'methods', 'list'], 'models', { pageSize: ['3'] }],
  ] as const)
    test(`Try it sends ${path[1]}.list of ${id} to the sandbox and shows the response`, async () => {
      await openFromDirectory(id);
      assert.equal(await vscode.commands.executeCommand<boolean>('apiWorkbench.discovery.showPreview'), true);
      const formReply = (await send({ type: 'tryIt', path: [...path] })).find((m) => m.type === 'tryItForm');
      assert.ok(formReply?.type === 'tryItForm', 'the form');
      assert.ok(formReply.form.fields.length > 0);
      assert.ok(formReply.credential, 'a credential from the sandbox goes along');
      const sentAt = Date.now();
      const replies = await send({
        type: 'tryItSend',
        path: [...path],
        values: { params: Object.fromEntries(Object.entries(params).map(([k, v]) => [k, [...v]])) },
      });
      assert.deepEqual(
        replies.map((m) => m.type),
        ['tryItSending', 'tryItResult'],
      );
      const result = replies[1];
      assert.ok(result.type === 'tryItResult');
      assert.equal(result.failure, undefined);
      assert.equal(result.response?.status, 200, result.response?.body);
      assert.equal(result.response?.method, 'GET');
      // The time shown is the request's own: a whole number of ms within the span of this send.
      assert.ok(Number.isInteger(result.response.timeMs) && result.response.timeMs >= 0);
      assert.ok(result.response.timeMs <= Date.now() - sentAt, `${result.response.timeMs} ms`);
      assert.ok(result.response.headers.some(([k]) => k === 'content-type'));
      assert.equal(result.response.truncated, false);
      const body = JSON.parse(result.response.body) as Record<string, unknown>;
      assert.ok(Array.isArray(body[key]), `${key} in ${result.response.body.slice(0, 200)}`);
      assert.ok((body[key] as unknown[]).length <= 3, 'the page size from the form was sent');
      // The credential went in a header: the URL shown holds none.
      assert.ok(!/key=|access_token=/.test(result.response.url), result.response.url);
    });

  test('Try it explains a google.rpc error from the sandbox', async () => {
    await openFromDirectory('store:v2');
    assert.equal(await vscode.commands.executeCommand<boolean>('apiWorkbench.discovery.showPreview'), true);
    const replies = await send({
      type: 'tryItSend',
      path: ['resources', 'files', 'methods', 'get'],
      values: { params: { fileId: ['no-such-file-id'] } },
    });
    const result = replies.find((m) => m.type === 'tryItResult');
    assert.ok(result?.type === 'tryItResult');
    assert.equal(result.response?.status, 404, result.response?.body);
    assert.equal(result.response.error?.code, 404);
    assert.ok(result.response.error?.meaning, 'the status is explained');
  });
});
