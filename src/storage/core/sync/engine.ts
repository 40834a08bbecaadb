// One sync run of a link: read the state, bring the store's side up to date (change feed, or a full
// listing the first time), walk the local side, plan, stop if the plan deletes more than allowed, apply.
// The CLI and the editor both run this; it knows nothing of either.
import { randomUUID } from 'node:crypto';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import type { StorageClient } from '../client';
import { applyPlan, type SyncEvent } from './apply';
import type { ExportFormats } from './exports';
import { settleChoices, withExclusions, type PlanChoice } from './choices';
import { scanLocal, type Skipped } from './localScan';
import { recordView, type Action, type Plan, type SyncMode } from './model';
import { linkOverlap } from './overlap';
import { planSync } from './plan';
import { loadState, saveState, shareEntries, STATE_DIR, upgradeFileKeys } from './state';
import { StateWriter } from './stateWriter';
import { refreshMirror, storePaths } from './storeScan';

export const IGNORE_FILE = '.storeignore';

export interface SyncOptions {
  client: StorageClient;
  localDir: string;
  /** A folder id (not `root`: resolve it first, see resolveStoreFolder). */
  storeFolderId: string;
  mode?: SyncMode;
  dryRun?: boolean;
  /** Stop without deleting when the plan deletes more than this percentage of the synced files. Default 50. */
  maxDeletePercent?: number;
  /**
   * Workspace documents to sync as exports: document type → export type (see exports.ts; exportFormatsFrom
   * reads what a user wrote). Documents of other types are skipped and reported. Default: none.
   */
  exportFormats?: ExportFormats;
  /** Transfers at a time. Default 4. */
  concurrency?: number;
  now?: () => Date;
  signal?: AbortSignal;
  /** Each action as it is done (or, in a dry run, planned), and each item skipped. */
  onEvent?: (e: SyncEvent) => void;
  /** Relative paths (`/`-separated) left out of the link on both sides, each with everything below it. */
  exclude?: readonly string[];
  /** How to settle the conflict at a path (a reviewed plan); a conflict without a choice keeps both. */
  choices?: ReadonlyMap<string, PlanChoice>;
  /** The plan (choices applied) once it is made, before anything of it is applied. */
  onPlan?: (plan: Plan) => void;
}

export interface SyncSummary {
  mode: SyncMode;
  dryRun: boolean;
  /** How the store's side was read: the change feed, or a full listing. */
  storeRead: 'changes' | 'full';
  counts: Partial<Record<Action['kind'], number>>;
  conflicts: number;
  skipped: number;
  /** Actions left for the next run because the item changed during this one (the sides are not the same yet). */
  deferred: number;
  errors: number;
  deletes: number;
  /** The max-delete guard stopped the run before anything was changed. */
  stoppedByMaxDelete: boolean;
}

export interface SyncResult {
  summary: SyncSummary;
  plan: Plan;
}

