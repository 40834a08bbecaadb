// Editor-free model of the storage tree: fixed roots (My files, Shared drives, …), lazily loaded
// children in pages with a "Load more…" entry, folders first. What each node shows is
// treePresentation.ts; the VS Code adapter only maps that onto TreeItems.
import { FOLDER_MIME, SHORTCUT_MIME, type Drive, type File, type FileList } from '../../shared/wire/storage';
import { LIST_FIELDS, quote, type StorageClient } from './client';
import { NetworkError, StorageError } from './errors';
import { searchLabel, searchQuery, type Search } from './search';
import { presentEntry, ROOTS, type Presentation, type RootKind } from './treePresentation';

export type TreeEntry =
  | { type: 'root'; key: string; root: RootKind; label: string }
  | { type: 'file'; key: string; parentKey: string; file: File; folder: boolean }
  | { type: 'drive'; key: string; parentKey: string; drive: Drive }
  | { type: 'loadMore'; key: string; parentKey: string; loaded: number }
  | { type: 'message'; key: string; parentKey: string; message: string; error: boolean };

interface Listing {
  items: (File | Drive)[];
  nextPageToken?: string;
  done: boolean;
  loading?: Promise<void>;
  error?: string;
  /** The service itself cannot be reached (refused, unknown host). */
  unreachable?: Unreachable;
}

/** Why the service cannot be reached: one line naming host and reason, and the system error code. */
export interface Unreachable {
  message: string;
  code: string;
}

export interface TreeModelOptions {
  pageSize?: number;
  /** Fields requested per listed item; the default covers everything the tree shows. */
  fields?: string;
}

/** How a container's children are fetched. */
type Source =
  | {
      kind: 'files';
      params: { q: string; orderBy?: string; corpora?: string; driveId?: string };
      filter?: (f: File) => boolean;
    }
  | { kind: 'drives' };

export class StorageTreeModel {
  private readonly listings = new Map<string, Listing>();
  private readonly entries = new Map<string, TreeEntry>();
  private readonly listeners = new Set<(containerKey: string | undefined) => void>();
  readonly pageSize: number;
  /** Id of My files, learnt from the first listing of it. */
  rootId: string | undefined;
  /** The search shown as a root above the others, until it is cleared. */
  private search: Search | undefined;

  constructor(
    private readonly client: StorageClient,
    private readonly options: TreeModelOptions = {},
  ) {
    this.pageSize = options.pageSize ?? 100;
  }

