// The `store:` FileSystemProvider: VS Code's file operations mapped onto the core StoreFs. Saves
// use If-Match; when the server has a newer version the user picks Compare, Overwrite or Cancel —
// a save never silently replaces someone else's change.
import * as vscode from 'vscode';
import type { File } from '../../shared/wire/storage';
import { StoreFs, StoreFsError } from '../core/fileSystem';
import { displayName } from '../core/storePaths';
import type { StorageConnection } from './connection';

export const STORE_SCHEME = 'store';
export const REVISION_SCHEME = 'store-revision';

/**
 * A `store:` URI the tree hands out names the file twice: by its folder path (what the tab, the breadcrumbs
 * and the language mode read) and by its id in the query, `?id=<fileId>`. VS Code keeps an open editor's URI
 * across a window reload, so the id comes back with it: the path is pinned to that file again on the first
 * call, and the editor follows the file wherever it was moved or renamed since, in this window or another.
 */
export function storeFileId(uri: vscode.Uri): string | undefined {
  const m = /(?:^|&)id=([^&]+)/.exec(uri.query);
  if (!m) return undefined;
  try {
    return decodeURIComponent(m[1]) || undefined;
  } catch {
    return undefined;
  }
}

export type ConflictChoice = 'compare' | 'overwrite' | 'cancel';

/** Asks the user what to do about a save conflict; replaceable by tests. */
export type ConflictPrompt = (uri: vscode.Uri, server: File | undefined) => Promise<ConflictChoice>;

export const defaultConflictPrompt: ConflictPrompt = async (uri, server) => {
  const name = displayName(server?.title ?? uri.path.split('/').pop());
  const who = server?.lastModifyingUserName ? ` by ${server.lastModifyingUserName}` : '';
  const when = server?.modifiedDate ? ` at ${new Date(server.modifiedDate).toLocaleString()}` : '';
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t(
      '"{0}" was changed on the server{1}{2} after you opened it. Saving now would replace that version.',
      name,
      who,
      when,
    ),
    {
      modal: true,
      detail: vscode.l10n.t(
        'Compare shows the server version next to yours; your changes stay unsaved until you choose Overwrite.',
      ),
    },
    vscode.l10n.t('Compare'),
    vscode.l10n.t('Overwrite'),
  );
  return choice === 'Overwrite' ? 'overwrite' : choice === 'Compare' ? 'compare' : 'cancel';
};

