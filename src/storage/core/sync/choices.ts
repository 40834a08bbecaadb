// What a reviewed plan changes (the editor's plan view): paths the user left out of the link, and a
// choice per conflict. A conflict settled one way becomes the transfer of that side's version over the
// other (the upload checks the store item is as the listing saw, the download that the disk file is as
// scanned, so an edit made meanwhile is still never overwritten); "keep both" is the plain conflict.
import type { LocalItem } from './localScan';
import { allowed, type Action, type Plan } from './model';
import { within } from './names';
import type { StoreItem } from './storeScan';

export type ConflictChoice = 'keep-both' | 'keep-local' | 'keep-store';

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

/** The plan's actions with each chosen conflict turned into the transfer the choice means. */
export function settleConflicts(
  plan: Plan,
  choices: ReadonlyMap<string, ConflictChoice> | undefined,
  local: Map<string, LocalItem>,
  store: Map<string, StoreItem>,
): Action[] {
  if (!choices?.size) return plan.actions;
  return plan.actions.map((a): Action => {
    if (a.kind !== 'conflict') return a;
    const l = local.get(a.path);
    const r = store.get(a.path);
    const choice = choices.get(a.path);
    if (!l || !r) return a;
    if (choice === 'keep-local' && allowed(a.mode, 'upload'))
      return { kind: 'upload', path: a.path, id: r.id, size: l.lsize, md5: l.lmd5 ?? '' };
    if (choice === 'keep-store' && allowed(a.mode, 'download'))
      return { kind: 'download', path: a.path, id: r.id, size: r.size ?? 0, md5: r.md5 ?? '' };
    return a;
  });
}
