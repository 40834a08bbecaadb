// Move to…: the selected items go into a folder the user picks level by level (My files and its folders,
// the shared drives), under one cancellable progress notification. An item that fails is reported and
// the others still move; cancelling the picker changes nothing.
import * as vscode from 'vscode';
import { moveInto, type MoveItem, type MoveOutcome } from '../../core/move';
import { targetOptions, type Place, type TargetOption } from '../../core/moveTargets';
import { displayName } from '../../core/storePaths';
import type { TreeEntry } from '../../core/tree';
import {
  type CommandContext,
  folderIdOf,
  guarded,
  names,
  registerStorageCommand as reg,
  withCancellableProgress,
} from './common';

interface OptionItem extends vscode.QuickPickItem {
  option: TargetOption;
}

/** The words of the folder picker: Move to… and the uploads share it. */
export interface PickerWords {
  title: string;
  hint: string;
  /** The row that picks the folder shown, by its name. */
  here(name: string): string;
}

function toItem(option: TargetOption, trail: readonly Place[], words: PickerWords): OptionItem {
  switch (option.kind) {
    case 'here':
      return {
        option,
        label: `$(check) ${words.here(option.place.name)}`,
        // Where that folder is, once its name alone no longer says it.
        description: trail.length > 1 ? trail.map((p) => p.name).join(' › ') : undefined,
      };
    case 'up':
      return {
        option,
        label: `$(arrow-up) ${vscode.l10n.t('Up')}`,
        description: trail.at(-2)?.name ?? vscode.l10n.t('My files and shared drives'),
      };
    case 'open': {
      const icon = option.place.id === 'root' ? 'home' : option.place.drive ? 'organization' : 'folder';
      const description = option.place.drive
        ? vscode.l10n.t('Shared drive')
        : option.place.canAdd
          ? undefined
          : vscode.l10n.t('read-only');
      return { option, label: `$(${icon}) ${option.place.name}`, description };
    }
  }
}

/** Asks for the target folder, one level at a time; undefined when the user cancels. */
async function pickTarget(
  ctx: CommandContext,
  what: string[],
  exclude: ReadonlySet<string>,
  /** The one folder every item is in, if so: moving there would do nothing, so it is not offered. */
  allIn: string | undefined,
): Promise<Place | undefined> {
  return pickFolder(
    ctx,
    {
      title:
        what.length === 1 ? vscode.l10n.t('Move "{0}" to…', what[0]) : vscode.l10n.t('Move {0} items to…', what.length),
      hint: vscode.l10n.t('Pick a folder to look inside it, then "Move to" it'),
      here: (name) => vscode.l10n.t('Move to "{0}"', name),
    },
    exclude,
    allIn,
  );
}

/** A storage folder the user picks one level at a time (My files, its folders, shared drives); undefined when cancelled. */
export async function pickFolder(
  ctx: CommandContext,
  words: PickerWords,
  exclude: ReadonlySet<string> = new Set(),
  allIn?: string,
): Promise<Place | undefined> {
  const client = await ctx.client();
  const qp = vscode.window.createQuickPick<OptionItem>();
  const { title, hint } = words;
  const trail: Place[] = [];
  let loading = new AbortController();
  const show = async () => {
    loading.abort();
    const current = (loading = new AbortController());
    qp.title = trail.length ? `${title} ${trail.map((p) => p.name).join(' › ')}` : title;
    qp.value = '';
    qp.placeholder = hint;
    qp.items = [];
    qp.busy = true;
    try {
      const options = await targetOptions(client, trail, exclude, current.signal);
      const useful = options.filter((o) => !(o.kind === 'here' && o.place.id === allIn));
      if (!current.signal.aborted) qp.items = useful.map((o) => toItem(o, trail, words));
    } catch (e) {
      if (!current.signal.aborted) {
        qp.items = trail.length ? [toItem({ kind: 'up' }, trail, words)] : [];
        qp.placeholder = vscode.l10n.t('Could not list the folders: {0}', (e as Error)?.message ?? String(e));
      }
    } finally {
      if (!current.signal.aborted) qp.busy = false;
    }
  };
  return new Promise<Place | undefined>((resolve) => {
    qp.onDidAccept(() => {
      const picked = qp.selectedItems[0]?.option;
      if (!picked || qp.busy) return;
      if (picked.kind === 'here') {
        resolve(picked.place);
        qp.hide();
        return;
      }
      if (picked.kind === 'up') trail.pop();
      else trail.push(picked.place);
      void show();
    });
    qp.onDidHide(() => {
      loading.abort();
      resolve(undefined);
      qp.dispose();
    });
    qp.show();
    void show();
  });
}

/** Plain data of an outcome (what host tests and keybindings get back). */
function plain(o: MoveOutcome) {
  return {
    id: o.file.id,
    title: o.file.title,
    status: o.status,
    ...(o.status === 'failed' ? { error: o.error.message } : o.status === 'skipped' ? { reason: o.reason } : {}),
  };
}

export function registerMoveCommands(ctx: CommandContext): vscode.Disposable[] {
  return [
    // Args after the node: the multi-selection, then a target folder id that skips the picker.
    reg('moveTo', async (e: TreeEntry, all?: TreeEntry[], targetId?: string) =>
      guarded(ctx, vscode.l10n.t('Moving'), async () => {
        const chosen = all && e && all.some((x) => x.key === e.key) ? all : e ? [e] : [];
        const entries = chosen.filter((x): x is Extract<TreeEntry, { type: 'file' }> => x.type === 'file');
        if (!entries.length) return;
        const folders = new Set(entries.filter((x) => x.folder).map((x) => x.file.id ?? ''));
        const items: MoveItem[] = entries.map((x) => ({ file: x.file, from: folderIdOf(ctx.tree.getParent(x)) }));
        const froms = new Set(items.map((i) => i.from));
        const target =
          targetId ??
          (
            await pickTarget(
              ctx,
              entries.map((x) => displayName(x.file.title)),
              folders,
              froms.size === 1 ? [...froms][0] : undefined,
            )
          )?.id;
        if (!target) return;
        const client = await ctx.client();
        let outcomes: MoveOutcome[];
        try {
          outcomes = await withCancellableProgress(
            vscode.l10n.t('Moving {0}', names(items.map((i) => i.file))),
            (report, signal) =>
              moveInto(client, items, target, signal, (f, done) =>
                report(`${done + 1}/${items.length}: ${displayName(f.title)}`),
              ),
          );
        } finally {
          // Also after a cancel: what moved before it did move.
          ctx.tree.refresh(undefined);
          ctx.storeChanged(
            items.map((i) => i.file.id ?? ''),
            [target, ...items.flatMap((i) => (i.from ? [i.from] : []))],
          );
        }
        const failed = outcomes.filter((o) => o.status === 'failed');
        if (failed.length)
          void vscode.window.showErrorMessage(
            vscode.l10n.t(
              'Could not move {0} of {1}: {2}',
              failed.length,
              outcomes.length,
              failed.map((o) => `"${displayName(o.file.title)}" (${o.error.message})`).join('; '),
            ),
          );
        else if (outcomes.every((o) => o.status === 'skipped'))
          void vscode.window.showInformationMessage(
            vscode.l10n.t('Nothing moved: {0}', outcomes[0]?.status === 'skipped' ? outcomes[0].reason : ''),
          );
        return outcomes.map(plain);
      }),
    ),
  ];
}
