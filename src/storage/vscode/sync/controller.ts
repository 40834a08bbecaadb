// The links of this window: read from every workspace folder's `apiWorkbench.storage.syncLinks`, one
// LinkRunner each, their run records (workspace state), the plan waiting for review, the status bar item
// and the two views. Commands (commands.ts) act through it.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { StorageClient } from '../../core/client';
import { syncFolder } from '../../core/sync/engine';
import { overallStatus, parseLinks, type SyncLink } from '../../core/sync/links';
import type { Plan } from '../../core/sync/model';
import { PLAN_OPEN_CONTEXT, PLAN_VIEW_ID, PlanTreeProvider, type PlanSession } from './planView';
import { LinkRunner, type LinkHost, type RunRecord } from './runner';
import { SYNC_VIEW_ID, SyncTreeProvider } from './syncView';

export const LINKS_SETTING = 'syncLinks';
const RECORDS_KEY = 'apiWorkbench.storage.syncRuns';
/** True while the window has a link: Sync Now, Pause and Resume are offered. */
const LINKED_CONTEXT = 'apiWorkbench.storage.syncLinked';

export interface ControllerDeps {
  client(): Promise<StorageClient>;
  log: vscode.LogOutputChannel;
  state: vscode.Memento;
}

const config = (scope?: vscode.Uri) => vscode.workspace.getConfiguration('apiWorkbench.storage', scope);

export function linkKey(folder: vscode.WorkspaceFolder, link: SyncLink): string {
  return `${folder.uri.toString()}#${link.local}#${link.storeFolderId}`;
}

export class SyncController implements vscode.Disposable, LinkHost {
  readonly runners = new Map<string, LinkRunner>();
  readonly plans = new PlanTreeProvider();
  readonly view = new SyncTreeProvider(() => [...this.runners.values()]);
  readonly status = vscode.window.createStatusBarItem(
    'apiWorkbench.storage.syncStatus',
    vscode.StatusBarAlignment.Left,
    40,
  );
  /** Test seam (ExtensionMode.Test only): see LinkHost. */
  declare abortAfter: { events: number; key: string } | undefined;
  private readonly json = new Map<string, string>();
  private refreshing: NodeJS.Timeout | undefined;
  private dirty = false;
  private linked = false;
  /** Test seam (ExtensionMode.Test only): every text the status bar item is given. */
  declare onPaint: ((text: string) => void) | undefined;

  constructor(private readonly deps: ControllerDeps) {
    this.status.name = vscode.l10n.t('Storage Sync');
    this.status.command = `${SYNC_VIEW_ID}.focus`;
  }

  get log(): vscode.LogOutputChannel {
    return this.deps.log;
  }

  client(): Promise<StorageClient> {
    return this.deps.client();
  }

  record(key: string): RunRecord {
    const all = this.deps.state.get<Record<string, RunRecord>>(RECORDS_KEY) ?? {};
    return all[key] ?? { conflicts: [], problems: [] };
  }

  saveRecord(key: string, r: RunRecord | undefined): Thenable<void> {
    const all = { ...(this.deps.state.get<Record<string, RunRecord>>(RECORDS_KEY) ?? {}) };
    if (r) all[key] = r;
    else delete all[key];
    return this.deps.state.update(RECORDS_KEY, all);
  }

  pollSeconds(): number {
    return config().get<number>('syncPollSeconds') ?? 60;
  }

  maxDeletePercent(): number {
    return config().get<number>('syncMaxDeletePercent') ?? 50;
  }

