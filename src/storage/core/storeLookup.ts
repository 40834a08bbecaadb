// How the `store:` file system finds files: a path resolved to its file segment by segment (or at
// once, through a pin), with file metadata and folder listings cached briefly so an editor's burst of
// stat/read calls costs one request per item. StoreFs (fileSystem.ts) does the file operations on top.
import type { File } from '../../shared/wire/storage';
import { quote, type StorageClient } from './client';
import { childNames, displayName, hintOf, splitPath } from './storePaths';
import { StoreFsError, storeFsCall } from './storeFsError';
import { isDirectory, targetId } from './storeItems';
import { aliasTarget, isVirtualRoot, listVirtualRoot, TOP, TRASH, virtualRoot } from './storeRoots';

const STAT_FIELDS =
  'id,title,mimeType,fileSize,modifiedDate,createdDate,etag,version,headRevisionId,md5Checksum,labels(trashed),explicitlyTrashed,capabilities(canEdit,canModifyContent,canAddChildren,canRename,canTrash,canDelete),parents(id,isRoot),shortcutDetails,driveId';
const CHILD_FIELDS = `nextPageToken,items(${STAT_FIELDS})`;
/** Metadata fetched this recently counts as fresh (a read right after its stat). */
const FRESH_MS = 1000;

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

  /**
   * Resolves a path to its file (folders included). Items in the trash are found below `Trash` only:
   * anywhere else a trashed item is not found, as it is gone from its folders.
   */
  async resolve(path: string): Promise<File> {
    const segs = splitPath(path);
    if (segs.length === 0) return virtualRoot(TOP);
    const trash = segs[0] === TRASH;
    const pinned = this.pins.get(segs.join('/'));
    if (pinned) return this.fetch(pinned, false, trash);
    let current = await this.fetch(aliasTarget(segs[0]));
    for (let i = 1; i < segs.length; i++) {
      if (!isDirectory(current)) {
        // `/<fileId>/<name>`: the name only labels the file itself.
        if (i === segs.length - 1 && segs[i] === displayName(current.title)) return current;
        throw new StoreFsError('FileNotADirectory', `${displayName(current.title)} is not a folder.`);
      }
      current = await this.child(current, segs[i], trash);
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
    if (parent.labels?.trashed)
      throw new StoreFsError('NoPermissions', `${displayName(parent.title)} is in the trash: restore it first.`);
    const raw = segs[segs.length - 1];
    return { parent, name: hintOf(raw)?.base ?? raw };
  }

  /** A folder's children and their unique names (id → name); in the trash, its trashed children. */
  async list(folderId: string, trash = false): Promise<{ kids: File[]; names: Map<string, string> }> {
    const key = trash ? `${TRASH}/${folderId}` : folderId;
    const cached = this.listings.get(key);
    if (cached && this.now() - cached.at < this.ttl * 2) {
      const kids = [...cached.names.keys()].map((id) => this.files.get(id)?.file).filter((x): x is File => !!x);
      if (kids.length === cached.names.size) return { kids, names: cached.names };
    }
    const kids = await storeFsCall(() =>
      isVirtualRoot(folderId)
        ? listVirtualRoot(this.client, folderId, CHILD_FIELDS, STAT_FIELDS)
        : this.client.listAllFiles({
            q: `${quote(folderId)} in parents and trashed = ${trash}`,
            maxResults: 1000,
            fields: CHILD_FIELDS,
            supportsAllDrives: true,
            includeItemsFromAllDrives: true,
          }),
    );
    for (const k of kids) this.remember(k);
    const names = childNames(kids.map((k) => ({ id: k.id, title: k.title, folder: isDirectory(k) })));
    this.listings.set(key, { names, at: this.now() });
    return { kids, names };
  }

  /**
   * A file's metadata, from the cache unless `fresh`; a trashed file is not found unless `trash`. Fresh is
   * what was fetched within FRESH_MS: the editor's stat and its read that follows at once (opening a file) then
   * cost one request, not the same GET twice.
   */
  async fetch(id: string, fresh = false, trash = false): Promise<File> {
    if (isVirtualRoot(id)) return virtualRoot(id);
    const cached = this.files.get(id);
    const age = cached ? this.now() - cached.at : Infinity;
    let f = age < (fresh ? Math.min(FRESH_MS, this.ttl) : this.ttl) ? cached?.file : undefined;
    if (!f) {
      f = await storeFsCall(() =>
        id === 'root' ? this.client.rootFolder(STAT_FIELDS) : this.client.getFile(id, { fields: STAT_FIELDS }),
      );
      this.remember(f);
      if (id === 'root') this.files.set('root', { file: f, at: this.now() });
    }
    if (f.labels?.trashed && !trash) throw new StoreFsError('FileNotFound', `${displayName(f.title)} is in the trash.`);
    return f;
  }

  remember(f: File): void {
    if (f.id) this.files.set(f.id, { file: f, at: this.now() });
  }

  /** After the item changed or went: its metadata and the listings that held it. */
  forget(f: File): void {
    this.files.delete(f.id!);
    for (const p of f.parents ?? []) this.dropListing(p.id);
    this.dropListing('root');
    this.listings.delete(TRASH);
  }

  /** Forgets cached metadata (all of it without an id). */
  invalidate(id?: string): void {
    if (id === undefined) {
      this.files.clear();
      this.listings.clear();
      return;
    }
    this.files.delete(id);
    this.dropListing(id);
  }

  private dropListing(folderId: string): void {
    this.listings.delete(folderId);
    this.listings.delete(`${TRASH}/${folderId}`);
  }

  private async child(folder: File, segment: string, trash: boolean): Promise<File> {
    const { kids, names } = await this.list(targetId(folder), trash);
    const exact = kids.find((k) => names.get(k.id!) === segment);
    if (exact) return exact;
    throw new StoreFsError('FileNotFound', `${segment} was not found in ${displayName(folder.title)}.`);
  }
}
