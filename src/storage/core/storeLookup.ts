// How the `store:` file system finds files: a path resolved to its file segment by segment (or at
// once, through a pin), with file metadata and folder listings cached briefly so an editor's burst of
// stat/read calls costs one request per item. StoreFs (fileSystem.ts) does the file operations on top.
import type { File } from '../../shared/wire/storage';
import { quote, type StorageClient } from './client';
import { childNames, displayName, hintOf, splitPath } from './storePaths';
import { StoreFsError, storeFsCall } from './storeFsError';
import { isDirectory, targetId } from './storeItems';
import { aliasTarget, isVirtualRoot, listVirtualRoot, TOP, virtualRoot } from './storeRoots';

const STAT_FIELDS =
  'id,title,mimeType,fileSize,modifiedDate,createdDate,etag,version,headRevisionId,md5Checksum,labels(trashed),capabilities(canEdit,canModifyContent,canAddChildren,canRename,canTrash,canDelete),parents(id),shortcutDetails,driveId';
const CHILD_FIELDS = `nextPageToken,items(${STAT_FIELDS})`;

export class StoreLookup {
  private readonly files = new Map<string, { file: File; at: number }>();
  private readonly listings = new Map<string, { names: Map<string, string>; at: number }>();
  /** Paths the tree opened, bound to the file they named then (see StoreFs.pin). */
  private readonly pins = new Map<string, string>();

  constructor(
    private readonly client: StorageClient,
    /** How long a stat may be served from cache; a listing lives twice as long. */
    private readonly ttl: number,
    private readonly now: () => number,
  ) {}

  pin(path: string, id: string): string | undefined {
    const key = splitPath(path).join('/');
    const before = this.pins.get(key);
    this.pins.set(key, id);
    return before;
  }

  /** Drops the pin of `path`; true when there was one. */
  unpin(path: string): boolean {
    return this.pins.delete(splitPath(path).join('/'));
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

  /** The folder a new item at `path` goes into, and the item's name (without a `~id` hint). */
  async parentOf(path: string): Promise<{ parent: File; name: string }> {
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

  /** A folder's children and their unique names (id → name). */
  async list(folderId: string): Promise<{ kids: File[]; names: Map<string, string> }> {
    const cached = this.listings.get(folderId);
    if (cached && this.now() - cached.at < this.ttl * 2) {
      const kids = [...cached.names.keys()].map((id) => this.files.get(id)?.file).filter((x): x is File => !!x);
      if (kids.length === cached.names.size) return { kids, names: cached.names };
    }
    const kids = await storeFsCall(() =>
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

  /** A file's metadata, from the cache unless `fresh`; a trashed file is not found. */
  async fetch(id: string, fresh = false): Promise<File> {
    if (isVirtualRoot(id)) return virtualRoot(id);
    const cached = this.files.get(id);
    if (!fresh && cached && this.now() - cached.at < this.ttl) return cached.file;
    const f = await storeFsCall(() => this.client.getFile(id, { fields: STAT_FIELDS }));
    if (f.labels?.trashed) throw new StoreFsError('FileNotFound', `${displayName(f.title)} is in the trash.`);
    this.remember(f);
    if (id === 'root') this.files.set('root', { file: f, at: this.now() });
    return f;
  }

  remember(f: File): void {
    if (f.id) this.files.set(f.id, { file: f, at: this.now() });
  }

  /** After the item changed or went: its metadata and the listings that held it. */
  forget(f: File): void {
    this.files.delete(f.id!);
    for (const p of f.parents ?? []) this.listings.delete(p.id);
    this.listings.delete('root');
  }

  /** Forgets cached metadata (all of it without an id). */
  invalidate(id?: string): void {
    if (id === undefined) {
      this.files.clear();
      this.listings.clear();
      return;
    }
    this.files.delete(id);
    this.listings.delete(id);
  }

  private async child(folder: File, segment: string): Promise<File> {
    const { kids, names } = await this.list(targetId(folder));
    const exact = kids.find((k) => names.get(k.id!) === segment);
    if (exact) return exact;
    throw new StoreFsError('FileNotFound', `${segment} was not found in ${displayName(folder.title)}.`);
  }
}
