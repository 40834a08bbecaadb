// The store side now. The first run lists the linked folder's tree (breadth first, many folders per
// files.list query) after taking the change feed's start token; every later run reads only the change
// feed from the saved token and applies it to the mirror of the tree kept in the state, so a run with
// nothing to do costs one request. A folder that comes into the tree from elsewhere is listed then.
import { FOLDER_MIME, SHORTCUT_MIME, isWorkspaceDocument, type File } from '../../../shared/wire/storage';
import { quote, type StorageClient } from '../client';
import type { Skipped } from './localScan';
import { unfitLocalName } from './names';
import { dictionary } from '../../../shared/wire/ownKeys';
import { Sharing, type MirrorItem, type SyncState } from './state';
import { exportName, exportVersion, type ExportFormats } from './exports';

export const ITEM_FIELDS =
  'id,title,mimeType,md5Checksum,fileSize,modifiedDate,etag,parents(id),labels(trashed),exportLinks';
const LIST_FIELDS = `nextPageToken,items(${ITEM_FIELDS})`;
const CHANGE_FIELDS = `nextPageToken,newStartPageToken,items(fileId,deleted,file(${ITEM_FIELDS}))`;
/** Folder ids per files.list query (`'a' in parents or 'b' in parents …`). */
const FOLDERS_PER_QUERY = 40;

export function mirrorItem(f: File, sharing?: Sharing): MirrorItem | undefined {
  if (!f.id) return undefined;
  const m: MirrorItem = {
    id: f.id,
    title: f.title ?? '',
    parents: (f.parents ?? []).map((p) => p.id ?? '').filter((p) => p !== ''),
    folder: f.mimeType === FOLDER_MIME,
    mimeType: f.mimeType ?? 'application/octet-stream',
    md5: f.md5Checksum,
    size: f.fileSize === undefined ? undefined : Number(f.fileSize),
    // Only a workspace document's version is read (exportVersion; an update reads a file's own etag first, see
    // storeVersion.ts): at 100,000 files, 11 MB not kept.
    ...(isWorkspaceDocument(f) ? { modified: f.modifiedDate, etag: f.etag } : {}),
    ...(f.exportLinks ? { exports: Object.keys(f.exportLinks) } : {}),
  };
  return sharing ? sharing.item(m) : m;
}

/** Adds every item below the given folders to the mirror. */
async function listBelow(client: StorageClient, folders: string[], state: SyncState, signal?: AbortSignal) {
  // Each item's type and parents shared as it comes (a page's copies die young, not at the end of the listing).
  const sharing = new Sharing(state.mirror);
  let queue = folders;
  while (queue.length) {
    const next: string[] = [];
    for (let i = 0; i < queue.length; i += FOLDERS_PER_QUERY) {
      const ids = queue.slice(i, i + FOLDERS_PER_QUERY);
      const q = `(${ids.map((id) => `${quote(id)} in parents`).join(' or ')}) and trashed = false`;
      for await (const page of client.listFilePages(
        { q, maxResults: 1000, fields: LIST_FIELDS, supportsAllDrives: true, includeItemsFromAllDrives: true },
        signal,
      ))
        for (const f of page.items ?? []) {
          const m = mirrorItem(f, sharing);
          if (!m) continue;
          const known = state.mirror[m.id];
          state.mirror[m.id] = m;
          if (m.folder && !known) next.push(m.id);
        }
    }
    queue = next;
  }
}

/** The mirror's items by parent id. */
function childrenOf(state: SyncState): Map<string, MirrorItem[]> {
  const children = new Map<string, MirrorItem[]>();
  for (const m of Object.values(state.mirror))
    for (const p of m.parents) {
      const list = children.get(p) ?? [];
      list.push(m);
      children.set(p, list);
    }
  return children;
}

/** Drops mirror items no longer below the linked folder; returns folders that just came into it. */
function prune(state: SyncState, before: Set<string>): string[] {
  const children = childrenOf(state);
  const reached = new Set<string>();
  const stack = [state.storeFolderId];
  while (stack.length) {
    const id = stack.pop()!;
    for (const c of children.get(id) ?? [])
      if (!reached.has(c.id)) {
        reached.add(c.id);
        if (c.folder) stack.push(c.id);
      }
  }
  for (const id of Object.keys(state.mirror)) if (!reached.has(id)) delete state.mirror[id];
  return [...reached].filter((id) => state.mirror[id].folder && !before.has(id));
}

/**
 * Brings the mirror up to date: from the change feed when a token is saved (a token the service no
 * longer accepts falls back to a full listing), else by listing the tree. Returns how it was done.
 */
