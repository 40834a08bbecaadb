// The sync commands: Sync Folder with Storage… (Explorer, Storage view, Command Palette), the plan view's
// Apply / Discard and conflict choices, and the Sync view's Sync Now, Pause, Resume, Unlink, Compare,
// Keep This and Keep That. Like the other storage commands, each takes the node it was invoked on, then
// optional values that skip the prompts (keybindings, host tests).
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ConflictChoice, PlanChoice } from '../../core/sync/choices';
import type { SyncLink } from '../../core/sync/links';
import { isDeletion, type SyncMode } from '../../core/sync/model';
import { linkOverlap } from '../../core/sync/overlap';
import { statePath } from '../../core/sync/state';
import { resolveStoreFolder } from '../../core/sync/storeFolder';
import type { TreeEntry } from '../../core/tree';
import { folderIdOf, guarded, registerStorageCommand as reg, type CommandContext } from '../commands/common';
import { pickFolder } from '../commands/move';
import type { SyncController } from './controller';
import type { PlanNode } from './planView';
import type { LinkRunner } from './runner';
import type { SyncNode } from './syncView';

/** What skips the prompts of Sync Folder with Storage…. */
export interface LinkArgs {
  local?: string;
  store?: string;
  storeName?: string;
  mode?: SyncMode;
}

function isTreeEntry(x: unknown): x is TreeEntry {
  return !!x && typeof x === 'object' && 'type' in x && 'key' in x;
}

