import * as vscode from 'vscode';
import { configuredUrl, SERVICE_LABELS, SERVICES } from './endpoints';
import type { SandboxHost } from './sandboxHost';
import type { Endpoints } from './services';

const COPY_CREDENTIALS = 'apiWorkbench.copySandboxCredentials';
const RESET_DATA = 'apiWorkbench.resetSandboxData';

/** Shows at a glance which services talk to the sandbox and which to real endpoints, and where the sandbox is. */
export function createEndpointStatus(endpoints: Endpoints, sandbox?: SandboxHost): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('apiWorkbench.endpoints', vscode.StatusBarAlignment.Left, 20);
  item.name = 'API Workbench Endpoints';
  item.command = 'apiWorkbench.switchEndpoints';
  const update = async () => {
    const real = SERVICES.filter((s) => configuredUrl(s) !== '');
    item.text =
      real.length === 0
        ? '$(beaker) API: sandbox'
        : real.length === SERVICES.length
          ? '$(globe) API: real'
          : `$(globe) API: ${real.length} real, ${SERVICES.length - real.length} sandbox`;
    const md = new vscode.MarkdownString('**API Workbench endpoints**\n\n');
    for (const s of SERVICES) {
      const url = configuredUrl(s);
      md.appendMarkdown(`- ${SERVICE_LABELS[s]}: ${url ? '`' + url.replace(/`/g, '') + '`' : '_sandbox_'}\n`);
    }
    const sb = await sandbox?.current();
    if (sb) {
      md.appendMarkdown(
        `\nSandbox: \`${sb.url}\`${sb.owned ? '' : ` (run by process ${sb.pid})`}` +
          (sb.dataDir ? `, data in \`${sb.dataDir.replace(/`/g, '')}\`` : ', data in memory') +
          `\n\n[Copy Sandbox Credentials](command:${COPY_CREDENTIALS}) for curl or the CLI` +
          (sb.dataDir ? ` · [Reset Sandbox Data](command:${RESET_DATA})` : '') +
          '\n',
      );
    } else if (real.length < SERVICES.length) {
      md.appendMarkdown('\nThe sandbox starts when a feature first uses it.\n');
    }
    md.appendMarkdown('\nClick to switch.');
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
