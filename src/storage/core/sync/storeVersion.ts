// The version of a store item an update replaces. The state keeps no etag per file (at 100,000 files, 5 MB of
// them): before an update the item is read again, its content, name, place and trash state must still be what
// the listing saw, and the update then names the item's version of that moment (If-Match), so an edit made on
// the store since the listing is never overwritten, not even one made between this read and the update.
import type { StorageClient } from '../client';
import { StorageError } from '../errors';
import type { MirrorItem } from './state';

/** The item's etag now when it is still as listed; 'changed' when it is not (or is gone). */
export async function versionIfUnchanged(
  client: StorageClient,
  listed: Pick<MirrorItem, 'id' | 'md5' | 'title' | 'parents'>,
  signal?: AbortSignal,
): Promise<{ etag?: string } | 'changed'> {
  const now = await client
    .getFile(listed.id, { fields: 'md5Checksum,title,parents(id),labels(trashed),etag' }, signal)
    .catch((e: unknown) => {
      if (e instanceof StorageError && e.status === 404) return undefined;
      throw e;
    });
  if (!now || now.labels?.trashed || now.md5Checksum !== listed.md5 || now.title !== listed.title) return 'changed';
  const parents = (now.parents ?? []).map((p) => p.id ?? '');
  if (parents.length !== listed.parents.length || parents.some((p) => !listed.parents.includes(p))) return 'changed';
  return { etag: now.etag };
}
