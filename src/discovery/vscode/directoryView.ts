// The API directory view: lists discovery.apis.list at the configured URL (the sandbox by
// default), filters it, opens a description in an editor and saves it to the workspace.
import * as vscode from 'vscode';
import type { FeatureShell, WorkbenchServices } from '../../platform/services';
import {
  fetchDescription,
  fetchDirectory,
  fileNameFor,
  filterDirectory,
  type DirectoryFilter,
  type DirectoryItem,
} from '../core/directory';
import { registerCommand } from '../../platform/lazy/commandTable';
import { DOCUMENT_OPENED, markWalkthroughStep } from '../../platform/requestLog/walkthroughProgress';

export const DIRECTORY_VIEW_ID = 'apiWorkbench.directory';

type Node = { kind: 'item'; item: DirectoryItem } | { kind: 'message'; text: string; clearsFilter?: boolean };

export class DirectoryTree implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private items: DirectoryItem[] | undefined;
  private error: string | undefined;
  private loading: Promise<void> | undefined;
  readonly filter: DirectoryFilter = { preferredOnly: false, text: '' };
  view: vscode.TreeView<Node> | undefined;

  constructor(private readonly services: WorkbenchServices) {}

  refresh(): void {
    this.items = undefined;
    this.error = undefined;
    this.loading = undefined;
    this.emitter.fire(undefined);
  }

  setFilter(change: Partial<DirectoryFilter>): void {
    Object.assign(this.filter, change);
    void vscode.commands.executeCommand(
      'setContext',
      'apiWorkbench.directory.preferredOnly',
      this.filter.preferredOnly,
    );
    if (this.view) {
      const parts = [
        this.filter.preferredOnly ? 'preferred only' : '',
        this.filter.text ? `“${this.filter.text}”` : '',
      ].filter(Boolean);
      this.view.description = parts.join(' · ') || undefined;
    }
    void vscode.commands.executeCommand(
      'setContext',
      'apiWorkbench.directory.filtered',
      this.filter.preferredOnly || this.filter.text !== '',
    );
    this.emitter.fire(undefined);
  }

  private async load(): Promise<void> {
    try {
      const endpoint = await this.services.endpoints.resolve('directory');
      this.items = await fetchDirectory(endpoint.baseUrl);
      this.error = undefined;
    } catch (err) {
      this.items = [];
      this.error = (err as Error).message;
      this.services.log.warn(`Directory: ${this.error}`);
    }
  }

  /** The entry with this id in the whole directory (whatever the filter), loading it if needed. */
  async findItem(id: string): Promise<DirectoryItem | undefined> {
    await this.shownItems();
    return this.items?.find((i) => i.id === id);
  }

  /** The items the view shows under the current filter, loading the directory if needed. */
  async shownItems(): Promise<DirectoryItem[]> {
    if (!this.items) {
      this.loading ??= this.load();
      await this.loading;
    }
    return filterDirectory(this.items ?? [], this.filter);
  }

  async getChildren(node?: Node): Promise<Node[]> {
    if (node) return [];
    const shown = await this.shownItems();
    if (this.error) return [{ kind: 'message', text: this.error }];
    if (!shown.length)
      return [
        this.items?.length
          ? // As in Problems and Extensions: an empty filtered list offers the way back.
            { kind: 'message', text: vscode.l10n.t('No API matches the filter. Clear filter'), clearsFilter: true }
          : { kind: 'message', text: vscode.l10n.t('The directory lists no APIs.') },
      ];
    return shown.map((item) => ({ kind: 'item', item }));
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'message') {
      const t = new vscode.TreeItem(node.text);
      t.iconPath = new vscode.ThemeIcon(node.clearsFilter ? 'clear-all' : 'info');
      if (node.clearsFilter)
        t.command = { command: 'apiWorkbench.directory.clearFilter', title: vscode.l10n.t('Clear Filter') };
      return t;
    }
    const i = node.item;
    const t = new vscode.TreeItem(`${i.name} ${i.version}`);
    t.id = i.id;
    t.description = [i.title, ...(i.labels ?? []).map((l) => `[${l}]`)].filter(Boolean).join(' ');
    t.tooltip = new vscode.MarkdownString(
      `**${i.title ?? i.name}** (${i.id})${i.preferred ? ' · preferred' : ''}\n\n${i.description ?? ''}`,
    );
    t.iconPath = new vscode.ThemeIcon(i.preferred ? 'star-full' : 'symbol-interface');
    t.contextValue = 'discoveryDirectoryItem';
    t.command = { command: 'apiWorkbench.directory.open', title: 'Open', arguments: [node] };
    return t;
  }

  dispose(): void {
    this.emitter.dispose();
  }
}

/** Read-only documents of directory entries: `apiworkbench-directory:/<file name>?<item id>`. */
const DIRECTORY_SCHEME = 'apiworkbench-directory';

export function uriOf(item: DirectoryItem): vscode.Uri {
  return vscode.Uri.from({ scheme: DIRECTORY_SCHEME, path: `/${fileNameFor(item)}`, query: item.id });
}

/**
 * Serves the description of an entry as a read-only document: nothing to save on close, and after a
 * reload the editor fetches it again from the directory.
 */
