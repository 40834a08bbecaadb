// What a reviewed plan changes (the editor's plan view): paths the user left out of the link, a choice
// per conflict, and deletions turned back. A conflict settled one way becomes the transfer of that side's
// version over the other (the upload checks the store item is as the listing saw, the download that the
// disk file is as scanned, so an edit made meanwhile is still never overwritten); "keep both" is the plain
// conflict. A restored deletion becomes the transfers that put the other side's copy back where it was
// deleted (what Drive for desktop offers when many files go at once): nothing is deleted, and the link
// keeps the item.
import type { LocalItem } from './localScan';
import { allowed, isDeletion, type Action, type BaseView, type Deletion, type Plan, type SyncMode } from './model';
import { within } from './names';
import type { StoreItem } from './storeScan';

export type ConflictChoice = 'keep-both' | 'keep-local' | 'keep-store';
/** A conflict's choice, or `restore` for a deletion: the other side's copy comes back instead. */
export type PlanChoice = ConflictChoice | 'restore';

/** The ignore rules with the excluded paths (each with everything below it) added. */
export function withExclusions(
  rules: { ignores(p: string): boolean },
  exclude: readonly string[] | undefined,
): { ignores(p: string): boolean } {
  const excluded = (exclude ?? []).map((p) => p.replace(/^\/+|\/+$/g, '')).filter((p) => p !== '');
  if (!excluded.length) return rules;
  return {
    ignores: (p) => {
      const rel = p.replace(/\/$/, '');
      return excluded.some((x) => within(rel, x)) || rules.ignores(p);
    },
  };
}

/** The plan's actions with each choice made: chosen conflicts as transfers, restored deletions as the way back. */
export function settleChoices(
  plan: Plan,
  mode: SyncMode,
  choices: ReadonlyMap<string, PlanChoice> | undefined,
  { base, local, store }: { base: BaseView; local: Map<string, LocalItem>; store: Map<string, StoreItem> },
): Action[] {
  if (!choices?.size) return plan.actions;
  return plan.actions.flatMap((a): Action[] => {
    const choice = 'path' in a ? choices.get(a.path) : undefined;
    if (isDeletion(a)) return choice === 'restore' && restorable(mode, a.kind) ? restoreOf(a, base, local, store) : [a];
    if (a.kind !== 'conflict') return [a];
    const l = local.get(a.path);
    const r = store.get(a.path);
    if (!l || !r) return [a];
    if (choice === 'keep-local' && allowed(a.mode, 'upload'))
      return [{ kind: 'upload', path: a.path, id: r.id, size: l.lsize, md5: l.lmd5 ?? '' }];
    if (choice === 'keep-store' && allowed(a.mode, 'download'))
      return [{ kind: 'download', path: a.path, id: r.id, size: r.size ?? 0, md5: r.md5 ?? '' }];
    return [a];
  });
}

/** Whether the mode lets a deletion be turned back (the way back is a transfer the other way). */
export function restorable(mode: SyncMode, kind: 'delete-store' | 'delete-local'): boolean {
  return allowed(mode, kind === 'delete-store' ? 'download' : 'upload');
}

/**
 * A deleted item (and, for a folder, everything below it) brought back from the side that still has it: the
 * store's items downloaded where the local ones were deleted; where the store's were deleted, each synced one
 * taken back from the store's trash (the same item), a local one never synced uploaded as new. Folders first
 * (the run makes folders before it transfers, shallow first).
 */
function restoreOf(
  a: Deletion,
  base: BaseView,
  local: Map<string, LocalItem>,
  store: Map<string, StoreItem>,
): Action[] {
  const below = (p: string) => within(p, a.path);
  const out: Action[] = [];
  if (a.kind === 'delete-store') {
    for (const [p, r] of store)
      if (below(p))
        out.push(
          r.folder
            ? { kind: 'mkdir-local', path: p }
            : { kind: 'download', path: p, id: r.id, size: r.size ?? 0, md5: r.md5 ?? '', ...exportOf(r) },
        );
  } else {
    for (const [p, l] of local) {
      if (!below(p)) continue;
      const id = base.get(p)?.id;
      out.push(
        id
          ? { kind: 'untrash-store', path: p, id, folder: l.folder }
          : l.folder
            ? { kind: 'mkdir-store', path: p }
            : { kind: 'upload', path: p, size: l.lsize, md5: l.lmd5 ?? '' },
      );
    }
  }
  return out;
}

const exportOf = (r: StoreItem): { export?: string } => (r.export ? { export: r.export } : {});
