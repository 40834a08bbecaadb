// Where Compare With… finds the other revision: any file, the revision the API directory publishes,
// or the same file at git HEAD through the built-in Git extension's API.
import * as vscode from 'vscode';
import type { WorkbenchServices } from '../../platform/services';
import { isObj } from '../core';
import { fetchDirectory, type DirectoryItem } from '../core/directory';
import { uriOf } from './directoryView';

export type CompareSource = 'file' | 'directory' | 'git';

/** The other revision: the document to compare with (its text is what the report's lines refer to). */
export interface OtherRevision {
  uri: vscode.Uri;
  text: string;
  label: string;
}

/** A failure to find the other revision, worded for the user. */
export class SourceError extends Error {}

export async function pickSource(target: vscode.Uri): Promise<CompareSource | undefined> {
  const items: (vscode.QuickPickItem & { source: CompareSource })[] = [
    { source: 'file', label: `$(file) ${vscode.l10n.t('Another file…')}` },
    {
      source: 'directory',
      label: `$(cloud) ${vscode.l10n.t('Published revision in the API directory')}`,
      detail: vscode.l10n.t('The sandbox directory, or the one set in apiWorkbench.directory.url'),
    },
  ];
  if (target.scheme === 'file')
    items.push({ source: 'git', label: `$(git-commit) ${vscode.l10n.t('The same file at git HEAD')}` });
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Compare With…'),
    placeHolder: vscode.l10n.t('Which revision is the old one?'),
  });
  return picked?.source;
}

export async function fileRevision(given?: vscode.Uri): Promise<OtherRevision | undefined> {
  const uri =
    given ??
    (
      await vscode.window.showOpenDialog({
        canSelectMany: false,
        filters: { [vscode.l10n.t('Discovery documents')]: ['json', 'jsonc'] },
        openLabel: vscode.l10n.t('Compare'),
      })
    )?.[0];
  if (!uri) return undefined;
  const doc = await vscode.workspace.openTextDocument(uri);
  return { uri, text: doc.getText(), label: vscode.workspace.asRelativePath(uri) };
}

/** The directory entry for this document: same name and version (or, failing that, the same id). */
export async function directoryRevision(services: WorkbenchServices, value: unknown): Promise<OtherRevision> {
  const doc = isObj(value) ? value : {};
  const endpoint = await services.endpoints.resolve('directory');
  const items = await fetchDirectory(endpoint.baseUrl);
  const item: DirectoryItem | undefined =
    items.find((i) => i.name === doc.name && i.version === doc.version) ?? items.find((i) => i.id === doc.id);
  if (!item)
    throw new SourceError(
      vscode.l10n.t(
        'The API directory lists no {0} {1}.',
        JSON.stringify(doc.name ?? null),
        JSON.stringify(doc.version ?? null),
      ),
    );
  const uri = uriOf(item);
  const opened = await vscode.workspace.openTextDocument(uri);
  return { uri, text: opened.getText(), label: vscode.l10n.t('{0} (API directory)', item.id) };
}

// The parts of the built-in Git extension's API (extensions/git/src/api/git.d.ts, version 1) used here.
interface GitRepository {
  readonly rootUri: vscode.Uri;
  show(ref: string, path: string): Promise<string>;
}
interface GitApi {
  getRepository(uri: vscode.Uri): GitRepository | null;
  openRepository(root: vscode.Uri): Promise<GitRepository | null>;
  toGitUri(uri: vscode.Uri, ref: string): vscode.Uri;
}
interface GitExtension {
  readonly enabled: boolean;
  getAPI(version: 1): GitApi;
}

/** The folder holding `.git` above a file, for a repository the Git extension has not opened yet. */
async function repositoryRoot(file: vscode.Uri): Promise<vscode.Uri | undefined> {
  for (let dir = vscode.Uri.joinPath(file, '..'); ; dir = vscode.Uri.joinPath(dir, '..')) {
    try {
      await vscode.workspace.fs.stat(vscode.Uri.joinPath(dir, '.git'));
      return dir;
    } catch {
      const parent = vscode.Uri.joinPath(dir, '..');
      if (parent.path === dir.path) return undefined;
    }
  }
}

export async function gitHeadRevision(target: vscode.Uri): Promise<OtherRevision> {
  const extension = vscode.extensions.getExtension<GitExtension>('vscode.git');
  if (!extension) throw new SourceError(vscode.l10n.t('The built-in Git extension is not available.'));
  const git = extension.isActive ? extension.exports : await extension.activate();
  if (!git.enabled) throw new SourceError(vscode.l10n.t('Git is disabled (setting git.enabled).'));
  const api = git.getAPI(1);
  let repo = api.getRepository(target);
  if (!repo) {
    const root = await repositoryRoot(target);
    repo = root ? await api.openRepository(root) : null;
  }
  if (!repo)
    throw new SourceError(vscode.l10n.t('{0} is not in a git repository.', vscode.workspace.asRelativePath(target)));
  let text: string;
  try {
    text = await repo.show('HEAD', target.fsPath);
  } catch {
    throw new SourceError(vscode.l10n.t('{0} is not committed at HEAD.', vscode.workspace.asRelativePath(target)));
  }
  return {
    uri: api.toGitUri(target, 'HEAD'),
    text,
    label: vscode.l10n.t('{0} at HEAD', vscode.workspace.asRelativePath(target)),
  };
}
