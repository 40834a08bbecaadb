// Loaded as the tests module of a tiny probe extension while the real extension is INSTALLED from the
// .vsix (not the development copy), so it runs in production mode: proves the package activates and
// its sandbox answers, and — playing a hostile neighbour extension — that it exports nothing and that
// none of the `_test*` commands of the development build can be run.
import * as fs from 'node:fs';
import * as vscode from 'vscode';

/** Every `_test*` command id in src/, put here by run-package.mjs. */
declare const __TEST_COMMAND_IDS__: string[];

export async function run(): Promise<void> {
  const report = process.env.API_WORKBENCH_TEST_REPORT!;
  const say = (l: string) => fs.appendFileSync(report, l + '\n');
  const ext = vscode.extensions.getExtension('api-workbench.api-workbench');
  if (!ext) throw new Error('the installed extension is not there');
  say(`installed at ${ext.extensionPath}`);
  const returned: unknown = await ext.activate();
  if (!ext.isActive) throw new Error('the installed extension did not activate');
  const info = await vscode.commands.executeCommand<{ directory: string }>('apiWorkbench.showSandbox');
  await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  const res = await fetch(info.directory);
  const body = (await res.json()) as { kind?: string };
  if (body.kind !== 'discovery#directoryList') throw new Error(`sandbox directory answered ${res.status}`);
  say('PACKAGE-OK activated from the .vsix; its sandbox answered');

  const open: string[] = [];
  const exported: unknown = ext.exports;
  if (returned !== undefined || exported !== undefined)
    open.push(`exports: ${typeof exported} ${JSON.stringify(Object.keys(exported ?? returned ?? {}))}`);
  const registered = (await vscode.commands.getCommands(true)).filter(
    (c) => c.startsWith('apiWorkbench.') && c.includes('_test'),
  );
  if (registered.length) open.push(`registered: ${registered.join(', ')}`);
  if (__TEST_COMMAND_IDS__.length === 0) open.push('no _test ids were given to the probe');
  for (const id of __TEST_COMMAND_IDS__) {
    try {
      await vscode.commands.executeCommand(id);
      open.push(`ran ${id}`);
    } catch (e) {
      // The only acceptable failure: the command does not exist.
      if (!/not found/i.test((e as Error).message)) open.push(`${id}: ${(e as Error).message}`);
    }
  }
  for (const o of open) say(`SEAM-OPEN ${o}`);
  if (open.length === 0) say(`SEALED-OK no exports; ${__TEST_COMMAND_IDS__.length} _test commands all "not found"`);
}
