// One link's runs in the editor: one at a time (a change seen during a run asks for one more after it),
// started by the file watcher (debounced), the poll of the change feed, the store's change feed, Sync Now,
// or the confirmed plan. Each run is recorded in the workspace state before it starts and after it ends,
// so a window reloaded in the middle of one finds it unfinished and runs again (the engine's state makes
// that second run finish the job). Progress goes to the status bar (n of m) and, when the user started the
// run, to a cancellable notification whose Cancel aborts the run.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { StorageClient } from '../../core/client';
import { StorageError } from '../../core/errors';
import type { SyncEvent } from '../../core/sync/apply';
import type { PlanChoice } from '../../core/sync/choices';
import { syncFolder, type SyncResult } from '../../core/sync/engine';
import type { LinkPhase, LinkStatus, SyncLink } from '../../core/sync/links';
import type { Plan } from '../../core/sync/model';
import { loadState, STATE_DIR, statePath } from '../../core/sync/state';
import { storePaths } from '../../core/sync/storeScan';

/** What the workspace state keeps per link between windows. */
export interface RunRecord {
  started?: string;
  finished?: string;
  paused?: boolean;
  /** Why the last run stopped short, and what to do about it. */
  failure?: { message: string; fix: 'signIn' | 'retry' | 'settings' | 'state' };
  /** Files both sides changed: the file and its conflict copy (relative paths). */
  conflicts: { path: string; copy: string }[];
  /** Items the last run could not do, or had to leave out. */
  problems: { path: string; reason: string; kind: 'error' | 'skipped' }[];
  summary?: string;
}

export interface RunOptions {
  /** The user asked for it: a cancellable notification shows it. */
  interactive?: boolean;
  choices?: ReadonlyMap<string, PlanChoice>;
  maxDeletePercent?: number;
}

export interface LinkHost {
  client(): Promise<StorageClient>;
  record(key: string): RunRecord;
  saveRecord(key: string, r: RunRecord): Thenable<void>;
  /** The max-delete guard stopped a run: the plan goes to the plan view for review. */
  guardStopped(runner: LinkRunner, plan: Plan): void;
  changed(): void;
  log: vscode.LogOutputChannel;
  pollSeconds(): number;
  maxDeletePercent(): number;
  /** Test seam (ExtensionMode.Test only): abort the next run after this many events. */
  abortAfter?: { events: number; key: string };
}

const DEBOUNCE_MS = 1000;
/** How long after a run the watcher's events for what it wrote are taken as its own. */
const OWN_WRITE_MS = 3000;
/** Events of a run that write in the local folder. */
const LOCAL_WRITES = new Set<SyncEvent['action']>([
  'download',
  'mkdir-local',
  'rename-local',
  'delete-local',
  'conflict',
]);

export class LinkRunner implements vscode.Disposable {
  phase: LinkPhase;
  done = 0;
  total = 0;
  /** Local changes the watcher saw since the last run started. */
  pending = 0;
  private running: Promise<void> | undefined;
  private again: RunOptions | undefined;
  private abort: AbortController | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private debounce: NodeJS.Timeout | undefined;
  /** Local paths the current or last run wrote, until when their watcher events are its own. */
  private readonly ownWrites = new Map<string, { ended: number; until: number }>();
  private poll: NodeJS.Timeout | undefined;

  constructor(
    readonly key: string,
    readonly link: SyncLink,
    readonly localDir: string,
    readonly label: string,
    private readonly host: LinkHost,
  ) {
    const r = host.record(key);
    this.phase = r.paused
      ? 'paused'
      : !this.firstRunDone()
        ? 'plan'
        : r.failure
          ? 'error'
          : this.interrupted()
            ? 'stopped'
            : 'idle';
  }

  get record(): RunRecord {
    return this.host.record(this.key);
  }

  status(): LinkStatus {
    const r = this.record;
    return {
      phase: this.phase,
      done: this.done,
      total: this.total,
      conflicts: r.conflicts.length,
      errors: r.problems.filter((p) => p.kind === 'error').length,
    };
  }

  /** The engine has a state for this link: the first run (the reviewed plan) has been applied. */
  firstRunDone(): boolean {
    return fs.existsSync(statePath(this.localDir, this.link.storeFolderId));
  }

  /** A run started and never recorded its end: the window went away in the middle of it. */
  interrupted(): boolean {
    const r = this.record;
    return !!r.started && (!r.finished || r.finished < r.started);
  }

