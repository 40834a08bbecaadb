import * as vscode from 'vscode';
import { configuredUrl, SERVICE_LABELS, SERVICES } from './endpoints';
import type { SandboxHost } from './sandboxHost';
import type { Endpoints } from './services';

const COPY_CREDENTIALS = 'apiWorkbench.copySandboxCredentials';
const RESET_DATA = 'apiWorkbench.resetSandboxData';

/** Shows at a glance which services talk to the sandbox and which to real endpoints, and where the sandbox is. */
export function createEndpointStatus(endpoints: Endpoints, sandbox?: SandboxHost): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('apiWorkbench.endpoints', vscode.StatusBarAlignment.Left, 20);
  item.name = vscode.l10n.t('API Workbench Endpoints');
  item.command = 'apiWorkbench.switchEndpoints';
  const update = async () => {
    const real = SERVICES.filter((s) => configuredUrl(s) !== '');
    item.text =
      real.length === 0
        ? `$(beaker) ${vscode.l10n.t('API: sandbox')}`
        : real.length === SERVICES.length
          ? `$(globe) ${vscode.l10n.t('API: real')}`
          : `$(globe) ${vscode.l10n.t('API: {0} real, {1} sandbox', real.length, SERVICES.length - real.length)}`;
    const md = new vscode.MarkdownString(`**${vscode.l10n.t('API Workbench endpoints')}**\n\n`);
    for (const s of SERVICES) {
      const url = configuredUrl(s);
      md.appendMarkdown(
        `- ${SERVICE_LABELS[s]}: ${url ? '`' + url.replace(/`/g, '') + '`' : `_${vscode.l10n.t('sandbox')}_`}\n`,
      );
    }
    const sb = await sandbox?.current();
    if (sb) {
      md.appendMarkdown(
        '\n' +
          vscode.l10n.t('Sandbox: {0}', `\`${sb.url}\``) +
          (sb.owned ? '' : ' ' + vscode.l10n.t('(run by process {0})', sb.pid)) +
          ', ' +
          (sb.dataDir
            ? vscode.l10n.t('data in {0}', `\`${sb.dataDir.replace(/`/g, '')}\``)
            : vscode.l10n.t('data in memory')) +
          '\n\n' +
          vscode.l10n.t(
            '{0} for curl or the CLI',
            `[${vscode.l10n.t('Copy Sandbox Credentials')}](command:${COPY_CREDENTIALS})`,
          ) +
          (sb.dataDir ? ` · [${vscode.l10n.t('Reset Sandbox Data')}](command:${RESET_DATA})` : '') +
          '\n',
      );
    } else if (real.length < SERVICES.length) {
      md.appendMarkdown('\n' + vscode.l10n.t('The sandbox starts when a feature first uses it.') + '\n');
    }
    md.appendMarkdown('\n' + vscode.l10n.t('Click to switch.'));
    md.isTrusted = { enabledCommands: [COPY_CREDENTIALS, RESET_DATA] };
    item.tooltip = md;
  };
  const refresh = () => void update().catch(() => undefined);
  refresh();
  item.show();
  const subs = [endpoints.onDidChange(refresh)];
  if (sandbox) subs.push(sandbox.onDidStart(refresh), sandbox.onDidChange(refresh));
  return vscode.Disposable.from(item, ...subs);
}
