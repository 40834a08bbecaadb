// Where a tree node lives as a `store:` path: its folder path from the root the user browsed, so the
// editor's breadcrumbs read `My files › Reports › 2024 › q1.csv` rather than `<file id> › q1.csv`.
// The root is a path segment the file system resolves (storeRoots.ts) because breadcrumbs take their
// segments from the URI path itself: a `resourceLabelFormatters` contribution only rewrites labels
// (tab description, hover) from `${path}`-style templates and could not make `root` read "My files".
// A file in several folders gets the path of the folder it was opened from. Names come from what the
// tree listed, made unique like the file system's (`~id` hints); the opener pins the path to the
// file's id (StoreFs.pin), so opening needs no listing beyond the tree's.
import type { Drive, File } from '../../shared/wire/storage';
import { isDirectory } from './storeItems';
import { childNames, displayName, filePath } from './storePaths';
import { MY_FILES, SHARED_DRIVES, SHARED_WITH_ME, TRASH } from './storeRoots';
import type { StorageTreeModel, TreeEntry } from './tree';
import type { RootKind } from './treePresentation';

const ALIASES: Partial<Record<RootKind, string>> = {
  myFiles: MY_FILES,
  sharedDrives: SHARED_DRIVES,
  sharedWithMe: SHARED_WITH_ME,
  trash: TRASH,
};

type Node = Extract<TreeEntry, { type: 'file' | 'drive' }>;

/**
 * The `store:` path of a file, folder or shared-drive node. Starred, Recent and Search are not folders:
 * below them the path starts at the id of the item listed there (a file listed there on its own opens
 * as `/<id>/<name>`), which StoreFs.readablePath turns into its folder path. Undefined for roots,
 * messages and "Load more".
 */
export function storePathOf(
  model: Pick<StorageTreeModel, 'entry' | 'loadedItems'>,
  e: TreeEntry | undefined,
): string | undefined {
  if (e?.type !== 'file' && e?.type !== 'drive') return undefined;
  const names: string[] = [];
  let node: Node = e;
  for (;;) {
    const parent = model.entry(node.parentKey);
    if (!parent) return undefined;
    if (parent.type === 'root' && !ALIASES[parent.root]) {
      if (node.type !== 'file' || !node.file.id) return undefined;
      return names.length ? `/${node.file.id}/${names.join('/')}` : filePath(node.file.id, node.file.title);
    }
    names.unshift(nameIn(model, parent, node));
    if (parent.type === 'root') return `/${ALIASES[parent.root]}/${names.join('/')}`;
    if (parent.type !== 'file' && parent.type !== 'drive') return undefined;
    node = parent;
  }
}

/** The node's unique name among what its container listed (the file system names them the same way). */
function nameIn(model: Pick<StorageTreeModel, 'loadedItems'>, container: TreeEntry, node: Node): string {
  const drives = container.type === 'root' && container.root === 'sharedDrives';
  const siblings = model
    .loadedItems(container.key)
    .map((i) =>
      drives
        ? { id: i.id, title: (i as Drive).name, folder: true }
        : { id: i.id, title: (i as File).title, folder: isDirectory(i as File) },
    );
  const id = node.type === 'file' ? node.file.id : node.drive.id;
  return childNames(siblings).get(id ?? '') ?? displayName(node.type === 'file' ? node.file.title : node.drive.name);
}