  /** Watches the folder and polls the store; local changes and the poll start runs. */
  start(): void {
    if (this.disposables.length) return;
    const watcher = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(vscode.Uri.file(this.localDir), '**/*'),
    );
    const seen = (uri: vscode.Uri) => {
      const rel = path.relative(this.localDir, uri.fsPath).split(path.sep);
      if (rel[0] === STATE_DIR || rel[0] === '..') return;
      // What a run wrote itself comes back from the watcher a moment later: not a change to sync (a file
      // written again since the run ended is).
      const own = this.ownWrites.get(rel.join('/'));
      if (own && own.until > Date.now()) {
        const mtime = fs.statSync(uri.fsPath, { throwIfNoEntry: false })?.mtimeMs;
        if (mtime === undefined || mtime <= own.ended) return;
      }
      this.pending++;
      this.host.changed();
      this.soon();
    };
    this.disposables.push(watcher, watcher.onDidCreate(seen), watcher.onDidChange(seen), watcher.onDidDelete(seen));
    this.restartPoll();
  }

  restartPoll(): void {
    if (this.poll) clearInterval(this.poll);
    this.poll = undefined;
    const seconds = this.host.pollSeconds();
    if (seconds > 0) this.poll = setInterval(() => this.soon(0), seconds * 1000);
  }

  /** A run shortly (changes come in bursts: one run after the last of them). */
  soon(delayMs = DEBOUNCE_MS): void {
    if (this.phase === 'paused' || this.phase === 'plan') return;
    if (this.debounce) clearTimeout(this.debounce);
    this.debounce = setTimeout(() => {
      this.debounce = undefined;
      void this.run();
    }, delayMs);
  }

  /** Runs now, or once more after the run in progress. Resolves when no run is left to do. */
  run(opts: RunOptions = {}): Promise<void> {
    if (this.phase === 'paused') return Promise.resolve();
    if (this.running) {
      this.again = { ...this.again, ...opts };
      return this.running;
    }
    this.running = (async () => {
      let next: RunOptions | undefined = opts;
      while (next) {
        await this.once(next);
        next = this.again;
        this.again = undefined;
        if (this.phase === 'paused') break;
      }
    })().finally(() => {
      this.running = undefined;
      this.host.changed();
    });
    return this.running;
  }

  /** Resolves once no run is in progress or waiting. */
  async idle(): Promise<void> {
    while (this.running || this.debounce) {
      if (this.running) await this.running;
      else await new Promise((r) => setTimeout(r, 50));
    }
  }

  async pause(): Promise<void> {
    await this.host.saveRecord(this.key, { ...this.record, paused: true });
    this.phase = 'paused';
    this.abort?.abort();
    this.host.changed();
    await this.running?.catch(() => undefined);
  }

  async resume(): Promise<void> {
    await this.host.saveRecord(this.key, { ...this.record, paused: false });
    this.phase = this.firstRunDone() ? 'idle' : 'plan';
    this.host.changed();
    if (this.phase === 'idle') await this.run({ interactive: true });
  }

  private async once(opts: RunOptions): Promise<void> {
    const abort = (this.abort = new AbortController());
    this.phase = 'running';
    this.done = 0;
    this.total = 0;
    this.pending = 0;
    await this.host.saveRecord(this.key, { ...this.record, started: new Date().toISOString() });
    this.host.changed();
    const events: SyncEvent[] = [];
    const limit = __TEST_SEAMS__ && this.host.abortAfter?.key === this.key ? this.host.abortAfter : undefined;
    if (__TEST_SEAMS__ && limit) this.host.abortAfter = undefined;
    const work = async (signal: AbortSignal, report?: (m: string) => void): Promise<SyncResult> =>
      syncFolder({
        client: await this.host.client(),
        localDir: this.localDir,
        storeFolderId: this.link.storeFolderId,
        mode: this.link.mode,
        exclude: this.link.exclude,
        choices: opts.choices,
        maxDeletePercent: opts.maxDeletePercent ?? this.host.maxDeletePercent(),
        signal,
        onPlan: (p) => {
          this.total = p.actions.length;
          this.host.changed();
        },
        onEvent: (e) => {
          events.push(e);
          if (LOCAL_WRITES.has(e.action))
            for (const p of [e.path, e.to]) if (p) this.ownWrites.set(p, { ended: Infinity, until: Infinity });
          if (e.action !== 'skip' || e.deferred) this.done++;
          report?.(vscode.l10n.t('{0} of {1}: {2}', Math.min(this.done, this.total), this.total, e.path));
          this.host.changed();
          if (__TEST_SEAMS__ && limit && events.length >= limit.events) abort.abort();
        },
      });
    let result: SyncResult | undefined;
    let failure: RunRecord['failure'];
    try {
      result = opts.interactive
        ? await vscode.window.withProgress(
            {
              location: vscode.ProgressLocation.Notification,
              title: vscode.l10n.t('Syncing {0}', this.label),
              cancellable: true,
            },
            (progress, token) => {
              token.onCancellationRequested(() => abort.abort());
              return work(abort.signal, (message) => progress.report({ message }));
            },
          )
        : await vscode.window.withProgress(
            { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Syncing {0}', this.label) },
            () => work(abort.signal),
          );
    } catch (e) {
      if (abort.signal.aborted) {
        // Cancelled or paused: the run is left unfinished on purpose; the next one finishes the job.
        this.log(`stopped after ${events.length} action(s); the next run finishes the job`);
      } else failure = failureOf(e);
    }
    this.abort = undefined;
    const ended = Date.now();
    for (const [p, t] of this.ownWrites)
      if (t.until === Infinity) this.ownWrites.set(p, { ended, until: ended + OWN_WRITE_MS });
      else if (t.until < ended) this.ownWrites.delete(p);
    const conflicts = await this.conflictsAfter(events);
    const problems: RunRecord['problems'] = events
      .filter((e) => e.action === 'error' || (e.action === 'skip' && !e.deferred))
      .map((e) => ({ path: e.path, reason: e.reason ?? '', kind: e.action === 'error' ? 'error' : 'skipped' }));
    const record: RunRecord = {
      ...this.record,
      conflicts,
      problems: result || failure ? problems : this.record.problems,
      failure,
      ...(result ? { finished: new Date().toISOString(), summary: summaryOf(result) } : {}),
    };
    await this.host.saveRecord(this.key, record);
    // A run the guard stopped waits for its plan's review: automatic runs would only stop (and ask) again.
    if ((this.phase as LinkPhase) !== 'paused')
      this.phase = failure
        ? 'error'
        : result?.summary.stoppedByMaxDelete
          ? 'plan'
          : result
            ? 'idle'
            : this.firstRunDone()
              ? 'stopped'
              : 'plan';
    if (failure) this.log(`failed: ${failure.message}`);
    else if (result) this.log(record.summary ?? '');
    if (result?.summary.stoppedByMaxDelete) this.host.guardStopped(this, result.plan);
    this.host.changed();
  }

  /** The conflicts known before, with this run's added, less those whose copy is gone (resolved). */
  private async conflictsAfter(events: SyncEvent[]): Promise<RunRecord['conflicts']> {
    const all = [...this.record.conflicts];
    for (const e of events)
      if (e.action === 'conflict' && e.to && !all.some((c) => c.copy === e.to)) all.push({ path: e.path, copy: e.to });
    let onStore: Set<string> | undefined;
    if (this.link.mode === 'upload') {
      const state = await loadState(this.localDir, this.link.storeFolderId).catch(() => undefined);
      onStore = state ? new Set(storePaths(state, { ignores: () => false }, []).keys()) : undefined;
    }
    return all.filter((c) =>
      onStore ? onStore.has(c.copy) : fs.existsSync(path.join(this.localDir, ...c.copy.split('/'))),
    );
  }

  private log(message: string) {
    this.host.log.info(`storage sync ${this.label}: ${message}`);
  }

  dispose(): void {
    this.abort?.abort();
    if (this.debounce) clearTimeout(this.debounce);
    if (this.poll) clearInterval(this.poll);
    this.debounce = undefined;
    for (const d of this.disposables) d.dispose();
    this.disposables.length = 0;
  }
}

function summaryOf(r: SyncResult): string {
  const parts = Object.entries(r.summary.counts).map(([k, n]) => `${k} ${n}`);
  // A run the guard stopped did none of its plan: its counts are what it would have done.
  if (r.summary.stoppedByMaxDelete)
    return `stopped before deleting ${r.summary.deletes} file(s); planned ${parts.join(', ')}`;
  return parts.length ? parts.join(', ') : 'nothing to do';
}

function failureOf(e: unknown): RunRecord['failure'] {
  const message = (e as Error)?.message ?? String(e);
  if (e instanceof StorageError && e.action === 'signIn') return { message, fix: 'signIn' };
  if (/sync state/.test(message)) return { message, fix: 'state' };
  if (/ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ETIMEDOUT|reach/i.test(message)) return { message, fix: 'settings' };
  return { message, fix: 'retry' };
}
