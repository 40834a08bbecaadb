// The editor-free half of the `store:` file system: listing, reading, and saving with `If-Match` so
// a newer server version is never overwritten silently; paths are resolved by StoreLookup
// (storeLookup.ts). The VS Code FileSystemProvider maps these calls and StoreFsError codes one to one.
import { FOLDER_MIME, SHORTCUT_MIME, isWorkspaceDocument, type File } from '../../shared/wire/storage';
import type { StorageClient } from './client';
import { StorageError } from './errors';
import { displayName, splitPath } from './storePaths';
import { bufferSource, upload } from './upload';
import { StoreFsError, storeFsCall, toStoreFsError } from './storeFsError';
import { guessType, isDirectory, openAsType, targetId } from './storeItems';
import { readablePath } from './readablePaths';
import { StoreLookup } from './storeLookup';
import { isVirtualRoot, TRASH } from './storeRoots';

export { StoreFsError, type StoreFsErrorCode } from './storeFsError';

export interface StoreStat {
  type: 'file' | 'directory';
  /** A shortcut: presented as its target's type. */
  symlink: boolean;
  ctime: number;
  mtime: number;
  size: number;
  readonly: boolean;
  file: File;
}

export interface StoreFsOptions {
  /** How long a stat may be served from cache; short, so saves see fresh server values. */
  statTtlMs?: number;
  /** Delete moves to the trash (default) instead of deleting for good. */
  useTrash?: boolean;
  now?: () => number;
}

export class StoreFs {
  private readonly lookup: StoreLookup;
  /** Etag of the version each open document was read from: the `If-Match` of its next save. */
  private readonly baseEtag = new Map<string, string>();

  constructor(
    readonly client: StorageClient,
    private readonly options: StoreFsOptions = {},
  ) {
    this.lookup = new StoreLookup(client, options.statTtlMs ?? 1000, options.now ?? Date.now);
  }

  /**
   * Binds a path to the file it names now. The tree opens files by their folder path (readable
   * breadcrumbs) and pins it, so opening resolves by id, with no listing, and the open editor stays
   * on the file it opened when it or a folder above it is renamed or moved: its saves go to that file
   * (still guarded by If-Match). Pins live as long as this file system; the editor's `store:` URI
   * carries the id too (the adapter's storeFileId), so a path restored after a reload is pinned again
   * before its first use.
   */
  pin(path: string, id: string): string | undefined {
    return this.lookup.pin(path, id);
  }

  /** Resolves a path to its file (folders included). */
  resolve(path: string): Promise<File> {
    return this.lookup.resolve(path);
  }

  /** `/<id>/…` as the item's folder path (readablePaths.ts); a readable path as it is. */
  readablePath(path: string): Promise<string | undefined> {
    return readablePath(this.lookup, path);
  }

  async stat(path: string): Promise<StoreStat> {
    const f = await this.resolve(path);
    // `/<fileId>` of a plain file is the virtual folder that holds just that file under its name
    // (editors create parents before writing, so it must read as a folder).
    const dir = isDirectory(f) || splitPath(path).length === 1;
    return {
      type: dir ? 'directory' : 'file',
      symlink: f.mimeType === SHORTCUT_MIME,
      ctime: Date.parse(f.createdDate ?? '') || 0,
      mtime: Date.parse(f.modifiedDate ?? '') || 0,
      size: dir ? 0 : Number(f.fileSize ?? 0),
      readonly: isWorkspaceDocument(f) || f.capabilities?.canModifyContent === false || !!f.labels?.trashed,
      file: f,
    };
  }

  async readDirectory(path: string): Promise<[string, 'file' | 'directory'][]> {
    const folder = await this.resolve(path);
    if (!isDirectory(folder)) {
      if (splitPath(path).length === 1) return [[displayName(folder.title), 'file']];
      throw new StoreFsError('FileNotADirectory', `${displayName(folder.title)} is not a folder.`);
    }
    const { kids, names } = await this.lookup.list(targetId(folder), inTrash(path));
    return kids.map((k) => [names.get(k.id!)!, isDirectory(k) ? 'directory' : 'file']);
  }