export class StoreFileSystemProvider implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;
  private storeFs: Promise<StoreFs> | undefined;
  /** URIs handed out per file id, so change-feed events can name them. */
  private readonly urisById = new Map<string, Set<string>>();
  prompt: ConflictPrompt = defaultConflictPrompt;

  constructor(private readonly connection: StorageConnection) {}

  fs(): Promise<StoreFs> {
    this.storeFs ??= this.connection.client().then((c) => new StoreFs(c, { statTtlMs: 1000 }));
    this.storeFs.catch(() => (this.storeFs = undefined));
    return this.storeFs;
  }

  /** The URI of `path`, pinned to the file it names now (StoreFs.pin). */
  async uriFor(path: string, id: string): Promise<vscode.Uri> {
    // Without a connection the editor reports why when it reads; the URI is the same either way.
    const before = await this.fs().then(
      (fs) => fs.pin(path, id),
      () => undefined,
    );
    const uri = vscode.Uri.from({ scheme: STORE_SCHEME, path, query: `id=${encodeURIComponent(id)}` });
    // The path named another file (since renamed, and a new one took its name): an editor still open on it
    // reloads, or, with unsaved edits, VS Code's save finds the file changed and asks before overwriting.
    if (before && before !== id) this.emitter.fire([{ type: vscode.FileChangeType.Changed, uri }]);
    return uri;
  }

  /**
   * The file system, with `uri`'s path pinned to the file its query names (storeFileId): a path restored
   * after a reload resolves by id, not by names that may have changed.
   */
  async fsFor(uri: vscode.Uri): Promise<StoreFs> {
    return this.pinned(await this.fs(), uri);
  }

  /** Pins `uri`'s path to its file id, in the same turn as the call that uses it (StoreFs reads pins synchronously). */
  private pinned(fs: StoreFs, uri: vscode.Uri): StoreFs {
    const id = storeFileId(uri);
    if (id) fs.pin(uri.path, id);
    return fs;
  }

  reset(): void {
    this.storeFs = undefined;
    this.urisById.clear();
  }

  /** Called by the change feed: drops cached metadata and tells editors what changed. */
  async changed(fileIds: string[], parentIds: string[]): Promise<void> {
    const fs = await this.fs().catch(() => undefined);
    const events: vscode.FileChangeEvent[] = [];
    for (const id of [...fileIds, ...parentIds]) {
      fs?.invalidate(id);
      for (const u of this.urisById.get(id) ?? [])
        events.push({ type: vscode.FileChangeType.Changed, uri: vscode.Uri.parse(u) });
    }
    if (events.length) this.emitter.fire(events);
  }

  watch(): vscode.Disposable {
    // Changes arrive through the shared change-feed poller (see register.ts).
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const st = await this.run(uri, (fs) => fs.stat(uri.path));
    this.track(st.file.id, uri);
    return {
      type:
        (st.type === 'directory' ? vscode.FileType.Directory : vscode.FileType.File) |
        (st.symlink ? vscode.FileType.SymbolicLink : 0),
      ctime: st.ctime,
      mtime: st.mtime,
      size: st.size,
      permissions: st.readonly ? vscode.FilePermission.Readonly : undefined,
    };
  }

  async readDirectory(uri: vscode.Uri): Promise<[string, vscode.FileType][]> {
    const entries = await this.run(uri, (fs) => fs.readDirectory(uri.path));
    return entries.map(([name, type]) => [
      name,
      type === 'directory' ? vscode.FileType.Directory : vscode.FileType.File,
    ]);
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return this.run(uri, (fs) => fs.readFile(uri.path));
  }

  async writeFile(
    uri: vscode.Uri,
    content: Uint8Array,
    options: { create: boolean; overwrite: boolean },
  ): Promise<void> {
    const fs = await this.fs();
    try {
      const saved = await this.pinned(fs, uri).writeFile(uri.path, content, options);
      this.track(saved.id, uri);
    } catch (e) {
      if (!(e instanceof StoreFsError) || e.code !== 'Conflict') throw this.toVscode(e, uri);
      const choice = await this.prompt(uri, e.server);
      if (choice === 'overwrite') {
        await this.run(uri, (f) => f.writeFile(uri.path, content, { ...options, force: true }));
        this.emitter.fire([{ type: vscode.FileChangeType.Changed, uri }]);
        return;
      }
      if (choice === 'compare' && e.server?.id) {
        const server = vscode.Uri.from({
          scheme: REVISION_SCHEME,
          path: `/${e.server.id}/head/${displayName(e.server.title)}`,
        });
        await vscode.commands.executeCommand(
          'vscode.diff',
          server,
          uri,
          `${displayName(e.server.title)} (server) ↔ yours`,
        );
      }
      throw vscode.FileSystemError.Unavailable(
        `Not saved: ${e.message} Choose Overwrite to replace the server version.`,
      );
    }
    this.emitter.fire([{ type: options.create ? vscode.FileChangeType.Created : vscode.FileChangeType.Changed, uri }]);
  }

  async createDirectory(uri: vscode.Uri): Promise<void> {
    await this.run(uri, (fs) => fs.createDirectory(uri.path));
    this.emitter.fire([{ type: vscode.FileChangeType.Created, uri }]);
  }

  async delete(uri: vscode.Uri, options: { recursive: boolean }): Promise<void> {
    await this.run(uri, (fs) => fs.delete(uri.path, { recursive: options.recursive }));
    this.emitter.fire([{ type: vscode.FileChangeType.Deleted, uri }]);
  }

  async rename(oldUri: vscode.Uri, newUri: vscode.Uri, options: { overwrite: boolean }): Promise<void> {
    await this.run(oldUri, (fs) => fs.rename(oldUri.path, newUri.path, options));
    this.emitter.fire([
      { type: vscode.FileChangeType.Deleted, uri: oldUri },
      { type: vscode.FileChangeType.Created, uri: newUri },
    ]);
  }

  async copy(source: vscode.Uri, destination: vscode.Uri, options: { overwrite: boolean }): Promise<void> {
    await this.run(source, (fs) => fs.copy(source.path, destination.path, options));
    this.emitter.fire([{ type: vscode.FileChangeType.Created, uri: destination }]);
  }

  private track(id: string | undefined, uri: vscode.Uri): void {
    if (!id) return;
    let set = this.urisById.get(id);
    if (!set) this.urisById.set(id, (set = new Set()));
    set.add(uri.toString());
  }

  private async run<T>(uri: vscode.Uri, fn: (fs: StoreFs) => Promise<T>): Promise<T> {
    let fs: StoreFs;
    try {
      fs = await this.fs();
    } catch (e) {
      throw vscode.FileSystemError.Unavailable(`Storage is not reachable: ${(e as Error)?.message ?? e}`);
    }
    try {
      return await fn(this.pinned(fs, uri));
    } catch (e) {
      throw this.toVscode(e, uri);
    }
  }

  private toVscode(e: unknown, uri: vscode.Uri): Error {
    if (!(e instanceof StoreFsError)) return e as Error;
    switch (e.code) {
      case 'FileNotFound':
        return vscode.FileSystemError.FileNotFound(uri);
      case 'FileExists':
        return vscode.FileSystemError.FileExists(uri);
      case 'FileNotADirectory':
        return vscode.FileSystemError.FileNotADirectory(uri);
      case 'FileIsADirectory':
        return vscode.FileSystemError.FileIsADirectory(uri);
      case 'NoPermissions':
        return vscode.FileSystemError.NoPermissions(e.message);
      default:
        return vscode.FileSystemError.Unavailable(e.message);
    }
  }

  dispose(): void {
    this.emitter.dispose();
  }
}

/**
 * Read-only documents of one revision: `store-revision:/<fileId>/<revisionId|head>/<name>`.
 * Workspace documents show their text export.
 */
export class RevisionContentProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly connection: StorageConnection) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const [fileId, revisionId] = uri.path.split('/').filter(Boolean);
    const client = await this.connection.client();
    const file = await client.getFile(fileId, { fields: 'id,mimeType,headRevisionId' });
    if (file.mimeType?.startsWith('application/vnd.google-apps.')) {
      const target = file.mimeType === 'application/vnd.google-apps.spreadsheet' ? 'text/csv' : 'text/plain';
      return (await client.exportFile(fileId, target)).toString('utf8');
    }
    return (await client.download(fileId, { revisionId: revisionId === 'head' ? undefined : revisionId })).toString(
      'utf8',
    );
  }
}
