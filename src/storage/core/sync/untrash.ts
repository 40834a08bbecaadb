// A restored store-side deletion: the item taken back from the store's trash, so it keeps its id, its history
// and who it is shared with (what a user restoring from the trash gets). Only an item that comes back where it
// was, under its name, counts: one the service no longer has is gone for good; one that comes back in another
// folder or under another name is put back in the trash (it was not asked for there).
import { FOLDER_MIME, type File } from '../../../shared/wire/storage';
import type { StorageClient } from '../client';
import { StorageError } from '../errors';
import { baseName } from './names';
import { ITEM_FIELDS } from './storeScan';

export type Untrashed = { back: File } | 'gone';

export async function untrashInPlace(
  client: StorageClient,
  a: { path: string; id: string; folder: boolean },
  parentId: string | undefined,
  signal?: AbortSignal,
): Promise<Untrashed> {
  let f: File;
  try {
    f = await client.call('files.untrash', { fileId: a.id, supportsAllDrives: true, fields: ITEM_FIELDS }, undefined, {
      signal,
    });
  } catch (e) {
    if (e instanceof StorageError && e.isNotFound) return 'gone';
    throw e;
  }
  const inPlace =
    !f.labels?.trashed &&
    f.title === baseName(a.path) &&
    (f.mimeType === FOLDER_MIME) === a.folder &&
    (f.parents ?? []).some((p) => p.id === parentId);
  if (inPlace) return { back: f };
  await client.call('files.trash', { fileId: a.id, supportsAllDrives: true, fields: 'id' }, undefined, { signal });
  return 'gone';
}