  /** Reads the links again; runners of unchanged links stay (a run in progress goes on). */
  load(): void {
    const seen = new Set<string>();
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      if (folder.uri.scheme !== 'file') continue;
      const { links, problems } = parseLinks(config(folder.uri).inspect(LINKS_SETTING)?.workspaceFolderValue);
      for (const p of problems) this.deps.log.warn(`storage sync: ${folder.name}: ${p}`);
      for (const link of links) {
        const key = linkKey(folder, link);
        seen.add(key);
        const json = JSON.stringify(link);
        if (this.json.get(key) === json) continue;
        this.runners.get(key)?.dispose();
        const localDir = path.join(folder.uri.fsPath, ...link.local.split('/').filter((s) => s));
        const label = `${link.local || folder.name} ⇄ ${link.storeName}`;
        const runner = new LinkRunner(key, link, localDir, label, this);
        this.runners.set(key, runner);
        this.json.set(key, json);
        if (runner.firstRunDone()) runner.start();
      }
    }
    for (const [key, runner] of this.runners)
      if (!seen.has(key)) {
        runner.dispose();
        this.runners.delete(key);
        this.json.delete(key);
      }
    this.changed();
  }

  /**
   * At activation: a link whose last run never ended (a reload or crash in the middle) runs again at
   * once and finishes the job; the others catch up with what changed while the window was closed.
   */
  async resumeAll(): Promise<string[]> {
    const resumed: string[] = [];
    await Promise.all(
      [...this.runners.values()]
        .filter((r) => r.firstRunDone() && r.phase !== 'paused')
        .map(async (r) => {
          if (r.interrupted()) {
            this.deps.log.info(`storage sync ${r.label}: the last run did not finish; running it again`);
            resumed.push(r.key);
            await r.run();
          } else r.soon(2000);
        }),
    );
    return resumed;
  }

  async writeLinks(folder: vscode.WorkspaceFolder, edit: (links: SyncLink[]) => SyncLink[]): Promise<void> {
    const current = parseLinks(config(folder.uri).inspect(LINKS_SETTING)?.workspaceFolderValue).links;
    const next = edit(current);
    await config(folder.uri).update(
      LINKS_SETTING,
      next.length ? next : undefined,
      vscode.ConfigurationTarget.WorkspaceFolder,
    );
    this.load();
  }

  /** Compares both sides without changing either and opens the plan view on the result. */
  async review(runner: LinkRunner, reason: PlanSession['reason'], plan?: Plan): Promise<PlanSession> {
    const made =
      plan ??
      (await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: vscode.l10n.t('Comparing {0}', runner.label),
          cancellable: true,
        },
        async (_p, token) => {
          const abort = new AbortController();
          token.onCancellationRequested(() => abort.abort());
          const r = await syncFolder({
            client: await this.client(),
            localDir: runner.localDir,
            storeFolderId: runner.link.storeFolderId,
            mode: runner.link.mode,
            exclude: runner.link.exclude,
            dryRun: true,
            signal: abort.signal,
          });
          return r.plan;
        },
      ));
    const session: PlanSession = {
      linkKey: runner.key,
      title: runner.label,
      reason,
      mode: runner.link.mode,
      plan: made,
      excluded: new Set(),
      choices: new Map(),
    };
    this.plans.show(session);
    await vscode.commands.executeCommand('setContext', PLAN_OPEN_CONTEXT, true);
    await vscode.commands.executeCommand(`${PLAN_VIEW_ID}.focus`);
    return session;
  }

  async closePlan(): Promise<void> {
    this.plans.show(undefined);
    await vscode.commands.executeCommand('setContext', PLAN_OPEN_CONTEXT, false);
  }

  guardStopped(runner: LinkRunner, plan: Plan): void {
    void vscode.window.showWarningMessage(
      vscode.l10n.t(
        'Sync of {0} stopped before deleting {1} of {2} files (over the {3}% limit). Review the plan: unchecked deletions are left out.',
        runner.label,
        plan.deletes,
        plan.baseFiles,
        this.maxDeletePercent(),
      ),
    );
    void this.review(runner, 'maxDelete', plan);
  }

  /** Something about a link changed: views and status bar follow (at most every 100 ms). */
  changed(): void {
    if (this.refreshing) {
      this.dirty = true;
      return;
    }
    this.paint();
    this.refreshing = setTimeout(() => {
      this.refreshing = undefined;
      if (this.dirty) {
        this.dirty = false;
        this.paint();
      }
    }, 100);
  }

  paint(): void {
    this.view.refresh();
    const s = overallStatus([...this.runners.values()].map((r) => r.status()));
    if (this.linked !== !!s) {
      this.linked = !!s;
      void vscode.commands.executeCommand('setContext', LINKED_CONTEXT, this.linked);
    }
    if (!s) {
      this.status.text = '';
      this.status.hide();
      return;
    }
    const [text, tooltip] =
      s.kind === 'running'
        ? s.total
          ? [
              `$(sync~spin) ${vscode.l10n.t('Syncing {0} of {1}', s.done, s.total)}`,
              vscode.l10n.t('Syncing with the store. Click to show the Sync view.'),
            ]
          : [`$(sync~spin) ${vscode.l10n.t('Syncing…')}`, vscode.l10n.t('Comparing with the store.')]
        : s.kind === 'error'
          ? [
              `$(error) ${vscode.l10n.t('Sync error')}`,
              vscode.l10n.t('The last sync failed or left items out. Click for what to do.'),
            ]
          : s.kind === 'conflicts'
            ? [
                `$(warning) ${s.conflicts === 1 ? vscode.l10n.t('1 sync conflict') : vscode.l10n.t('{0} sync conflicts', s.conflicts)}`,
                vscode.l10n.t('Files changed on both sides: both versions are kept. Click to compare and keep one.'),
              ]
            : s.kind === 'stopped'
              ? [
                  `$(debug-stop) ${vscode.l10n.t('Sync stopped')}`,
                  vscode.l10n.t('A sync was stopped before the end: Sync Now finishes it.'),
                ]
              : s.kind === 'plan'
                ? [
                    `$(checklist) ${vscode.l10n.t('Sync plan to review')}`,
                    vscode.l10n.t(
                      "A sync waits for you: a link's first plan, or deletions over the limit. Review its plan in the Sync view.",
                    ),
                  ]
                : s.kind === 'paused'
                  ? [`$(debug-pause) ${vscode.l10n.t('Sync paused')}`, vscode.l10n.t('Sync is paused.')]
                  : [
                      `$(check) ${vscode.l10n.t('In sync')}`,
                      vscode.l10n.t('The linked folders and the store are the same.'),
                    ];
    this.status.text = text;
    this.status.tooltip = tooltip;
    this.status.backgroundColor =
      s.kind === 'error' ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    this.status.show();
    if (__TEST_SEAMS__) this.onPaint?.(text);
  }

  /** As a new window: the runners go (a run in progress is abandoned, unfinished) and are made afresh. */
  restart(): void {
    for (const r of this.runners.values()) r.dispose();
    this.runners.clear();
    this.json.clear();
    this.load();
  }

  /** Waits until no link has a run in progress or coming (tests, and Unlink). */
  async idle(): Promise<void> {
    for (const r of this.runners.values()) await r.idle();
  }

  dispose(): void {
    if (this.refreshing) clearTimeout(this.refreshing);
    for (const r of this.runners.values()) r.dispose();
    this.runners.clear();
    this.json.clear();
    this.status.dispose();
  }
}