export async function syncFolder(opts: SyncOptions): Promise<SyncResult> {
  const mode = opts.mode ?? 'two-way';
  const root = path.resolve(opts.localDir);
  const st = await fsp.stat(root, { bigint: true }).catch(() => undefined);
  if (!st) throw new Error(`${opts.localDir}: no such folder; create it first`);
  if (!st.isDirectory()) throw new Error(`${opts.localDir} is a file, not a folder`);
  const overlap = await linkOverlap(root, opts.storeFolderId);
  if (overlap) throw new Error(overlap);
  const emit = opts.onEvent ?? (() => undefined);
  const state = await loadState(root, opts.storeFolderId);
  upgradeFileKeys(state, st.dev);
  if (!opts.dryRun) await fsp.rm(path.join(root, STATE_DIR, 'tmp'), { recursive: true, force: true });

  const ignoreText = await fsp.readFile(path.join(root, IGNORE_FILE), 'utf8').catch(() => '');
  // The ignore package keeps every path it was asked about: with no rules, it is not asked (10 MB at 100,000 files).
  const rules: Pick<Ignore, 'ignores'> = /^\s*[^#\s]/m.test(ignoreText)
    ? ignore().add(ignoreText)
    : { ignores: () => false };
  const skip = withExclusions(rules, opts.exclude);

  const tokenBefore = state.pageToken;
  const storeRead = await refreshMirror(opts.client, state, opts.signal);
  // A full listing shared its items' strings as they came; the entries now take theirs.
  if (storeRead === 'full') shareEntries(state);
  // A run with nothing new on the store writes nothing here (a no-op run costs a walk and one request).
  const storeMoved = storeRead === 'full' || state.pageToken !== tokenBefore;
  if (!opts.dryRun && storeMoved) await saveState(root, state);
  const skipped: Skipped[] = [];
  const storeSkipped: Skipped[] = [];
  const store = storePaths(state, skip, storeSkipped, opts.exportFormats);
  // Download mode reads the checksum of every local file: a conflict copy a stopped run left is known by it.
  const storeAt = mode === 'download' ? undefined : (rel: string) => store.get(rel);
  const local = await scanLocal(root, state.base, skip, skipped, opts.signal, storeAt);
  skipped.push(...storeSkipped);
  // The plan reads the state's entries and changes none (findRenames moves its own copy of the index).
  const listings = { base: state.base, local, store };
  const made = planSync(listings, { mode, now: (opts.now ?? (() => new Date()))(), skipped });
  const plan: Plan = {
    ...made,
    actions: settleChoices(made, mode, opts.choices, { base: recordView(state.base), local, store }),
  };
  opts.onPlan?.(plan);
  for (const s of plan.skipped) emit({ action: 'skip', path: s.path, reason: `${s.side}: ${s.reason}` });

  const summary: SyncSummary = {
    mode,
    dryRun: !!opts.dryRun,
    storeRead,
    counts: {},
    conflicts: 0,
    skipped: plan.skipped.length,
    deferred: 0,
    errors: 0,
    deletes: plan.deletes,
    stoppedByMaxDelete: false,
  };
  const count = (a: Action) => {
    summary.counts[a.kind] = (summary.counts[a.kind] ?? 0) + 1;
    if (a.kind === 'conflict') summary.conflicts++;
  };
  const limit = opts.maxDeletePercent ?? 50;
  if (plan.baseFiles > 0 && (plan.deletes * 100) / plan.baseFiles > limit) {
    summary.stoppedByMaxDelete = true;
    if (opts.dryRun) for (const a of plan.actions) planned(a, emit);
    for (const a of plan.actions) count(a);
    return { summary, plan };
  }
  if (opts.dryRun) {
    for (const a of plan.actions) {
      planned(a, emit);
      count(a);
    }
    return { summary, plan };
  }

  if (!plan.actions.length) {
    // Only entries to record (a first run over equal sides: 100,000 of them): the listings go before the state
    // takes the entries, so the two are never held at once.
    local.clear();
    store.clear();
  }
  for (const [from, to] of plan.settled)
    for (const [p, e] of Object.entries(state.base))
      if (p === from || p.startsWith(`${from}/`)) {
        delete state.base[p];
        state.base[to + p.slice(from.length)] = e;
      }
  const recorded = plan.records.size;
  for (const [p, e] of plan.records) {
    if (e) state.base[p] = e;
    else delete state.base[p];
  }
  // The state holds them now (a caller reads the plan's actions, never its records).
  plan.records.clear();
  const writer = new StateWriter(root, state);
  if (!plan.actions.length) {
    if (recorded || plan.settled.length) await writer.save();
    return { summary, plan };
  }
  await writer.save();
  let applied = false;
  try {
    summary.errors = await applyPlan(
      {
        client: opts.client,
        root,
        state,
        writer,
        local: listings.local,
        store: listings.store,
        concurrency: opts.concurrency ?? 4,
        runId: `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}`,
        signal: opts.signal,
        onEvent: (e) => {
          if (e.action === 'skip') {
            summary.skipped++;
            if (e.deferred) summary.deferred++;
          } else if (e.action !== 'error') {
            summary.counts[e.action] = (summary.counts[e.action] ?? 0) + 1;
            if (e.action === 'conflict') summary.conflicts++;
          }
          emit(e);
        },
      },
      plan.actions,
    );
    applied = true;
  } finally {
    // What was done before a stop (a cancel, a lost network) is kept too; the stop's own error wins.
    if (applied) await writer.saveIfChanged();
    else await writer.saveIfChanged().catch(() => undefined);
  }
  return { summary, plan };
}

function planned(a: Action, emit: (e: SyncEvent) => void): void {
  if (a.kind === 'rename-local' || a.kind === 'rename-store') emit({ action: a.kind, path: a.from, to: a.to });
  else if (a.kind === 'conflict') emit({ action: a.kind, path: a.path, to: a.copy });
  else
    emit({
      action: a.kind,
      path: a.path,
      ...('size' in a ? { bytes: a.size } : {}),
      ...('export' in a && a.export ? { export: a.export } : {}),
    });
}
