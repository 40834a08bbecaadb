// Loaded as the tests module of a tiny probe extension while the real extension is INSTALLED from the
// .vsix (not the development copy): proves the package activates and its sandbox answers.
import * as fs from 'node:fs';
import * as vscode from 'vscode';

export async function run(): Promise<void> {
  const report = process.env.API_WORKBENCH_TEST_REPORT!;
  const say = (l: string) => fs.appendFileSync(report, l + '\n');
  const ext = vscode.extensions.getExtension('api-workbench.api-workbench');
  if (!ext) throw new Error('the installed extension is not there');
  say(`installed at ${ext.extensionPath}`);
  await ext.activate();
  if (!ext.isActive) throw new Error('the installed extension did not activate');
  const info = (await vscode.commands.executeCommand('apiWorkbench.showSandbox')) as { directory: string };
  const res = await fetch(info.directory);
  const body = (await res.json()) as { kind?: string };
  if (body.kind !== 'discovery#directoryList') throw new Error(`sandbox directory answered ${res.status}`);
  say('PACKAGE-OK activated from the .vsix; its sandbox answered');
}
