// The readable first segments of `store:` paths: `My files`, `Shared drives`, `Shared with me` and
// `Trash`, as the tree names its roots, so a file opened from the tree reads `My files › Reports › q1.csv`
// in the breadcrumbs. Ids are long runs of letters, digits, `-` and `_` (never a space, never a word as
// short as `Trash`), so an alias cannot be mistaken for an id. `My files` is the `root` folder; the
// others are not folders on the service: the file system presents them as read-only folders listing
// the shared drives, the items shared with the user, and what the user put in the trash.
import { FOLDER_MIME, type File } from '../../shared/wire/storage';
import type { StorageClient } from './client';

export const MY_FILES = 'My files';
export const SHARED_DRIVES = 'Shared drives';
export const SHARED_WITH_ME = 'Shared with me';
export const TRASH = 'Trash';
/** `/`: the three roots, so the first breadcrumb's picker lists them. */
export const TOP = '/';

/** The folder id a first path segment stands for: `root` for My files, the segment itself otherwise. */
export function aliasTarget(segment: string): string {
  return segment === MY_FILES ? 'root' : segment;
}

/** Shared drives and Shared with me: listings of the service, not folders one can add to or rename. */
export function isVirtualRoot(id: string | undefined): boolean {
  return id === SHARED_DRIVES || id === SHARED_WITH_ME || id === TRASH || id === TOP;
}

export function virtualRoot(id: string): File {
  return {
    id,
    title: id,
    mimeType: FOLDER_MIME,
    capabilities: { canAddChildren: false, canRename: false, canTrash: false, canDelete: false, canEdit: false },
  };
}

/**
 * The children of a virtual root, as folders and files the rest of the file system handles. `fields` is the
 * listing's, `rootFields` the root folder's (the same the file system's stat asks for: one request serves both).
 */
export async function listVirtualRoot(
  client: StorageClient,
  id: string,
  fields: string,
  rootFields: string,
): Promise<File[]> {
  if (id === TOP) {
    const root = await client.rootFolder(rootFields);
    return [{ ...root, title: MY_FILES }, virtualRoot(SHARED_DRIVES), virtualRoot(SHARED_WITH_ME), virtualRoot(TRASH)];
  }
  if (id === SHARED_WITH_ME)
    return client.listAllFiles({ q: 'sharedWithMe = true and trashed = false', maxResults: 1000, fields });
  // What was trashed itself, as the tree's Trash lists it; what was trashed with a folder is below it.
  if (id === TRASH)
    return (await client.listAllFiles({ q: 'trashed = true', maxResults: 1000, fields })).filter(
      (f) => f.explicitlyTrashed !== false,
    );
  const drives = [];
  let pageToken: string | undefined;
  do {
    const page = await client.call('drives.list', { maxResults: 100, pageToken });
    drives.push(...(page.items ?? []));
    pageToken = page.nextPageToken;
  } while (pageToken);
  // A shared drive's id is also the id of its top folder, which files.get and `in parents` accept.
  return drives.map((d) => ({
    id: d.id,
    title: d.name,
    mimeType: FOLDER_MIME,
    driveId: d.id,
    capabilities: { canAddChildren: d.capabilities?.canAddChildren ?? true },
  }));
}
