// Maps the editor-free tree model onto a VS Code TreeDataProvider. All decisions (what to list,
// in which order, how a node reads) live in the core; this file only translates.
import * as vscode from 'vscode';
import type { Search } from '../core/search';
import { StorageTreeModel, type TreeEntry } from '../core/tree';
import type { StorageConnection } from './connection';

export const STORAGE_VIEW_ID = 'apiWorkbench.storage';
export const CONNECT_ERROR_CONTEXT = 'apiWorkbench.storage.connectError';
/** True while search results show (the view title offers Clear Search). */
const SEARCHING_CONTEXT = 'apiWorkbench.storage.searching';

/** Values of the connect-error context key; each has its own line in the welcome content. */
export type ConnectErrorKind = 'refused' | 'notFound' | 'unreachable' | 'failed';

function connectErrorKind(code: string): ConnectErrorKind {
  return code === 'ECONNREFUSED' ? 'refused' : code === 'ENOTFOUND' ? 'notFound' : 'unreachable';
}

export class StorageTreeProvider implements vscode.TreeDataProvider<TreeEntry>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TreeEntry | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private model: StorageTreeModel | undefined;
  private unsubscribe: (() => void) | undefined;
  /** Last connection problem, shown by the view's welcome content. */
  connectError: string | undefined;
  /** The connect error and the context key's value, as the welcome content sees them. */
  get connectErrorState(): { message?: string; kind: ConnectErrorKind | false } {
    return { message: this.connectError, kind: this.connectError ? this.connectErrorKind : false };
  }
  private connectErrorKind: ConnectErrorKind = 'failed';
  /** The view showing this tree, whose description names an unreachable host. */
  view: vscode.TreeView<TreeEntry> | undefined;

  constructor(
    private readonly connection: StorageConnection,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  async getModel(): Promise<StorageTreeModel> {
    if (!this.model) {
      const client = await this.connection.client();
      const pageSize = vscode.workspace.getConfiguration('apiWorkbench.storage').get<number>('pageSize') ?? 100;
      this.model = new StorageTreeModel(client, { pageSize: Math.min(1000, Math.max(1, pageSize)) });
      this.unsubscribe = this.model.onDidChange((key) => this.changed.fire(key ? this.model?.entry(key) : undefined));
    }
    return this.model;
  }

  get activeSearch(): Search | undefined {
    return this.model?.activeSearch;
  }

  async setSearch(search: Search | undefined): Promise<void> {
    const model = await this.getModel();
    model.setSearch(search);
    await vscode.commands.executeCommand('setContext', SEARCHING_CONTEXT, model.activeSearch !== undefined);
  }

  /** Scrolls the results root into view, expanded, so a search from the title bar shows what it found. */
  async revealSearch(): Promise<void> {
    const root = (await this.getChildren()).find((e) => e.type === 'root' && e.root === 'search');
    if (root && this.view?.visible) await this.view.reveal(root, { expand: true, select: false, focus: false });
  }

  /** Drops the model (endpoint or credential changed) and redraws from the roots. */
  reset(): void {
    this.unsubscribe?.();
    this.model = undefined;
    this.connection.reset();
    void vscode.commands.executeCommand('setContext', SEARCHING_CONTEXT, false);
    this.changed.fire(undefined);
  }

  refresh(entry?: TreeEntry): void {
    if (!this.model) return this.changed.fire(undefined);
    const key = entry ? (entry.type === 'file' && !entry.folder ? entry.parentKey : entry.key) : undefined;
    this.model.refresh(key);
  }

  async getChildren(element?: TreeEntry): Promise<TreeEntry[]> {
    let model: StorageTreeModel;
    try {
      model = await this.getModel();
      // The roots alone would hide a dead endpoint: an empty root list lets the welcome view say why.
      const unreachable = element ? undefined : await model.unreachable();
      if (unreachable) {
        this.log.warn(`storage: ${unreachable.message}`);
        await this.setConnectError(unreachable.message, connectErrorKind(unreachable.code));
        return [];
      }
      await this.setConnectError(undefined);
    } catch (e) {
      const message = (e as Error)?.message ?? String(e);
      this.log.warn(`storage: cannot connect: ${message}`);
      await this.setConnectError(message, 'failed');
      return [];
    }
    return model.children(element);
  }

  getTreeItem(e: TreeEntry): vscode.TreeItem {
    const p = this.model!.present(e);
    const item = new vscode.TreeItem(
      p.label,
      p.collapsible
        ? e.type === 'root' && (e.root === 'myFiles' || e.root === 'search')
          ? vscode.TreeItemCollapsibleState.Expanded
          : vscode.TreeItemCollapsibleState.Collapsed
        : vscode.TreeItemCollapsibleState.None,
    );
    item.id = e.key;
    item.description = p.description;
    item.tooltip = p.tooltip;
    item.contextValue = p.contextValue;
    item.iconPath = new vscode.ThemeIcon(p.icon);
    if (e.type === 'loadMore') {
      item.command = { command: 'apiWorkbench.storage.loadMore', title: 'Load more', arguments: [e] };
    } else if (e.type === 'message' && e.key === 'search/#empty') {
      item.command = { command: 'apiWorkbench.storage.clearSearch', title: vscode.l10n.t('Clear Search') };
    } else if (e.type === 'file' && !e.folder) {
      item.command = { command: 'apiWorkbench.storage.open', title: 'Open', arguments: [e] };
    }
    return item;
  }

  getParent(e: TreeEntry): TreeEntry | undefined {
    return e.type === 'root' ? undefined : this.model?.entry(e.parentKey);
  }

  async loadMore(e: TreeEntry): Promise<void> {
    if (e.type !== 'loadMore') return;
    await (await this.getModel()).loadMore(e.parentKey);
  }

  private async setConnectError(message: string | undefined, kind: ConnectErrorKind = 'failed'): Promise<void> {
    if (this.connectError === message) return;
    this.connectError = message;
    this.connectErrorKind = kind;
    // The welcome content picks its one-line reason by this value; the view's description names the host
    // alone when the welcome line already says what went wrong (a longer description is cut off in a
    // side bar's width, and the address is what the user needs to check).
    await vscode.commands.executeCommand('setContext', CONNECT_ERROR_CONTEXT, message ? kind : false);
    if (this.view && message) {
      const where = message.replace(/^Could not reach the storage service at /, '');
      this.view.description = kind === 'failed' ? where : where.replace(/: .*$/s, '');
    }
  }

  dispose(): void {
    this.unsubscribe?.();
    this.changed.dispose();
  }
}
