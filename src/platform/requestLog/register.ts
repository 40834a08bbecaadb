// The Request Log: every call of the default fetch (all features) into an output channel in log format
// and a tree view, with "Copy as curl" and a read-only details page. Nothing here sees a credential:
// the events are redacted where they are made (src/shared/http/observe.ts).
import * as vscode from 'vscode';
import { onRequest, type RequestEvent } from '../../shared/http/observe';
import { curlVariables, toCurl } from '../../shared/http/curl';
import { detailsText, detailsTitle, logLine, RequestLogModel } from '../../shared/http/requestLog';
import { restoreLog, savedLog } from '../../shared/http/requestLogSaved';
import { redactingLog } from '../log';
import type { WorkbenchServices } from '../services';
import { OPEN_DETAILS, RequestLogTree } from './view';
import { markWalkthroughStep, REQUEST_DETAILS_OPENED, walkthroughProgress } from './walkthroughProgress';

const SCHEME = 'api-workbench-request';
const VIEW_ID = 'apiWorkbench.requestLog';
/** workspaceState key of the log kept across a reload (requestLogSaved.ts). */
const SAVED_KEY = 'apiWorkbench.requestLog.saved';

export function registerRequestLog(services: WorkbenchServices): vscode.Disposable[] {
  const model = new RequestLogModel();
  const state = services.context.workspaceState;
  let { clearedAt } = restoreLog(model, state.get(SAVED_KEY));
  const channel = redactingLog(vscode.window.createOutputChannel('API Workbench: Requests', { log: true }));
  const tree = new RequestLogTree(model);
  const details = new DetailsDocuments(model);
  const progress = walkthroughProgress();
  const stopListening = onRequest((e) => {
    model.add(e);
    writeLine(channel, e);
    progress(e);
  });
  const view = vscode.window.createTreeView(VIEW_ID, { treeDataProvider: tree, showCollapseAll: false });
  const sayCleared = () => {
    view.message =
      clearedAt === undefined
        ? undefined
        : vscode.l10n.t('Cleared {0}.', new Date(clearedAt).toLocaleString(undefined, { hour12: false }));
  };
  sayCleared();
  // Saved a moment after each change (a burst of calls is one write): the log is there after a reload.
  let saving: ReturnType<typeof setTimeout> | undefined;
  const stopSaving = model.onChange(() => {
    saving ??= setTimeout(() => {
      saving = undefined;
      void state.update(SAVED_KEY, savedLog(model, clearedAt));
    }, 300);
  });
  const eventOf = (arg: unknown): RequestEvent | undefined =>
    arg && typeof arg === 'object' && typeof (arg as RequestEvent).id === 'number'
      ? model.get((arg as RequestEvent).id)
      : undefined;

  return [
    { dispose: stopListening },
    {
      dispose: () => {
        stopSaving();
        if (saving) clearTimeout(saving);
      },
    },
    channel,
    tree,
    details,
    view,
    vscode.workspace.registerTextDocumentContentProvider(SCHEME, details),
    vscode.commands.registerCommand('apiWorkbench.requestLog.clear', () => {
      clearedAt = Date.now();
      model.clear();
      sayCleared();
    }),
    vscode.commands.registerCommand('apiWorkbench.requestLog.showOutput', () => channel.show(true)),
    vscode.commands.registerCommand('apiWorkbench.requestLog.copyAsCurl', async (arg?: unknown) => {
      const e = eventOf(arg) ?? (await pick(model));
      if (!e) return;
      const command = toCurl(e);
      await vscode.env.clipboard.writeText(command);
      const vars = curlVariables(command).map((v) => `$${v}`);
      void vscode.window.showInformationMessage(
        vars.length
          ? vscode.l10n.t('Copied as curl. Set {0} in your shell first: credentials are never copied.', vars.join(', '))
          : vscode.l10n.t('Copied as curl.'),
      );
    }),
    vscode.commands.registerCommand(OPEN_DETAILS, async (arg?: unknown) => {
      const e = eventOf(arg) ?? (await pick(model));
      if (!e) return;
      const doc = await vscode.workspace.openTextDocument(details.uriOf(e));
      await vscode.window.showTextDocument(doc, { preview: true });
      markWalkthroughStep(REQUEST_DETAILS_OPENED);
    }),
    ...(__TEST_SEAMS__ && services.context.extensionMode === vscode.ExtensionMode.Test
      ? [
          vscode.commands.registerCommand('apiWorkbench._testRequestLog', () => ({
            entries: [...model.items],
            curl: model.items.map((e) => toCurl(e)),
            details: model.items.map((e) => detailsText(e)),
            // What each row of the view shows.
            rows: model.items.map((e) => {
              const item = tree.getTreeItem(e);
              return { label: item.label, description: item.description };
            }),
          })),
        ]
      : []),
  ];
}

function writeLine(channel: vscode.LogOutputChannel, e: RequestEvent): void {
  // A call is logged once, when its body has been read or it failed; the tree shows it from its headers on.
  if (e.phase === 'headers') return;
  const line = logLine(e);
  if (e.phase === 'failed') channel.error(line);
  else if ((e.status ?? 0) >= 400) channel.warn(line);
  else channel.info(line);
}

/** From the command palette: choose one of the recent calls. */
async function pick(model: RequestLogModel): Promise<RequestEvent | undefined> {
  if (model.items.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No requests have been made yet.'));
    return undefined;
  }
  const chosen = await vscode.window.showQuickPick(
    model.items.map((e) => ({ label: `${e.method} ${e.url}`, description: logLine(e), event: e })),
    { placeHolder: vscode.l10n.t('Choose a request'), matchOnDescription: true },
  );
  return chosen?.event;
}

/** Read-only pages `api-workbench-request:/<id>/<method> <path>` built from the (redacted) event. */
class DetailsDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly stop: () => void;
  private readonly open = new Map<number, vscode.Uri>();

  constructor(private readonly model: RequestLogModel) {
    // A page opened while the body was still arriving updates when the call completes.
    this.stop = model.onChange((e) => {
      const uri = e && this.open.get(e.id);
      if (uri) this.changed.fire(uri);
    });
  }

  uriOf(e: RequestEvent): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: SCHEME, path: `/${e.id}/${detailsTitle(e)}` });
    this.open.set(e.id, uri);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const id = Number(uri.path.split('/')[1]);
    const e = this.model.get(id);
    return e ? detailsText(e) : vscode.l10n.t('This request is no longer in the log (it was cleared).') + '\n';
  }

  dispose(): void {
    this.stop();
    this.changed.dispose();
  }
}
