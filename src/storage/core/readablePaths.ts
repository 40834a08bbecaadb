// The readable `store:` path of an item the tree lists outside its folders (Starred, Recent, a search):
// `/<id>/…` becomes the item's folder path under My files, a shared drive or Shared with me, found by
// walking up its parents, so the breadcrumbs read `My files › Reports › q1.csv` wherever the user found
// the file. Each segment is the name the file system resolves (unique among its folder's children), so
// the path still names the item after a reload, when the pin (StoreFs.pin) is gone. An item none of
// whose folders leads to a root the user sees (shared from inside a folder that was not) keeps its id.
import type { File } from '../../shared/wire/storage';
import { isDirectory } from './storeItems';
import type { StoreLookup } from './storeLookup';
import { splitPath } from './storePaths';
import { isVirtualRoot, MY_FILES, SHARED_DRIVES, SHARED_WITH_ME } from './storeRoots';

/** Deeper than any real folder tree; stops a walk through a parent cycle the service should never have. */
const MAX_DEPTH = 100;

type Lookup = Pick<StoreLookup, 'fetch' | 'list'>;

/** `path` with its leading `/<id>` replaced by that item's folder path; undefined when it has none. */
export async function readablePath(lookup: Lookup, path: string): Promise<string | undefined> {
  const [first, ...rest] = splitPath(path);
  if (first === undefined || first === MY_FILES || isVirtualRoot(first)) return path;
  const anchor = await lookup.fetch(first).catch(() => undefined);
  if (!anchor) return undefined;
  const base = await folderPathOf(lookup, anchor);
  // `/<fileId>/<name>`: the name only labels the file itself, which the folder path already ends with.
  return base && [base, ...(isDirectory(anchor) ? rest : rest.slice(1))].join('/');
}

async function folderPathOf(lookup: Lookup, item: File): Promise<string | undefined> {
  const chain = [item];
  for (;;) {
    const top = chain[0];
    const parents = top.parents ?? [];
    if (parents.some((p) => p.isRoot)) return namesFrom(lookup, 'root', MY_FILES, chain);
    // A shared drive's top folder has the drive's id and no parents.
    if (top.driveId && top.id === top.driveId) return namesFrom(lookup, SHARED_DRIVES, SHARED_DRIVES, chain);
    let next: File | undefined;
    for (const p of parents) {
      if (chain.some((c) => c.id === p.id)) continue;
      // A folder the user cannot open (or in the trash) is not on the way.
      next = await lookup.fetch(p.id).catch(() => undefined);
      if (next) break;
    }
    if (!next) return namesFrom(lookup, SHARED_WITH_ME, SHARED_WITH_ME, chain);
    if (chain.length >= MAX_DEPTH) return undefined;
    chain.unshift(next);
  }
}

/** `/<root>/<name>/…` with each item named as its container lists it; undefined when one is not listed there. */
async function namesFrom(lookup: Lookup, container: string, root: string, chain: File[]): Promise<string | undefined> {
  const names = [root];
  for (const f of chain) {
    const name = (await lookup.list(container)).names.get(f.id ?? '');
    if (name === undefined) return undefined;
    names.push(name);
    container = f.id!;
  }
  return `/${names.join('/')}`;
}
