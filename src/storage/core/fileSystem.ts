// The editor-free half of the `store:` file system: resolving paths to files, listing, reading,
// and saving with `If-Match` so a newer server version is never overwritten silently. The VS Code
// FileSystemProvider maps these calls and StoreFsError codes one to one.
import { FOLDER_MIME, SHORTCUT_MIME, isWorkspaceDocument, type File } from '../../shared/wire/storage';
import { quote, type StorageClient } from './client';
import { StorageError } from './errors';
import { childNames, displayName, hintOf, splitPath } from './storePaths';
import { bufferSource, upload } from './upload';
import { StoreFsError, toStoreFsError } from './storeFsError';
import { guessType, isDirectory, openAsType, targetId } from './storeItems';
import { aliasTarget, isVirtualRoot, listVirtualRoot, TOP, virtualRoot } from './storeRoots';

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

const STAT_FIELDS =
  'id,title,mimeType,fileSize,modifiedDate,createdDate,etag,version,headRevisionId,md5Checksum,labels(trashed),capabilities(canEdit,canModifyContent,canAddChildren,canRename,canTrash,canDelete),parents(id),shortcutDetails,driveId';
const CHILD_FIELDS = `nextPageToken,items(${STAT_FIELDS})`;

export interface StoreFsOptions {
  /** How long a stat may be served from cache; short, so saves see fresh server values. */
  statTtlMs?: number;
  /** Delete moves to the trash (default) instead of deleting for good. */
  useTrash?: boolean;
  now?: () => number;
}

export class StoreFs {
  private readonly files = new Map<string, { file: File; at: number }>();
  private readonly listings = new Map<string, { names: Map<string, string>; at: number }>();
  /** Etag of the version each open document was read from: the `If-Match` of its next save. */
  private readonly baseEtag = new Map<string, string>();
  /** Paths the tree opened, bound to the file they named then (see pin). */
  private readonly pins = new Map<string, string>();
  private readonly ttl: number;
  private readonly now: () => number;

  constructor(
    readonly client: StorageClient,
    private readonly options: StoreFsOptions = {},
  ) {
    this.ttl = options.statTtlMs ?? 1000;
    this.now = options.now ?? Date.now;
  }

  /**
   * Binds a path to the file it names now. The tree opens files by their folder path (readable
   * breadcrumbs) and pins it, so opening resolves by id, with no listing, and the open editor stays
   * on the file it opened when it or a folder above it is renamed or moved: its saves go to that file
   * (still guarded by If-Match). Pins live as long as this file system; a path restored after a reload
   * is resolved by names again, and when a folder on it is gone the save fails naming it, unsaved
   * edits kept in the editor.
   */
  pin(path: string, id: string): string | undefined {
    const key = splitPath(path).join('/');
    const before = this.pins.get(key);
    this.pins.set(key, id);
    return before;
  }