async function pickMode(): Promise<SyncMode | undefined> {
  const items: (vscode.QuickPickItem & { mode: SyncMode })[] = [
    {
      mode: 'two-way',
      label: vscode.l10n.t('Two-way'),
      description: vscode.l10n.t('default'),
      detail: vscode.l10n.t('Changes on either side go to the other; files changed on both are kept twice.'),
    },
    {
      mode: 'upload',
      label: vscode.l10n.t('Upload only'),
      detail: vscode.l10n.t('The store follows this folder; store edits are never overwritten.'),
    },
    {
      mode: 'download',
      label: vscode.l10n.t('Download only'),
      detail: vscode.l10n.t('This folder follows the store; local edits are never overwritten.'),
    },
  ];
  return (await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Sync mode'), ignoreFocusOut: true }))?.mode;
}

export function registerSyncCommands(ctx: CommandContext, sync: SyncController): vscode.Disposable[] {
  const runnerOf = (n: SyncNode | undefined): LinkRunner | undefined => n?.runner;
  const all = () => [...sync.runners.values()];

  /** A link (saved, run or not) whose folder is this one, or holds it, or lies inside it: they would share files. */
  const sharedWith = (dir: string): string | undefined => {
    const inside = (a: string, b: string) => {
      const rel = path.relative(b, a);
      return rel === '' || (rel.split(path.sep)[0] !== '..' && !path.isAbsolute(rel));
    };
    const other = all().find((r) => inside(dir, r.localDir) || inside(r.localDir, dir));
    if (!other) return undefined;
    return other.localDir === dir
      ? vscode.l10n.t(
          '{0} is linked already ({1}): a folder syncs with one store folder. Unlink it first.',
          dir,
          other.label,
        )
      : vscode.l10n.t(
          '{0} would share files with the link {1} (links never nest): sync folders side by side, or unlink it first.',
          dir,
          other.label,
        );
  };

  // Args as the Explorer and the Storage view pass them (the clicked item, the selection), then the prompts' answers.
  const link = async (target: unknown, _selection?: unknown, args: LinkArgs = {}) =>
    guarded(ctx, vscode.l10n.t('Linking the folder'), async () => {
      let local = args.local ?? (target instanceof vscode.Uri ? target.fsPath : undefined);
      let store = args.store;
      let storeName = args.storeName;
      if (isTreeEntry(target)) {
        store = folderIdOf(target);
        storeName =
          target.type === 'file' ? target.file.title : target.type === 'drive' ? target.drive.name : undefined;
      }
      if (!local) {
        local = (
          await vscode.window.showOpenDialog({
            canSelectFolders: true,
            canSelectFiles: false,
            defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
            openLabel: vscode.l10n.t('Sync this folder'),
            title: storeName
              ? vscode.l10n.t('Local folder to keep in sync with "{0}"', storeName)
              : vscode.l10n.t('Local folder to keep in sync'),
          })
        )?.[0]?.fsPath;
        if (!local) return undefined;
      }
      const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(local));
      if (!folder) {
        void vscode.window.showErrorMessage(
          vscode.l10n.t('{0} is not inside a folder of this workspace; open it (or a folder above it) first.', local),
        );
        return undefined;
      }
      if (!store) {
        const place = await pickFolder(ctx, {
          title: vscode.l10n.t('Sync "{0}" with…', path.basename(local)),
          hint: vscode.l10n.t('Pick a store folder to look inside it, then "Sync with" it'),
          here: (name) => vscode.l10n.t('Sync with "{0}"', name),
        });
        if (!place) return undefined;
        store = place.id;
        storeName = place.name;
      }
      const mode = args.mode ?? (await pickMode());
      if (!mode) return undefined;
      const storeFolderId = await resolveStoreFolder(await ctx.client(), store);
      const rel = path.relative(folder.uri.fsPath, local).split(path.sep).join('/');
      const made: SyncLink = { local: rel, storeFolderId, storeName: storeName ?? store, mode };
      const twin = all().find((r) => r.localDir === path.resolve(local) && r.link.storeFolderId === storeFolderId);
      if (twin) {
        void vscode.window.showInformationMessage(vscode.l10n.t('{0} is linked already.', twin.label));
        return { key: twin.key };
      }
      const clash = sharedWith(path.resolve(local)) ?? (await linkOverlap(path.resolve(local), storeFolderId));
      if (clash) {
        void vscode.window.showErrorMessage(clash);
        return undefined;
      }
      await sync.writeLinks(folder, (links) => [...links, made]);
      const runner = all().find((r) => r.localDir === path.resolve(local) && r.link.storeFolderId === storeFolderId);
      if (!runner) throw new Error('the link was not saved');
      if (runner.firstRunDone()) {
        runner.start();
        await runner.run({ interactive: true });
      } else await sync.review(runner, 'first');
      return { key: runner.key };
    });

  const choose = (choice: ConflictChoice) => (node?: PlanNode) => {
    const s = sync.plans.session;
    if (!s || node?.type !== 'item' || node.item.action.kind !== 'conflict') return;
    s.choices.set(node.item.path, choice);
    s.excluded.delete(node.item.path);
    sync.plans.refresh();
  };
  /** Restore (or delete after all) a deletion, or every deletion of a group. */
  const deletion = (choice: Extract<PlanChoice, 'restore'> | undefined) => (node?: PlanNode) => {
    const s = sync.plans.session;
    if (!s || !node || node.type === 'skipped') return;
    const items = node.type === 'group' ? node.items : [node.item];
    for (const { action, path: p } of items) {
      if (!isDeletion(action)) continue;
      if (choice) s.choices.set(p, choice);
      else s.choices.delete(p);
      s.excluded.delete(p);
    }
    sync.plans.refresh();
  };

  const apply = async () =>
    guarded(ctx, vscode.l10n.t('Syncing'), async () => {
      const s = sync.plans.session;
      const runner = s && sync.runners.get(s.linkKey);
      if (!s || !runner) return undefined;
      await sync.closePlan();
      if (s.excluded.size) {
        const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(runner.localDir));
        if (folder)
          await sync.writeLinks(folder, (links) =>
            links.map((l) =>
              l.local === runner.link.local && l.storeFolderId === runner.link.storeFolderId
                ? { ...l, exclude: [...new Set([...(l.exclude ?? []), ...s.excluded])].sort() }
                : l,
            ),
          );
      }
      const now = sync.runners.get(s.linkKey) ?? runner;
      now.phase = 'idle';
      await now.run({
        interactive: true,
        choices: s.choices,
        ...(s.reason === 'maxDelete' ? { maxDeletePercent: 100 } : {}),
      });
      now.start();
      return now.record;
    });

  const localUri = (r: LinkRunner, rel: string) => vscode.Uri.file(path.join(r.localDir, ...rel.split('/')));
  /** A store item by its path below the linked folder (the `store:` file system: reads, writes, trash). */
  const storeUri = (r: LinkRunner, rel: string) =>
    vscode.Uri.from({ scheme: 'store', path: `/${r.link.storeFolderId}/${rel}` });

  /**
   * Keep This (the file under its name) or Keep That (the conflict copy's version, under the file's name); the
   * copy goes. Two-way and download mode: the copy is on disk, the run carries the result to the store (its copy
   * to the store's trash). Upload mode: the copy is on the store (the local bytes) and the store's own version
   * keeps the name there; This puts the local version under the store's name, That brings the store's here.
   */
  const keep = (which: 'this' | 'that') => async (node?: SyncNode) =>
    guarded(ctx, vscode.l10n.t('Resolving the conflict'), async () => {
      if (node?.type !== 'conflict') return;
      const r = node.runner;
      if (r.link.mode === 'upload') {
        if (which === 'this')
          await vscode.workspace.fs.writeFile(
            storeUri(r, node.path),
            await vscode.workspace.fs.readFile(localUri(r, node.path)),
          );
        else
          await vscode.workspace.fs.writeFile(
            localUri(r, node.path),
            await vscode.workspace.fs.readFile(storeUri(r, node.path)),
          );
        await vscode.workspace.fs.delete(storeUri(r, node.copy));
      } else {
        const file = localUri(r, node.path).fsPath;
        const copy = localUri(r, node.copy).fsPath;
        if (which === 'that') await fsp.copyFile(copy, file);
        // The copy is removed here; the run sends that to the store's trash, where it can still be restored.
        await fsp.rm(copy, { force: true });
      }
      await r.run({ interactive: true });
    });

  return [
    reg('syncFolder', link),
    reg('syncApplyPlan', apply),
    reg('syncDiscardPlan', async () => sync.closePlan()),
    reg('syncPlanKeepBoth', choose('keep-both')),
    reg('syncPlanKeepLocal', choose('keep-local')),
    reg('syncPlanKeepStore', choose('keep-store')),
    reg('syncPlanRestore', deletion('restore')),
    reg('syncPlanDelete', deletion(undefined)),
    reg('syncReviewPlan', async (node?: SyncNode) =>
      guarded(ctx, vscode.l10n.t('Comparing'), async () => {
        const runner = runnerOf(node) ?? all().find((r) => r.phase === 'plan');
        if (runner) await sync.review(runner, reviewReason(runner));
      }),
    ),
    reg('syncNow', async (node?: SyncNode) => {
      const runners = runnerOf(node) ? [runnerOf(node)!] : all();
      const first = runners.find((r) => r.phase === 'plan');
      if (first) return sync.review(first, reviewReason(first)).then(() => undefined);
      await Promise.all(runners.map((r) => r.run({ interactive: true })));
    }),
    reg('syncPause', async (node?: SyncNode) => {
      for (const r of runnerOf(node) ? [runnerOf(node)!] : all()) await r.pause();
    }),
    reg('syncResume', async (node?: SyncNode) => {
      for (const r of runnerOf(node) ? [runnerOf(node)!] : all()) if (r.phase === 'paused') await r.resume();
    }),
    reg('syncUnlink', async (node?: SyncNode, confirmed?: boolean) =>
      guarded(ctx, vscode.l10n.t('Unlinking'), async () => {
        const runner = runnerOf(node);
        if (!runner) return;
        const ok =
          confirmed === true ||
          (await vscode.window.showWarningMessage(
            vscode.l10n.t('Stop syncing {0}?', runner.label),
            { modal: true, detail: vscode.l10n.t('Files stay as they are on both sides.') },
            vscode.l10n.t('Unlink'),
          )) !== undefined;
        if (!ok) return;
        await runner.pause();
        const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(runner.localDir));
        if (folder)
          await sync.writeLinks(folder, (links) =>
            links.filter((l) => !(l.local === runner.link.local && l.storeFolderId === runner.link.storeFolderId)),
          );
        await fsp.rm(statePath(runner.localDir, runner.link.storeFolderId), { force: true });
        await sync.saveRecord(runner.key, undefined);
        sync.changed();
      }),
    ),
    reg('syncCompare', async (node?: SyncNode) => {
      if (node?.type !== 'conflict') return;
      const r = node.runner;
      // The conflict copy on the left; upload mode: the store's version (its copy holds the local bytes).
      const [left, right] =
        r.link.mode === 'upload'
          ? [storeUri(r, node.path), localUri(r, node.path)]
          : [localUri(r, node.copy), localUri(r, node.path)];
      const title =
        r.link.mode === 'upload'
          ? vscode.l10n.t('{0} (store) ↔ {0} (local)', path.basename(node.path))
          : `${path.basename(node.copy)} ↔ ${path.basename(node.path)}`;
      await vscode.commands.executeCommand('vscode.diff', left, right, title);
    }),
    reg('syncKeepThis', keep('this')),
    reg('syncKeepThat', keep('that')),
  ];
}

/** A link waits for review before its first run, or after the max-delete guard stopped one (it has a state). */
function reviewReason(r: LinkRunner): 'first' | 'maxDelete' {
  return r.firstRunDone() ? 'maxDelete' : 'first';
}
