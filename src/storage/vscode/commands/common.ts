// What every storage command shares: the context it runs in, how it finds the items it applies to,
// and how a failure becomes one readable message (with a way out when the sign-in has expired).
import * as vscode from 'vscode';
import type { File } from '../../../shared/wire/storage';
import type { StorageClient } from '../../core/client';
import { StorageError } from '../../core/errors';
import { displayName } from '../../core/storePaths';
import type { TreeEntry } from '../../core/tree';
import type { StorageTreeProvider } from '../treeProvider';
import { registerCommand } from '../../../platform/lazy/commandTable';

export interface CommandContext {
  client(): Promise<StorageClient>;
  tree: StorageTreeProvider;
  log: vscode.LogOutputChannel;
  /** Shows JSON read-only (details, app info). */
  showJson(title: string, value: unknown): Promise<void>;
  /** The `store:` URI a file node opens as: its folder path in the tree (readable breadcrumbs). */
  storeUri(e: TreeEntry): Promise<vscode.Uri | undefined>;
  /** Tells the `store:` file system (and open editors) that these items changed. */
  storeChanged(fileIds: string[], parentIds: string[]): void;
}

/** Registers `apiWorkbench.storage.<id>`. */
export function registerStorageCommand(id: string, fn: (...args: never[]) => unknown): vscode.Disposable {
  return registerCommand(`apiWorkbench.storage.${id}`, fn);
}

export function fileOf(e: TreeEntry | undefined): File | undefined {
  return e?.type === 'file' ? e.file : undefined;
}

/** The folder id an entry stands for (roots and drives included). */
export function folderIdOf(e: TreeEntry | undefined): string | undefined {
  if (!e) return undefined;
  if (e.type === 'root') return e.root === 'myFiles' ? 'root' : undefined;
  if (e.type === 'drive') return e.drive.id;
  if (e.type === 'file' && e.folder) return e.file.shortcutDetails?.targetId ?? e.file.id;
  return undefined;
}

/** The id permissions are managed on: a file's, or a shared drive's. */
export function shareableIdOf(e: TreeEntry | undefined): string | undefined {
  return fileOf(e)?.id ?? (e?.type === 'drive' ? e.drive.id : undefined);
}

/** Up to five quoted names, then how many more: what a confirmation names. */
export function names(files: File[]): string {
  const shown = files
    .slice(0, 5)
    .map((f) => `"${displayName(f.title)}"`)
    .join(', ');
  return files.length > 5 ? `${shown} and ${files.length - 5} more` : shown;
}

/** The entries a command applies to: the multi-selection when the clicked node is part of it. */
export function selection(clicked: TreeEntry | undefined, all: TreeEntry[] | undefined): File[] {
  const list = all && clicked && all.some((x) => x.key === clicked.key) ? all : clicked ? [clicked] : [];
  return list.map(fileOf).filter((f): f is File => !!f);
}

/** Runs a command body, turning failures into one readable message. */
export async function guarded<T>(ctx: CommandContext, what: string, fn: () => Promise<T>): Promise<T | undefined> {
  try {
    return await fn();
  } catch (e) {
    if ((e as Error)?.name === 'AbortError' || e instanceof vscode.CancellationError) return undefined;
    const message = e instanceof StorageError ? e.message : ((e as Error)?.message ?? String(e));
    ctx.log.error(`storage: ${what} failed: ${message}`);
    // An expired or missing sign-in: offer the way out right in the message.
    if (e instanceof StorageError && e.action === 'signIn') {
      void vscode.window
        .showErrorMessage(`${what} failed: ${message}`, 'Sign In')
        .then((pick) => (pick ? vscode.commands.executeCommand('apiWorkbench.storage.signIn') : undefined));
    } else void vscode.window.showErrorMessage(vscode.l10n.t('{0} failed: {1}', what, message));
    return undefined;
  }
}

/** A cancellable notification whose cancel button (and any extra token) aborts the work's signal. */
export function withCancellableProgress<T>(
  title: string,
  work: (report: (message: string) => void, signal: AbortSignal) => Promise<T>,
  extra?: vscode.CancellationToken,
): Thenable<T> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    (progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      extra?.onCancellationRequested(() => abort.abort());
      return work((message) => progress.report({ message }), abort.signal);
    },
  );
}