  /** Resolves a path to its file (folders included). */
  async resolve(path: string): Promise<File> {
    const segs = splitPath(path);
    if (segs.length === 0) return virtualRoot(TOP);
    const pinned = this.pins.get(segs.join('/'));
    if (pinned) return this.fetch(pinned);
    let current = await this.fetch(aliasTarget(segs[0]));
    for (let i = 1; i < segs.length; i++) {
      if (!isDirectory(current)) {
        // `/<fileId>/<name>`: the name only labels the file itself.
        if (i === segs.length - 1 && segs[i] === displayName(current.title)) return current;
        throw new StoreFsError('FileNotADirectory', `${displayName(current.title)} is not a folder.`);
      }
      current = await this.child(current, segs[i]);
    }
    return current;
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
      readonly: isWorkspaceDocument(f) || f.capabilities?.canModifyContent === false,
      file: f,
    };
  }

  async readDirectory(path: string): Promise<[string, 'file' | 'directory'][]> {
    const folder = await this.resolve(path);
    if (!isDirectory(folder)) {
      if (splitPath(path).length === 1) return [[displayName(folder.title), 'file']];
      throw new StoreFsError('FileNotADirectory', `${displayName(folder.title)} is not a folder.`);
    }
    const { kids, names } = await this.list(targetId(folder));
    return kids.map((k) => [names.get(k.id!)!, isDirectory(k) ? 'directory' : 'file']);
  }

  async readFile(path: string, signal?: AbortSignal): Promise<Buffer> {
    const f = await this.resolve(path);
    if (isDirectory(f) || splitPath(path).length === 1)
      throw new StoreFsError('FileIsADirectory', `${displayName(f.title)} is a folder.`);
    const fresh = await this.fetch(f.id!, true);
    const bytes = await this.wrap(() =>
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
      if (isWorkspaceDocument(existing))
        throw new StoreFsError(
          'NoPermissions',
          `${displayName(existing.title)} is a workspace document; it can only be exported.`,
        );
      const current = await this.fetch(existing.id!, true);
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
          const server = await this.fetch(existing.id!, true);
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
    const { parent, name } = await this.parentOf(path);
    // A reserved id makes a retried create idempotent.
    const ids = await this.wrap(() => this.client.call('files.generateIds', { maxResults: 1 }));
    const saved = await this.wrap(() =>
      upload(this.client, bufferSource(content), {
        metadata: { id: ids.ids?.[0], title: name, parents: [{ id: targetId(parent) }] },
        contentType: guessType(name),
        query: { supportsAllDrives: true },
      }),
    );
    this.invalidate(targetId(parent));
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
    const { parent, name } = await this.parentOf(path);
    const made = await this.wrap(() =>
      this.client.call(
        'files.insert',
        { supportsAllDrives: true },
        { title: name, mimeType: FOLDER_MIME, parents: [{ id: targetId(parent) }] },
      ),
    );
    this.invalidate(targetId(parent));
    this.remember(made);
    return made;
  }

  async delete(path: string, opts: { recursive: boolean; useTrash?: boolean }): Promise<void> {
    const f = this.real(await this.resolve(path));
    if (isDirectory(f) && !opts.recursive) {
      const { kids } = await this.list(f.id!);
      if (kids.length) throw new StoreFsError('NoPermissions', `${displayName(f.title)} is not empty.`);
    }
    const trash = opts.useTrash ?? this.options.useTrash ?? true;
    await this.wrap(async () => {
      if (trash) await this.client.call('files.trash', { fileId: f.id!, supportsAllDrives: true });
      else await this.client.call('files.delete', { fileId: f.id!, supportsAllDrives: true });
    });
    this.forget(f);
    this.pins.delete(splitPath(path).join('/'));
  }

  async rename(from: string, to: string, opts: { overwrite: boolean }): Promise<File> {
    const f = this.real(await this.resolve(from));
    const { parent: newParent, name } = await this.parentOf(to);
    const existing = await this.resolve(to).catch(() => undefined);
    if (existing && existing.id !== f.id) {
      if (!opts.overwrite) throw new StoreFsError('FileExists', `${name} already exists.`);
      // Not atomic on the service: the replaced item goes to the trash first, so it can be restored.
      await this.wrap(() => this.client.call('files.trash', { fileId: existing.id!, supportsAllDrives: true }));
      this.forget(existing);
    }
    const oldParent = await this.parentOf(from)
      .then((p) => targetId(p.parent))
      .catch(() => undefined);
    const moving = oldParent !== undefined && oldParent !== targetId(newParent);
    const title = name === displayName(f.title) ? f.title : name;
    const patched = await this.wrap(() =>
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
    this.invalidate(targetId(newParent));
    this.remember(patched);
    if (this.pins.delete(splitPath(from).join('/'))) this.pin(to, patched.id ?? f.id!);
    return patched;
  }

  async copy(from: string, to: string, opts: { overwrite: boolean }): Promise<File> {
    const f = await this.resolve(from);
    const { parent, name } = await this.parentOf(to);
    const existing = await this.resolve(to).catch(() => undefined);
    if (existing) {
      if (!opts.overwrite) throw new StoreFsError('FileExists', `${name} already exists.`);
      await this.wrap(() => this.client.call('files.trash', { fileId: existing.id!, supportsAllDrives: true }));
      this.forget(existing);
    }
    const copied = await this.copyTree(f, targetId(parent), name);
    this.invalidate(targetId(parent));
    return copied;
  }

  /** Forgets cached metadata (after outside changes, e.g. from the change feed). */
  invalidate(id?: string): void {
    if (id === undefined) {
      this.files.clear();
      this.listings.clear();
      return;
    }
    this.files.delete(id);
    this.listings.delete(id);
  }

  private async copyTree(f: File, parentId: string, title: string): Promise<File> {
    if (!isDirectory(f)) {
      return this.wrap(() =>
        this.client.call(
          'files.copy',
          { fileId: f.id!, supportsAllDrives: true },
          { title, parents: [{ id: parentId }] },
        ),
      );
    }
    const folder = await this.wrap(() =>
      this.client.call(
        'files.insert',
        { supportsAllDrives: true },
        { title, mimeType: FOLDER_MIME, parents: [{ id: parentId }] },
      ),
    );
    const { kids } = await this.list(f.id!);
    for (const k of kids) await this.copyTree(k, folder.id!, k.title ?? 'Untitled');
    return folder;
  }

  private async parentOf(path: string): Promise<{ parent: File; name: string }> {
    const segs = splitPath(path);
    if (segs.length < 2) throw new StoreFsError('NoPermissions', 'Items are created inside a folder.');
    const parent = await this.resolve('/' + segs.slice(0, -1).join('/'));
    if (!isDirectory(parent))
      throw new StoreFsError('FileNotADirectory', `${displayName(parent.title)} is not a folder.`);
    if (isVirtualRoot(parent.id))
      throw new StoreFsError('NoPermissions', `Nothing can be added to ${parent.title}: choose a folder in it.`);
    const raw = segs[segs.length - 1];
    return { parent, name: hintOf(raw)?.base ?? raw };
  }

  private async child(folder: File, segment: string): Promise<File> {
    const { kids, names } = await this.list(targetId(folder));
    const exact = kids.find((k) => names.get(k.id!) === segment);
    if (exact) return exact;
    throw new StoreFsError('FileNotFound', `${segment} was not found in ${displayName(folder.title)}.`);
  }

  private async list(folderId: string): Promise<{ kids: File[]; names: Map<string, string> }> {
    const cached = this.listings.get(folderId);
    if (cached && this.now() - cached.at < this.ttl * 2) {
      const kids = [...cached.names.keys()].map((id) => this.files.get(id)?.file).filter((x): x is File => !!x);
      if (kids.length === cached.names.size) return { kids, names: cached.names };
    }
    const kids = await this.wrap(() =>
      isVirtualRoot(folderId)
        ? listVirtualRoot(this.client, folderId, CHILD_FIELDS)
        : this.client.listAllFiles({
            q: `${quote(folderId)} in parents and trashed = false`,
            maxResults: 1000,
            fields: CHILD_FIELDS,
            supportsAllDrives: true,
            includeItemsFromAllDrives: true,
          }),
    );
    for (const k of kids) this.remember(k);
    const names = childNames(kids.map((k) => ({ id: k.id, title: k.title, folder: isDirectory(k) })));
    this.listings.set(folderId, { names, at: this.now() });
    return { kids, names };
  }

  private async fetch(id: string, fresh = false): Promise<File> {
    if (isVirtualRoot(id)) return virtualRoot(id);
    const cached = this.files.get(id);
    if (!fresh && cached && this.now() - cached.at < this.ttl) return cached.file;
    const f = await this.wrap(() => this.client.getFile(id, { fields: STAT_FIELDS }));
    if (f.labels?.trashed) throw new StoreFsError('FileNotFound', `${displayName(f.title)} is in the trash.`);
    this.remember(f);
    if (id === 'root') this.files.set('root', { file: f, at: this.now() });
    return f;
  }

  /** The item itself, refused when it is Shared drives or Shared with me (a listing, not an item). */
  private real(f: File): File {
    if (isVirtualRoot(f.id)) throw new StoreFsError('NoPermissions', `${f.title} cannot be changed.`);
    return f;
  }

  private remember(f: File): void {
    if (f.id) this.files.set(f.id, { file: f, at: this.now() });
  }

  /** After a save, the saved version is the base of the next one. */
  private saved(f: File): File {
    this.remember(f);
    if (f.id && f.etag) this.baseEtag.set(f.id, f.etag);
    return f;
  }

  private forget(f: File): void {
    this.files.delete(f.id!);
    this.baseEtag.delete(f.id!);
    for (const p of f.parents ?? []) this.listings.delete(p.id);
    this.listings.delete('root');
  }

  private async wrap<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      throw toStoreFsError(e);
    }
  }
}
