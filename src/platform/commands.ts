import * as vscode from 'vscode';
import { originOf } from '../shared/http/credentialOrigin';
import {
  configuredUrl,
  credentialTarget,
  CREDENTIAL_NAME,
  REAL_DEFAULTS,
  SERVICE_LABELS,
  SERVICES,
  SETTING_OF,
} from './endpoints';
import type { ServiceId, WorkbenchServices } from './services';
import type { SandboxHost } from './sandboxHost';
import type { SandboxInfo } from '../sandbox/types';

/** What the sandbox tells its user (the same fields as `api-workbench sandbox` prints), without its internals. */
function sandboxInfo(sb: SandboxInfo): SandboxInfo {
  const { url, storage, generation, waterData, directory, apiKey, accessToken } = sb;
  return { url, storage, generation, waterData, directory, apiKey, accessToken };
}

async function pickService(
  placeHolder: string,
  services: readonly ServiceId[] = SERVICES,
): Promise<ServiceId | undefined> {
  const picked = await vscode.window.showQuickPick(
    services.map((s) => ({ label: SERVICE_LABELS[s], description: configuredUrl(s) || 'sandbox', service: s })),
    { placeHolder },
  );
  return picked?.service;
}

/** The read-only page of Show Sandbox Endpoints: a virtual document, so there is nothing to save or leave behind. */
const SANDBOX_PAGE = vscode.Uri.from({ scheme: 'api-workbench-sandbox', path: '/Sandbox endpoints.json' });

/**
 * What the page shows, asked for each time it is opened (the sandbox may have moved to another port after a
 * restart). Sandbox credentials are throwaway values of a loopback server, so showing them is safe and useful
 * for curl; they are never written to a log.
 */
class SandboxPage implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly sandbox: SandboxHost) {}

  async provideTextDocumentContent(): Promise<string> {
    const sb = await this.sandbox.get();
    return JSON.stringify(sandboxInfo(sb), null, 2) + '\n';
  }

  refresh(): void {
    this.changed.fire(SANDBOX_PAGE);
  }
}

