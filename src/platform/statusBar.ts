import * as vscode from 'vscode';
import { configuredUrl, SERVICE_LABELS, SERVICES } from './endpoints';
import type { Endpoints } from './services';

/** Shows at a glance which services talk to the sandbox and which to real endpoints. */
export function createEndpointStatus(endpoints: Endpoints): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('apiWorkbench.endpoints', vscode.StatusBarAlignment.Left, 20);
  item.name = 'API Workbench Endpoints';
  item.command = 'apiWorkbench.switchEndpoints';
  const update = () => {
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
    md.appendMarkdown('\nClick to switch.');
    item.tooltip = md;
  };
  update();
  item.show();
  const sub = endpoints.onDidChange(update);
  return vscode.Disposable.from(item, sub);
}