export async function refreshMirror(
  client: StorageClient,
  state: SyncState,
  signal?: AbortSignal,
): Promise<'changes' | 'full'> {
  if (state.pageToken) {
    const before = new Set(Object.keys(state.mirror));
    let token = state.pageToken;
    let changed = false;
    try {
      for (;;) {
        const page = await client.call(
          'changes.list',
          {
            pageToken: token,
            maxResults: 1000,
            includeItemsFromAllDrives: true,
            supportsAllDrives: true,
            fields: CHANGE_FIELDS,
          },
          undefined,
          { signal },
        );
        for (const c of page.items ?? []) {
          if (!c.fileId) continue;
          changed = true;
          const m = c.file && !c.deleted && !c.file.labels?.trashed ? mirrorItem(c.file) : undefined;
          if (m) state.mirror[m.id] = m;
          else delete state.mirror[c.fileId];
        }
        if (page.nextPageToken) token = page.nextPageToken;
        else {
          token = page.newStartPageToken ?? token;
          break;
        }
      }
    } catch (e) {
      if ((e as { status?: number }).status !== 400 && (e as { status?: number }).status !== 404) throw e;
      state.pageToken = undefined;
    }
    if (state.pageToken) {
      if (changed) {
        const arrived = prune(state, before);
        if (arrived.length) await listBelow(client, arrived, state, signal);
      }
      state.pageToken = token;
      return 'changes';
    }
  }
  const token = await client.startPageToken(signal);
  state.mirror = dictionary();
  await listBelow(client, [state.storeFolderId], state, signal);
  state.pageToken = token;
  return 'full';
}

export interface StoreItem {
  folder: boolean;
  id: string;
  mimeType: string;
  md5?: string;
  size?: number;
  modified?: string;
  /** Of a workspace document (its version, with `modified`); a file's is read before an update (storeVersion.ts). */
  etag?: string;
  /** A workspace document synced as its export to this type (download-only; see exports.ts). */
  export?: string;
  /** Of an export: the document's version (exportVersion), which the state keeps in place of a checksum. */
  version?: string;
}

/**
 * Paths of the mirror's items below the linked folder. A workspace document of a type in `exportFormats` is
 * at its export's name (exportName); other documents, titles a local file system cannot hold, several items
 * with one name in a folder and ignored paths are left out (and reported, except ignored ones), with
 * everything below them.
 */
export function storePaths(
  state: SyncState,
  ignore: { ignores(p: string): boolean },
  skipped: Skipped[],
  exportFormats: ExportFormats = {},
): Map<string, StoreItem> {
  const children = childrenOf(state);
  const paths = new Map<string, StoreItem>();
  const stack: { id: string; rel: string }[] = [{ id: state.storeFolderId, rel: '' }];
  /** Where each item was met first (an item with two parents inside the tree is synced there only). */
  const seen = new Map<string, string>();
  while (stack.length) {
    const { id, rel } = stack.pop()!;
    const kids = children.get(id) ?? [];
    const exportOf = (k: MirrorItem) =>
      !k.folder && isWorkspaceDocument(k) && Object.hasOwn(exportFormats, k.mimeType)
        ? exportFormats[k.mimeType]
        : undefined;
    const nameOf = (k: MirrorItem) => {
      const type = exportOf(k);
      return type ? exportName(k.title, type) : k.title;
    };
    const count = new Map<string, number>();
    for (const k of kids) count.set(nameOf(k), (count.get(nameOf(k)) ?? 0) + 1);
    for (const k of kids) {
      const name = nameOf(k);
      const p = rel ? `${rel}/${name}` : name;
      const unfit = unfitLocalName(k.title);
      if (unfit) {
        skipped.push({ path: rel ? `${rel}/${k.title}` : k.title, side: 'store', reason: unfit });
        continue;
      }
      if ((count.get(name) ?? 0) > 1) {
        skipped.push({ path: p, side: 'store', reason: `${count.get(name)} store items have this name here` });
        continue;
      }
      if (k.mimeType === SHORTCUT_MIME) {
        skipped.push({ path: p, side: 'store', reason: 'a shortcut is not followed' });
        continue;
      }
      const type = exportOf(k);
      if (!k.folder && isWorkspaceDocument(k) && !type) {
        skipped.push({
          path: p,
          side: 'store',
          reason: `a workspace document (${k.mimeType}) has no bytes to sync; choose an export format for it to sync its export`,
        });
        continue;
      }
      if (type && k.exports && !k.exports.includes(type)) {
        skipped.push({
          path: p,
          side: 'store',
          reason: `the service offers no export of this ${k.mimeType} to ${type}`,
        });
        continue;
      }
      if (ignore.ignores(k.folder ? `${p}/` : p)) continue;
      const first = seen.get(k.id);
      if (first !== undefined) {
        skipped.push({
          path: p,
          side: 'store',
          reason: `the same item as ${first} (it is in two folders), synced there`,
        });
        continue;
      }
      seen.set(k.id, p);
      // The mirror's own item (a StoreItem with a title and parents): no copy per file.
      paths.set(p, type ? { ...k, export: type, version: exportVersion(type, k.modified, k.etag), md5: undefined } : k);
      if (k.folder) stack.push({ id: k.id, rel: p });
    }
  }
  return paths;
}