  /** Subscribes to "these children changed" (undefined: everything). */
  onDidChange(listener: (containerKey: string | undefined) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  roots(): TreeEntry[] {
    const roots = ROOTS.map((r) => this.remember({ type: 'root', key: r.kind, root: r.kind, label: r.label }));
    if (!this.search) return roots;
    return [this.remember({ type: 'root', key: 'search', root: 'search', label: searchLabel(this.search) }), ...roots];
  }

  /** Shows the results of `search` (a new search replaces the last one); blank text or undefined clears it. */
  setSearch(search: Search | undefined): void {
    this.search = search && searchQuery(search) ? { ...search, text: search.text.trim() } : undefined;
    this.listings.delete('search');
    this.fire(undefined);
  }

  get activeSearch(): Search | undefined {
    return this.search;
  }

  entry(key: string): TreeEntry | undefined {
    return this.entries.get(key);
  }

  /** Loaded children of a container; loads the first page on first use. */
  async children(parent?: TreeEntry): Promise<TreeEntry[]> {
    if (!parent) return this.roots();
    if (parent.type !== 'root' && parent.type !== 'drive' && !(parent.type === 'file' && parent.folder)) return [];
    const listing = this.listings.get(parent.key) ?? this.startListing(parent.key);
    if (!listing.done && listing.items.length === 0 && !listing.error) await this.loadPage(parent, listing);
    return this.entriesOf(parent, listing);
  }

  /**
   * Loads the first page of My files and says, in one line, why the service cannot be reached at all
   * (connection refused, unknown host); undefined when it answered. The view shows its welcome content then.
   */
  async unreachable(): Promise<Unreachable | undefined> {
    const root = this.roots().find((r) => r.type === 'root' && r.root === 'myFiles')!;
    const listing = this.listings.get(root.key) ?? this.startListing(root.key);
    if (!listing.done && listing.items.length === 0 && !listing.error) await this.loadPage(root, listing);
    return listing.unreachable;
  }

  /** Fetches the next page of a container (the "Load more…" action). */
  async loadMore(containerKey: string): Promise<void> {
    const parent = this.entries.get(containerKey);
    const listing = this.listings.get(containerKey);
    if (!parent || !listing || listing.done) return;
    await this.loadPage(parent, listing);
    this.fire(containerKey);
  }

  /** Forgets loaded children so the next expansion reloads them. */
  refresh(containerKey?: string): void {
    if (containerKey === undefined) this.listings.clear();
    else this.listings.delete(containerKey);
    this.fire(containerKey);
  }

  /** Refreshes only the loaded containers a batch of changes touches (change feed). */
  applyChanges(batch: { fileIds: string[]; parentIds: string[]; driveIds: string[] }): string[] {
    const files = new Set(batch.fileIds);
    const parents = new Set(batch.parentIds);
    const stale: string[] = [];
    for (const [key, listing] of this.listings) {
      const folder = this.folderIdOf(key);
      const touched =
        (folder !== undefined && parents.has(folder)) ||
        listing.items.some((i) => i.id !== undefined && files.has(i.id)) ||
        (['starred', 'recent', 'trash', 'sharedWithMe'].includes(key) && files.size > 0) ||
        (key === 'sharedDrives' && batch.driveIds.length > 0);
      if (touched) stale.push(key);
    }
    for (const key of stale) {
      this.listings.delete(key);
      this.fire(key);
    }
    return stale;
  }

  private folderIdOf(key: string): string | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.type === 'root') return e.root === 'myFiles' ? this.rootId : undefined;
    if (e.type === 'drive') return e.drive.id;
    if (e.type === 'file') return e.file.mimeType === SHORTCUT_MIME ? e.file.shortcutDetails?.targetId : e.file.id;
    return undefined;
  }

  /** Keys of the loaded containers that list `fileId` (a file may sit in several folders). */
  containersOf(fileId: string): string[] {
    const out: string[] = [];
    for (const [key, listing] of this.listings) if (listing.items.some((i) => i.id === fileId)) out.push(key);
    return out;
  }

  /** What a container has loaded so far (a paged listing may hold only its first pages). */
  loadedItems(containerKey: string): readonly (File | Drive)[] {
    return this.listings.get(containerKey)?.items ?? [];
  }

  present(e: TreeEntry): Presentation {
    return presentEntry(e);
  }

  private startListing(key: string): Listing {
    const l: Listing = { items: [], done: false };
    this.listings.set(key, l);
    return l;
  }

  private async loadPage(parent: TreeEntry, listing: Listing): Promise<void> {
    if (listing.loading) return listing.loading;
    listing.loading = (async () => {
      try {
        const source = this.sourceOf(parent);
        if (source.kind === 'drives') {
          const page = await this.client.call('drives.list', {
            maxResults: Math.min(100, this.pageSize),
            pageToken: listing.nextPageToken,
          });
          listing.items.push(...(page.items ?? []));
          listing.nextPageToken = page.nextPageToken;
        } else {
          // Pages may come back short or empty with a token: keep going until something shows or the end.
          for (let guard = 0; guard < 20; guard++) {
            const page: FileList = await this.client.listFiles({
              ...source.params,
              maxResults: this.pageSize,
              pageToken: listing.nextPageToken,
              fields: this.options.fields ?? LIST_FIELDS,
              supportsAllDrives: true,
              includeItemsFromAllDrives: true,
            });
            const items = (page.items ?? []).filter(source.filter ?? (() => true));
            this.rootId ??= items.flatMap((i) => i.parents ?? []).find((p) => p.isRoot)?.id;
            listing.items.push(...items);
            listing.nextPageToken = page.nextPageToken;
            if (items.length > 0 || !page.nextPageToken) break;
          }
        }
        listing.done = !listing.nextPageToken;
        listing.error = undefined;
        listing.unreachable = undefined;
      } catch (e) {
        listing.error = e instanceof StorageError ? e.message : `Could not load: ${(e as Error)?.message ?? e}`;
        listing.unreachable =
          e instanceof NetworkError && e.unreachable ? { message: e.message, code: e.code ?? '' } : undefined;
      } finally {
        listing.loading = undefined;
      }
    })();
    return listing.loading;
  }

  private sourceOf(parent: TreeEntry): Source {
    const notTrashed = 'trashed = false';
    if (parent.type === 'root') {
      switch (parent.root) {
        case 'myFiles':
          return {
            kind: 'files',
            params: { q: `'root' in parents and ${notTrashed}`, orderBy: 'folder,title_natural' },
          };
        case 'sharedDrives':
          return { kind: 'drives' };
        case 'sharedWithMe':
          return {
            kind: 'files',
            params: { q: `sharedWithMe = true and ${notTrashed}`, orderBy: 'folder,sharedWithMeDate desc' },
          };
        case 'starred':
          return { kind: 'files', params: { q: `starred = true and ${notTrashed}`, orderBy: 'folder,title_natural' } };
        case 'recent':
          return {
            kind: 'files',
            params: { q: `${notTrashed} and mimeType != '${FOLDER_MIME}'`, orderBy: 'recency desc' },
          };
        case 'search':
          // Blank searches never become the root (setSearch), so the query is always there.
          return { kind: 'files', params: { q: searchQuery(this.search!) ?? '', orderBy: 'folder,title_natural' } };
        // Only what was trashed itself; its descendants show under it.
        case 'trash':
          return {
            kind: 'files',
            params: { q: 'trashed = true', orderBy: 'folder,title_natural' },
            filter: (f) => f.explicitlyTrashed !== false,
          };
      }
    }
    if (parent.type === 'drive') {
      return {
        kind: 'files',
        params: {
          q: `${quote(parent.drive.id ?? '')} in parents and ${notTrashed}`,
          orderBy: 'folder,title_natural',
          corpora: 'drive',
          driveId: parent.drive.id,
        },
      };
    }
    const f = (parent as Extract<TreeEntry, { type: 'file' }>).file;
    const id = f.mimeType === SHORTCUT_MIME ? (f.shortcutDetails?.targetId ?? f.id) : f.id;
    // Inside the trash, show the trashed descendants; elsewhere hide them.
    const inTrash = parent.key.startsWith('trash/');
    return {
      kind: 'files',
      params: {
        q: `${quote(id ?? '')} in parents${inTrash ? '' : ` and ${notTrashed}`}`,
        orderBy: 'folder,title_natural',
      },
    };
  }

  private entriesOf(parent: TreeEntry, listing: Listing): TreeEntry[] {
    const items = [...listing.items];
    // Folders first across everything loaded so far (stable, so the server's order stays otherwise).
    items.sort((a, b) => Number(!isFolderLike(a)) - Number(!isFolderLike(b)));
    const drives = parent.type === 'root' && parent.root === 'sharedDrives';
    const out: TreeEntry[] = items.map((item) =>
      drives
        ? this.remember({ type: 'drive', key: `${parent.key}/${item.id}`, parentKey: parent.key, drive: item as Drive })
        : this.remember({
            type: 'file',
            key: `${parent.key}/${item.id}`,
            parentKey: parent.key,
            file: item as File,
            folder: isFolderLike(item),
          }),
    );
    if (listing.error)
      out.push(
        this.remember({
          type: 'message',
          key: `${parent.key}/#error`,
          parentKey: parent.key,
          message: listing.error,
          error: true,
        }),
      );
    else if (!listing.done)
      out.push(
        this.remember({
          type: 'loadMore',
          key: `${parent.key}/#more`,
          parentKey: parent.key,
          loaded: listing.items.length,
        }),
      );
    else if (out.length === 0)
      out.push(
        this.remember({
          type: 'message',
          key: `${parent.key}/#empty`,
          parentKey: parent.key,
          message: emptyText(parent),
          error: false,
        }),
      );
    return out;
  }

  /**
   * One object per key for the model's life, updated in place: a view knows its elements by identity and
   * drops a refresh of an element it never received, so a container listed again outside the view (a search
   * revealing its root) made the next rename or move in it stay unseen.
   */
  private remember<T extends TreeEntry>(e: T): T {
    const known = this.entries.get(e.key) as Record<string, unknown> | undefined;
    if (!known) {
      this.entries.set(e.key, e);
      return e;
    }
    for (const k of Object.keys(known)) if (!(k in e)) delete known[k];
    return Object.assign(known, e);
  }

  private fire(key: string | undefined): void {
    for (const l of this.listeners) l(key);
  }
}

function isFolderLike(item: File | Drive): boolean {
  const f = item as File;
  return (
    f.mimeType === FOLDER_MIME || (f.mimeType === SHORTCUT_MIME && f.shortcutDetails?.targetMimeType === FOLDER_MIME)
  );
}

function emptyText(parent: TreeEntry): string {
  if (parent.type === 'root' && parent.root === 'trash') return 'Trash is empty';
  if (parent.type === 'root' && parent.root === 'sharedDrives') return 'No shared drives';
  if (parent.type === 'root' && parent.root === 'search') return 'No files match: clear the search to see all files';
  return 'Empty';
}