class DirectoryDocuments implements vscode.TextDocumentContentProvider {
  constructor(private readonly tree: DirectoryTree) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const item = await this.tree.findItem(uri.query);
    if (!item) throw new Error(`The API directory no longer lists ${uri.query}.`);
    return fetchDescription(item);
  }
}

function itemOf(arg: unknown, tree: DirectoryTree): Promise<DirectoryItem | undefined> {
  if (arg instanceof vscode.Uri)
    return arg.scheme === DIRECTORY_SCHEME ? tree.findItem(arg.query) : Promise.resolve(undefined);
  const n = arg as Node | undefined;
  if (n?.kind === 'item') return Promise.resolve(n.item);
  const sel = tree.view?.selection[0];
  if (sel?.kind === 'item') return Promise.resolve(sel.item);
  const active = vscode.window.activeTextEditor?.document.uri;
  return active?.scheme === DIRECTORY_SCHEME ? tree.findItem(active.query) : Promise.resolve(undefined);
}

async function openItem(item: DirectoryItem): Promise<vscode.TextDocument> {
  const doc = await vscode.window.withProgress(
    { location: { viewId: DIRECTORY_VIEW_ID }, title: vscode.l10n.t('Fetching {0}', item.id) },
    async () => vscode.workspace.openTextDocument(uriOf(item)),
  );
  await vscode.window.showTextDocument(doc, { preview: false });
  return doc;
}

/** Saves to `chosen` when given (scripts and tests), otherwise where the user picks in the dialog. */
async function saveItem(item: DirectoryItem, chosen?: vscode.Uri): Promise<vscode.Uri | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const target =
    chosen ??
    (await vscode.window.showSaveDialog({
      defaultUri: folder ? vscode.Uri.joinPath(folder, fileNameFor(item)) : undefined,
      filters: { JSON: ['json'] },
      saveLabel: vscode.l10n.t('Save Description'),
    }));
  if (!target) return undefined;
  const content = await fetchDescription(item);
  await vscode.workspace.fs.writeFile(target, Buffer.from(content, 'utf8'));
  await vscode.window.showTextDocument(target);
  return target;
}

export function registerDirectory(services: WorkbenchServices, shell: FeatureShell): vscode.Disposable[] {
  const tree = new DirectoryTree(services);
  // The view itself belongs to the extension's entry, which created it before this feature was loaded.
  const view = shell.treeView(DIRECTORY_VIEW_ID, tree);
  tree.view = view;
  // Also the entry's: a read-only directory entry restored with the window must resolve before discovery loads.
  shell.textDocumentContent(DIRECTORY_SCHEME, new DirectoryDocuments(tree));
  const fail = (err: unknown) =>
    void vscode.window.showErrorMessage(vscode.l10n.t('API directory: {0}', (err as Error).message));
  return [
    tree,
    services.endpoints.onDidChange((s) => {
      if (s === 'directory') tree.refresh();
    }),
    // The view commands resolve to the items now shown, so scripts and tests can see the view's state.
    registerCommand('apiWorkbench.directory.refresh', () => {
      tree.refresh();
      return tree.shownItems();
    }),
    registerCommand('apiWorkbench.directory.filter', async (given?: unknown) => {
      // Menus pass no argument; a string skips the prompt (scripts and tests).
      const text =
        typeof given === 'string'
          ? given
          : await vscode.window.showInputBox({
              prompt: vscode.l10n.t('Show APIs whose name, title, version or description contains…'),
              value: tree.filter.text,
            });
      if (text !== undefined) tree.setFilter({ text: text.trim() });
      return tree.shownItems();
    }),
    ...(__TEST_SEAMS__ && services.context.extensionMode === vscode.ExtensionMode.Test
      ? [
          // What the view shows: each row's label and the command a click runs.
          registerCommand('apiWorkbench.directory._testChildren', async () =>
            (await tree.getChildren()).map((n) => {
              const t = tree.getTreeItem(n);
              return { label: t.label, command: t.command?.command };
            }),
          ),
        ]
      : []),
    registerCommand('apiWorkbench.directory.clearFilter', () => {
      tree.setFilter({ text: '', preferredOnly: false });
      return tree.shownItems();
    }),
    registerCommand('apiWorkbench.directory.preferredOnly', () => {
      tree.setFilter({ preferredOnly: true });
      return tree.shownItems();
    }),
    registerCommand('apiWorkbench.directory.allVersions', () => {
      tree.setFilter({ preferredOnly: false });
      return tree.shownItems();
    }),
    registerCommand('apiWorkbench.directory.open', async (arg?: unknown) => {
      const item = await itemOf(arg, tree);
      if (!item) return undefined;
      try {
        const doc = await openItem(item);
        markWalkthroughStep(DOCUMENT_OPENED);
        return doc;
      } catch (err) {
        fail(err);
        return undefined;
      }
    }),
    registerCommand('apiWorkbench.directory.save', async (arg?: unknown, target?: unknown) => {
      const item = await itemOf(arg, tree);
      if (!item) return undefined;
      // The view never passes a target; only callers that already know where the file goes do.
      const chosen = target instanceof vscode.Uri ? target : undefined;
      try {
        return await saveItem(item, chosen);
      } catch (err) {
        fail(err);
        return undefined;
      }
    }),
  ];
}
