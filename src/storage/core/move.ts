// Moving items between folders (the tree's drag and drop, Move to…): add the target as a parent and drop
// the folder the item was taken from, in one files.patch, so other parents of the item are kept.
import type { File } from '../../shared/wire/storage';
import type { StorageClient } from './client';

export interface MoveItem {
  file: File;
  /** The folder the item was taken from (`root` for My files), when known. */
  from: string | undefined;
}

export type MoveOutcome =
  | { file: File; status: 'moved'; result: File }
  | { file: File; status: 'skipped'; reason: string }
  | { file: File; status: 'failed'; error: Error };

/** Moves each item into `targetFolder`; one failure does not stop the others. */
export async function moveInto(
  client: StorageClient,
  items: readonly MoveItem[],
  targetFolder: string,
  signal?: AbortSignal,
  /** Called before each item, with how many are done. */
  onItem?: (file: File, done: number) => void,
): Promise<MoveOutcome[]> {
  const outcomes: MoveOutcome[] = [];
  for (const { file, from } of items) {
    signal?.throwIfAborted();
    onItem?.(file, outcomes.length);
    if (!file.id) {
      outcomes.push({ file, status: 'skipped', reason: 'the item has no id' });
      continue;
    }
    if (from === targetFolder || file.id === targetFolder) {
      outcomes.push({
        file,
        status: 'skipped',
        reason: from === targetFolder ? 'already in that folder' : 'cannot move a folder into itself',
      });
      continue;
    }
    try {
      const result = await client.call(
        'files.patch',
        {
          fileId: file.id,
          addParents: targetFolder,
          removeParents: sourceParent(file, from, targetFolder),
          supportsAllDrives: true,
        },
        {},
        { signal },
      );
      outcomes.push({ file, status: 'moved', result });
    } catch (e) {
      if (signal?.aborted) throw e;
      outcomes.push({ file, status: 'failed', error: e instanceof Error ? e : new Error(String(e)) });
    }
  }
  return outcomes;
}

/**
 * The parent ids to remove: My files is named by its real id when the listing gave it, else by the `root`
 * alias. An item not listed under a folder (Starred, Recent, a search) leaves every folder it is in: Move
 * to… means it ends up only in the target.
 */
function sourceParent(file: File, from: string | undefined, target: string): string | undefined {
  if (from === undefined) {
    const all = (file.parents ?? []).map((p) => p.id).filter((id): id is string => !!id && id !== target);
    return all.length ? all.join(',') : undefined;
  }
  if (from !== 'root') return from;
  return file.parents?.find((p) => p.isRoot)?.id ?? 'root';
}
