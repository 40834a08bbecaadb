// The way in: the Getting Started walkthrough opens by itself once, on the extension's first activation
// (a globalState flag, synced so a second machine of the same user does not show it again), and is one
// command away afterwards (API Workbench: Open Walkthrough).
import * as vscode from 'vscode';

export const OPEN_WALKTHROUGH = 'apiWorkbench.openWalkthrough';
const SHOWN_KEY = 'apiWorkbench.walkthroughShown';

export function registerWelcome(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): vscode.Disposable[] {
  const open = () =>
    vscode.commands.executeCommand('workbench.action.openWalkthrough', `${context.extension.id}#gettingStarted`, false);
  context.globalState.setKeysForSync([SHOWN_KEY]);
  if (!context.globalState.get<boolean>(SHOWN_KEY)) {
    void context.globalState.update(SHOWN_KEY, true);
    open().then(undefined, (e: unknown) => log.warn(`the walkthrough did not open: ${String(e)}`));
  }
  return [vscode.commands.registerCommand(OPEN_WALKTHROUGH, open)];
}
