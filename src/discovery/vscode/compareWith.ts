// API Workbench: Compare With…: the active discovery document (the new revision) against one the
// user picks (the old), reported in the Revision Diff view.
import * as vscode from 'vscode';
import type { FeatureShell, WorkbenchServices } from '../../platform/services';
import { detectDiscoveryDocument } from '../core';
import { DirectoryError } from '../core/directory';
import { diffDiscovery, DiffInputError, type DiffChange } from '../core/diff';
import {
  directoryRevision,
  fileRevision,
  gitHeadRevision,
  pickSource,
  SourceError,
  type CompareSource,
  type OtherRevision,
} from './compareSources';
import { DIFF_VIEW_ID, DiffReportTree, openDiffEditor, revealChange, type DiffReport } from './compareTree';
import { registerCommand } from '../../platform/lazy/commandTable';

/** The document to compare: the one given, else the active editor's. */
async function targetDocument(arg: unknown): Promise<vscode.TextDocument | undefined> {
  if (arg instanceof vscode.Uri) return vscode.workspace.openTextDocument(arg);
  return vscode.window.activeTextEditor?.document;
}

async function otherRevision(
  services: WorkbenchServices,
  doc: vscode.TextDocument,
  source: CompareSource | vscode.Uri,
): Promise<OtherRevision | undefined> {
  if (source instanceof vscode.Uri) return fileRevision(source);
  if (source === 'file') return fileRevision();
  if (source === 'directory') return directoryRevision(services, detectDiscoveryDocument(doc.getText())?.value);
  return gitHeadRevision(doc.uri);
}

/**
 * Menus pass the document's URI (or nothing: the active editor). Scripts may name the old revision:
 * 'directory', 'git', 'file' (asks for it) or a file URI; without one the user picks.
 */
async function compareWith(
  services: WorkbenchServices,
  tree: DiffReportTree,
  arg?: unknown,
  given?: unknown,
): Promise<DiffReport | undefined> {
  const doc = await targetDocument(arg);
  if (!doc || !detectDiscoveryDocument(doc.getText())) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Compare With… needs a discovery document open in the editor.'));
    return undefined;
  }
  const source =
    given instanceof vscode.Uri || given === 'directory' || given === 'git' || given === 'file'
      ? given
      : await pickSource(doc.uri);
  if (!source) return undefined;
  let other: OtherRevision | undefined;
  let changes: DiffChange[];
  try {
    other = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Fetching the other revision') },
      () => otherRevision(services, doc, source),
    );
    if (!other) return undefined;
    changes = diffDiscovery(other.text, doc.getText());
  } catch (err) {
    if (!(err instanceof SourceError || err instanceof DiffInputError || err instanceof DirectoryError)) throw err;
    void vscode.window.showErrorMessage(vscode.l10n.t('Compare With…: {0}', err.message));
    return undefined;
  }
  const report: DiffReport = {
    oldUri: other.uri,
    newUri: doc.uri,
    oldLabel: other.label,
    newLabel: vscode.workspace.asRelativePath(doc.uri),
    changes,
  };
  tree.show(report);
  // Bring the view forward without waiting for the side bar to lay out: the report is ready now.
  void vscode.commands.executeCommand(`${DIFF_VIEW_ID}.focus`);
  return report;
}

export function registerCompare(services: WorkbenchServices, shell: FeatureShell): vscode.Disposable[] {
  const tree = new DiffReportTree();
  // The view belongs to the extension's entry (it exists, with its welcome text, before discovery loads).
  const view = shell.treeView(DIFF_VIEW_ID, tree);
  tree.view = view;
  const changeOf = (arg: unknown): DiffChange | undefined => {
    const c = arg as { change?: DiffChange; code?: unknown } | undefined;
    if (c && typeof c.code === 'string') return c as DiffChange;
    return c?.change;
  };
  return [
    tree,
    registerCommand('apiWorkbench.discovery.compareWith', (arg?: unknown, given?: unknown) =>
      compareWith(services, tree, arg, given),
    ),
    registerCommand('apiWorkbench.diffReport.reveal', (arg?: unknown) => {
      const change = changeOf(arg);
      return tree.report && change ? revealChange(tree.report, change) : undefined;
    }),
    registerCommand('apiWorkbench.diffReport.openDiffEditor', (arg?: unknown) =>
      tree.report ? openDiffEditor(tree.report, changeOf(arg)) : undefined,
    ),
  ];
}
