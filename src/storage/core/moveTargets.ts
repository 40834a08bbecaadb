// What the Move to… picker offers, level by level: at the top My files and the shared drives; inside a
// folder, "move here", the way back up, and its sub-folders. Only real folders are offered (a shortcut
// cannot be a parent), and never the folders being moved: a folder cannot go into itself.
import { FOLDER_MIME } from '../../shared/wire/storage';
import { quote, type StorageClient } from './client';
import { displayName } from './storePaths';
import { MY_FILES } from './storeRoots';

/** A folder the user browsed into. */
export interface Place {
  /** `root` for My files; a shared drive's id is the id of its top folder. */
  id: string;
  name: string;
  /** False where the user may not add items (a viewer's folder). */
  canAdd: boolean;
  drive?: boolean;
}

export type TargetOption = { kind: 'here'; place: Place } | { kind: 'up' } | { kind: 'open'; place: Place };

/** The options at the end of `trail` (empty: the top level). */
export async function targetOptions(
  client: StorageClient,
  trail: readonly Place[],
  exclude: ReadonlySet<string>,
  signal?: AbortSignal,
): Promise<TargetOption[]> {
  const current = trail.at(-1);
  if (!current) {
    const out: TargetOption[] = [{ kind: 'open', place: { id: 'root', name: MY_FILES, canAdd: true } }];
    let pageToken: string | undefined;
    do {
      const page = await client.call('drives.list', { maxResults: 100, pageToken }, undefined, { signal });
      for (const d of page.items ?? [])
        if (d.id)
          out.push({
            kind: 'open',
            place: {
              id: d.id,
              name: displayName(d.name),
              canAdd: d.capabilities?.canAddChildren !== false,
              drive: true,
            },
          });
      pageToken = page.nextPageToken;
    } while (pageToken);
    return out;
  }
  const folders = await client.listAllFiles(
    {
      q: `${quote(current.id)} in parents and mimeType = '${FOLDER_MIME}' and trashed = false`,
      orderBy: 'title_natural',
      maxResults: 1000,
      fields: 'nextPageToken,items(id,title,capabilities(canAddChildren))',
      supportsAllDrives: true,
      includeItemsFromAllDrives: true,
    },
    signal,
  );
  const out: TargetOption[] = current.canAdd ? [{ kind: 'here', place: current }] : [];
  out.push({ kind: 'up' });
  for (const f of folders)
    if (f.id && !exclude.has(f.id))
      out.push({
        kind: 'open',
        place: { id: f.id, name: displayName(f.title), canAdd: f.capabilities?.canAddChildren !== false },
      });
  return out;
}