  async readFile(path: string, signal?: AbortSignal): Promise<Buffer> {
    const f = await this.resolve(path);
    if (isDirectory(f) || splitPath(path).length === 1)
      throw new StoreFsError('FileIsADirectory', `${displayName(f.title)} is a folder.`);
    const fresh = await this.lookup.fetch(f.id!, true, inTrash(path));
    const bytes = await storeFsCall(() =>
      isWorkspaceDocument(fresh)
        ? this.client.exportFile(fresh.id!, openAsType(fresh), signal)
        : this.client.download(targetId(fresh), { signal }),
    );
    if (fresh.etag) this.baseEtag.set(fresh.id!, fresh.etag);
    return bytes;
  }

  /**
   * Saves content. An existing file is updated with `If-Match` set to the etag it was read at; a
   * newer server version fails with a Conflict carrying the server's file. `force` takes the
   * current server etag instead (an explicit overwrite), which still guards against a third change.
   */
  async writeFile(
    path: string,
    content: Uint8Array,
    opts: { create: boolean; overwrite: boolean; force?: boolean },
  ): Promise<File> {
    const existing = await this.resolve(path).catch((e: unknown) => {
      if (e instanceof StoreFsError && e.code === 'FileNotFound') return undefined;
      throw e;
    });
    if (existing && splitPath(path).length === 1)
      throw new StoreFsError('FileIsADirectory', `${path} is the folder view of a file.`);
    if (existing) {
      if (!opts.overwrite) throw new StoreFsError('FileExists', `${displayName(existing.title)} already exists.`);
      if (isDirectory(existing))
        throw new StoreFsError('FileIsADirectory', `${displayName(existing.title)} is a folder.`);
      this.real(existing);
      if (isWorkspaceDocument(existing))
        throw new StoreFsError(
          'NoPermissions',
          `${displayName(existing.title)} is a workspace document; it can only be exported.`,
        );
      const current = await this.lookup.fetch(existing.id!, true);
      const base = opts.force ? current.etag : (this.baseEtag.get(existing.id!) ?? current.etag);
      if (!opts.force && base !== current.etag) {
        throw new StoreFsError(
          'Conflict',
          `${displayName(existing.title)} was changed on the server since it was opened.`,
          current,
        );
      }
      try {
        return this.saved(
          await upload(this.client, bufferSource(content), {
            fileId: existing.id,
            ifMatch: base,
            contentType: existing.mimeType,
            query: { supportsAllDrives: true },
          }),
        );
      } catch (e) {
        if (e instanceof StorageError && e.isConflict) {
          const server = await this.lookup.fetch(existing.id!, true);
          throw new StoreFsError(
            'Conflict',
            `${displayName(existing.title)} was changed on the server while saving.`,
            server,
          );
        }
        throw toStoreFsError(e);
      }
    }
    if (!opts.create) throw new StoreFsError('FileNotFound', `${path} does not exist.`);
    const { parent, name } = await this.lookup.parentOf(path);
    // A reserved id makes a retried create idempotent.
    const ids = await storeFsCall(() => this.client.call('files.generateIds', { maxResults: 1 }));
    const saved = await storeFsCall(() =>
      upload(this.client, bufferSource(content), {
        metadata: { id: ids.ids?.[0], title: name, parents: [{ id: targetId(parent) }] },
        contentType: guessType(name),
        query: { supportsAllDrives: true },
      }),
    );
    this.lookup.invalidate(targetId(parent));
    return this.saved(saved);
  }

  async createDirectory(path: string): Promise<File> {
    if (
      await this.resolve(path).then(
        () => true,
        () => false,
      )
    )
      throw new StoreFsError('FileExists', `${path} already exists.`);
    const { parent, name } = await this.lookup.parentOf(path);
    const made = await storeFsCall(() =>
      this.client.call(
        'files.insert',
        { supportsAllDrives: true },
        { title: name, mimeType: FOLDER_MIME, parents: [{ id: targetId(parent) }] },
      ),
    );
    this.lookup.invalidate(targetId(parent));
    this.lookup.remember(made);
    return made;
  }

  async delete(path: string, opts: { recursive: boolean; useTrash?: boolean }): Promise<void> {
    const f = this.real(await this.resolve(path));
    if (isDirectory(f) && !opts.recursive) {
      const { kids } = await this.lookup.list(f.id!);
      if (kids.length) throw new StoreFsError('NoPermissions', `${displayName(f.title)} is not empty.`);
    }
    const trash = opts.useTrash ?? this.options.useTrash ?? true;
    await storeFsCall(async () => {
      if (trash) await this.client.call('files.trash', { fileId: f.id!, supportsAllDrives: true });
      else await this.client.call('files.delete', { fileId: f.id!, supportsAllDrives: true });
    });
    this.forget(f);
    this.lookup.unpin(path);
  }

