import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { WorkbenchServices } from '../../../src/platform/services';

async function services(): Promise<WorkbenchServices> {
  const ext = vscode.extensions.getExtension('api-workbench.api-workbench');
  assert.ok(ext, 'the extension is loaded');
  return (await ext.activate()) as WorkbenchServices;
}

describe('platform: endpoints, sandbox, secrets', () => {
  afterEach(async () => {
    await vscode.workspace
      .getConfiguration('apiWorkbench')
      .update('waterData.baseUrl', undefined, vscode.ConfigurationTarget.Global);
    await (await services()).secrets.delete('waterData');
  });

  it('starts the in-process sandbox on first use and serves every service from it', async () => {
    const s = await services();
    const water = await s.endpoints.resolve('waterData');
    assert.equal(water.sandbox, true);
    assert.match(water.baseUrl, /^http:\/\/127\.0\.0\.1:\d+\/v1\/odata\/v4$/);
    assert.ok(water.credential, 'the sandbox key is handed to the feature');
    const dir = await s.endpoints.resolve('directory');
    const res = await fetch(dir.baseUrl);
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { kind: string }).kind, 'discovery#directoryList');
    const untitledBefore = vscode.workspace.textDocuments.filter((d) => d.isUntitled).length;
    const info = await vscode.commands.executeCommand<{ waterData: string }>('apiWorkbench.showSandbox');
    assert.equal(info.waterData, water.baseUrl);
    // A read-only page, never an unsaved buffer: nothing to save, nothing asks on close.
    const page = vscode.window.activeTextEditor?.document;
    assert.ok(page, 'the endpoints are shown');
    assert.equal(page.isUntitled, false);
    assert.equal(page.uri.scheme, 'api-workbench-sandbox');
    assert.equal(page.languageId, 'json');
    assert.equal(vscode.workspace.textDocuments.filter((d) => d.isUntitled).length, untitledBefore);
    const shown = JSON.parse(page.getText()) as Record<string, string>;
    assert.equal(shown.waterData, water.baseUrl);
    assert.equal(shown.apiKey, water.credential);
    assert.equal(page.isDirty, false);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('switches a service to a real endpoint by setting, with the credential from secret storage only', async () => {
    const s = await services();
    const changed = new Promise<string>((resolve) => {
      const d = s.endpoints.onDidChange((id) => {
        d.dispose();
        resolve(id);
      });
    });
    await vscode.workspace
      .getConfiguration('apiWorkbench')
      .update('waterData.baseUrl', 'https://api.qa.datastream.org/v1/odata/v4/', vscode.ConfigurationTarget.Global);
    assert.equal(await changed, 'waterData');
    let real = await s.endpoints.resolve('waterData');
    assert.deepEqual(real, {
      baseUrl: 'https://api.qa.datastream.org/v1/odata/v4',
      credential: undefined,
      sandbox: false,
    });
    await s.secrets.set('waterData', 'secret-key-123', 'https://api.qa.datastream.org');
    real = await s.endpoints.resolve('waterData');
    assert.equal(real.credential, 'secret-key-123');
    assert.deepEqual(
      (await s.secrets.get('waterData'))?.origins,
      ['https://api.qa.datastream.org'],
      'bound to the origin it was stored for',
    );
    const inSettings = JSON.stringify(vscode.workspace.getConfiguration('apiWorkbench'));
    assert.ok(!inSettings.includes('secret-key-123'), 'the key is not in settings');
  });

  it('binds a credential stored before binding existed to the endpoint the user chose in their own settings', async () => {
    const s = await services();
    await vscode.workspace
      .getConfiguration('apiWorkbench')
      .update('waterData.baseUrl', 'https://api.qa.datastream.org/v1/odata/v4', vscode.ConfigurationTarget.Global);
    await s.context.secrets.store('apiWorkbench.credential.waterData', 'legacy-key-456');
    const real = await s.endpoints.resolve('waterData');
    assert.equal(real.credential, 'legacy-key-456');
    assert.deepEqual(await s.secrets.get('waterData'), {
      value: 'legacy-key-456',
      origins: ['https://api.qa.datastream.org'],
    });
  });
});