export function registerPlatformCommands(services: WorkbenchServices, sandbox: SandboxHost): vscode.Disposable[] {
  const page = new SandboxPage(sandbox);
  return [
    vscode.workspace.registerTextDocumentContentProvider(SANDBOX_PAGE.scheme, page),
    vscode.commands.registerCommand('apiWorkbench.switchEndpoints', async () => {
      const service = await pickService('Which service?');
      if (!service) return;
      const current = configuredUrl(service);
      const choice = await vscode.window.showQuickPick(
        [
          { label: '$(beaker) Sandbox', description: 'built-in emulator, no account needed', value: 'sandbox' },
          { label: '$(globe) Real endpoint…', description: current || REAL_DEFAULTS[service], value: 'real' },
        ],
        { placeHolder: vscode.l10n.t('{0}: currently {1}', SERVICE_LABELS[service], current || 'sandbox') },
      );
      if (!choice) return;
      const config = vscode.workspace.getConfiguration('apiWorkbench');
      if (choice.value === 'sandbox') {
        await config.update(SETTING_OF[service], '', vscode.ConfigurationTarget.Global);
        return;
      }
      const url = await vscode.window.showInputBox({
        prompt: vscode.l10n.t('Base URL of the {0} service', SERVICE_LABELS[service]),
        value: current || REAL_DEFAULTS[service],
        validateInput: (v) => (/^https?:\/\/[^\s]+$/.test(v.trim()) ? undefined : 'Enter an http(s) URL'),
      });
      if (!url) return;
      await config.update(SETTING_OF[service], url.trim(), vscode.ConfigurationTarget.Global);
      if (service !== 'directory' && !(await services.secrets.get(service))) {
        const set = await vscode.window.showInformationMessage(
          vscode.l10n.t(
            '{0} now uses {1}. It needs an {2}.',
            SERVICE_LABELS[service],
            url.trim(),
            CREDENTIAL_NAME[service],
          ),
          vscode.l10n.t('Set {0}', CREDENTIAL_NAME[service]),
        );
        if (set) await vscode.commands.executeCommand('apiWorkbench.setCredential', service);
      }
    }),
    vscode.commands.registerCommand('apiWorkbench.setCredential', async (arg?: ServiceId) => {
      const service = SERVICES.includes(arg as ServiceId)
        ? (arg as ServiceId)
        : await pickService('Set the credential of which service?', ['storage', 'generation', 'waterData']);
      if (!service) return;
      // The credential is bound to the endpoint in effect now, named in the prompt so the user sees where it will go.
      const origin = originOf(credentialTarget(service));
      const value = await vscode.window.showInputBox({
        prompt: vscode.l10n.t(
          "{0} {1} for {2} (stored in VS Code's secret storage, sent only there)",
          SERVICE_LABELS[service],
          CREDENTIAL_NAME[service],
          origin,
        ),
        password: true,
        ignoreFocusOut: true,
        validateInput: (v) => (v.trim() && !/\s/.test(v.trim()) ? undefined : 'Paste the value without spaces'),
      });
      if (!value) return;
      await services.secrets.set(service, value.trim(), origin);
      services.log.info(`Stored a ${CREDENTIAL_NAME[service]} for ${SERVICE_LABELS[service]} at ${origin}.`);
      void vscode.window.showInformationMessage(
        vscode.l10n.t('{0} {1} saved in secret storage.', SERVICE_LABELS[service], CREDENTIAL_NAME[service]),
      );
    }),
    vscode.commands.registerCommand('apiWorkbench.clearCredential', async (arg?: ServiceId) => {
      const service = SERVICES.includes(arg as ServiceId)
        ? (arg as ServiceId)
        : await pickService('Clear the credential of which service?', ['storage', 'generation', 'waterData']);
      if (!service) return;
      await services.secrets.delete(service);
      void vscode.window.showInformationMessage(
        vscode.l10n.t('{0} {1} removed.', SERVICE_LABELS[service], CREDENTIAL_NAME[service]),
      );
    }),
    vscode.commands.registerCommand('apiWorkbench.showSandbox', async () => {
      const sb = await sandbox.get();
      const info = {
        url: sb.url,
        storage: sb.storage,
        generation: sb.generation,
        waterData: sb.waterData,
        directory: sb.directory,
      };
      page.refresh();
      const doc = await vscode.workspace.openTextDocument(SANDBOX_PAGE);
      await vscode.window.showTextDocument(doc, { preview: true });
      return info;
    }),
    vscode.commands.registerCommand('apiWorkbench.copySandboxCredentials', async () => {
      const sb = await sandbox.get();
      const picked = await vscode.window.showQuickPick(
        [
          { label: 'Access token', detail: 'storage: Authorization: Bearer …', value: sb.accessToken },
          { label: 'API key', detail: 'generation: x-goog-api-key · water data: x-api-key', value: sb.apiKey },
          {
            label: 'curl command',
            detail: 'lists your sandbox files',
            value: `curl -H 'Authorization: Bearer ${sb.accessToken}' '${sb.storage}/store/v2/files?maxResults=10'`,
          },
          {
            label: 'Terminal command',
            detail: 'api-workbench sandbox over the same data (uses this sandbox while it runs)',
            value: sb.dataDir ? `api-workbench sandbox --data '${sb.dataDir.replace(/'/g, `'\\''`)}'` : '',
          },
          {
            label: 'Everything as JSON',
            detail: 'URLs, key and token',
            value: JSON.stringify(sandboxInfo(sb)),
          },
        ].filter((i) => i.value),
        { placeHolder: vscode.l10n.t('Copy a credential of the sandbox at {0} (valid only there)', sb.url) },
      );
      if (!picked) return;
      await vscode.env.clipboard.writeText(picked.value);
      void vscode.window.showInformationMessage(vscode.l10n.t('Sandbox {0} copied.', picked.label.toLowerCase()));
    }),
    vscode.commands.registerCommand('apiWorkbench.resetSandboxData', async () => {
      if (!sandbox.dataDir) {
        void vscode.window.showInformationMessage(
          vscode.l10n.t('The sandbox keeps its data in memory; reload the window to reset it.'),
        );
        return false;
      }
      const yes = 'Reset';
      const answer = await vscode.window.showWarningMessage(
        vscode.l10n.t('Reset the sandbox data?'),
        {
          modal: true,
          detail: vscode.l10n.t(
            'Every file, upload and change you made in the sandbox is deleted and the sample data comes back. The data is in {0}.',
            sandbox.dataDir,
          ),
        },
        yes,
      );
      if (answer !== yes) return false;
      try {
        await sandbox.reset();
      } catch (e) {
        void vscode.window.showErrorMessage(vscode.l10n.t('Could not reset the sandbox: {0}', (e as Error).message));
        return false;
      }
      void vscode.window.showInformationMessage(vscode.l10n.t('Sandbox data reset.'));
      return true;
    }),
    ...(__TEST_SEAMS__ && services.context.extensionMode === vscode.ExtensionMode.Test
      ? [
          // Simulates a window reload for the sandbox: stops it and starts it again from its data directory.
          vscode.commands.registerCommand('apiWorkbench._testRestartSandbox', async () => {
            const sb = await sandbox.restart();
            return { url: sb.url, dataDir: sb.dataDir, owned: sb.owned };
          }),
        ]
      : []),
  ];
}