  async rename(from: string, to: string, opts: { overwrite: boolean }): Promise<File> {
    const f = this.real(await this.resolve(from));
    const { parent: newParent, name } = await this.lookup.parentOf(to);
    const existing = await this.resolve(to).catch(() => undefined);
    if (existing && existing.id !== f.id) {
      if (!opts.overwrite) throw new StoreFsError('FileExists', `${name} already exists.`);
      // Not atomic on the service: the replaced item goes to the trash first, so it can be restored.
      await storeFsCall(() => this.client.call('files.trash', { fileId: existing.id!, supportsAllDrives: true }));
      this.forget(existing);
    }
    const oldParent = await this.lookup
      .parentOf(from)
      .then((p) => targetId(p.parent))
      .catch(() => undefined);
    const moving = oldParent !== undefined && oldParent !== targetId(newParent);
    const title = name === displayName(f.title) ? f.title : name;
    const patched = await storeFsCall(() =>
      this.client.call(
        'files.patch',
        {
          fileId: f.id!,
          supportsAllDrives: true,
          ...(moving ? { addParents: targetId(newParent), removeParents: oldParent } : {}),
        },
        { title },
      ),
    );
    this.forget(f);
    this.lookup.invalidate(targetId(newParent));
    this.lookup.remember(patched);
    if (this.lookup.unpin(from)) this.pin(to, patched.id ?? f.id!);
    return patched;
  }

  async copy(from: string, to: string, opts: { overwrite: boolean }): Promise<File> {
    const f = await this.resolve(from);
    const { parent, name } = await this.lookup.parentOf(to);
    const existing = await this.resolve(to).catch(() => undefined);
    if (existing) {
      if (!opts.overwrite) throw new StoreFsError('FileExists', `${name} already exists.`);
      await storeFsCall(() => this.client.call('files.trash', { fileId: existing.id!, supportsAllDrives: true }));
      this.forget(existing);
    }
    const copied = await this.copyTree(f, targetId(parent), name);
    this.lookup.invalidate(targetId(parent));
    return copied;
  }

  /** Forgets cached metadata (after outside changes, e.g. from the change feed). */
  invalidate(id?: string): void {
    this.lookup.invalidate(id);
  }

  private async copyTree(f: File, parentId: string, title: string): Promise<File> {
    if (!isDirectory(f)) {
      return storeFsCall(() =>
        this.client.call(
          'files.copy',
          { fileId: f.id!, supportsAllDrives: true },
          { title, parents: [{ id: parentId }] },
        ),
      );
    }
    const folder = await storeFsCall(() =>
      this.client.call(
        'files.insert',
        { supportsAllDrives: true },
        { title, mimeType: FOLDER_MIME, parents: [{ id: parentId }] },
      ),
    );
    // A folder copied out of the trash: what went to the trash with it is copied too.
    const { kids } = await this.lookup.list(f.id!, !!f.labels?.trashed);
    for (const k of kids) await this.copyTree(k, folder.id!, k.title ?? 'Untitled');
    return folder;
  }

  /**
   * The item itself, refused when it is a root other than My files (a listing, not an item) or in the
   * trash (read-only until restored, as the service's own editors keep it).
   */
  private real(f: File): File {
    if (isVirtualRoot(f.id)) throw new StoreFsError('NoPermissions', `${f.title} cannot be changed.`);
    if (f.labels?.trashed)
      throw new StoreFsError('NoPermissions', `${displayName(f.title)} is in the trash: restore it to change it.`);
    return f;
  }

  /** After a save, the saved version is the base of the next one. */
  private saved(f: File): File {
    this.lookup.remember(f);
    if (f.id && f.etag) this.baseEtag.set(f.id, f.etag);
    return f;
  }

  private forget(f: File): void {
    this.lookup.forget(f);
    this.baseEtag.delete(f.id!);
  }
}

/** Paths below `Trash` reach trashed items (read-only); elsewhere a trashed item is gone. */
function inTrash(path: string): boolean {
  return splitPath(path)[0] === TRASH;
}
