// Storage feature adapter: the tree view (with drag and drop), the `store:` file system, revision
// documents, comments, context-menu commands, change-feed polling, and the test hooks host tests drive.
import * as vscode from 'vscode';
import type { FeatureRegistration, WorkbenchServices } from '../../platform/services';
import type { File } from '../../shared/wire/storage';
import { ChangeFeed } from '../core/changeFeed';
import { ChangeWatcher } from '../core/changeWatcher';
import type { TreeEntry } from '../core/tree';
import { aboutLine, folderIdOf, registerCommands, uploadPath } from './commands';
import { StoreComments } from './comments';
import { StorageConnection } from './connection';
import { registerStorageAuth } from './authProvider';
import { REVISION_SCHEME, RevisionContentProvider, STORE_SCHEME, StoreFileSystemProvider, type ConflictChoice } from './fileSystemProvider';
import { STORAGE_VIEW_ID, StorageTreeProvider } from './treeProvider';

const DETAILS_SCHEME = 'store-details';
const TREE_MIME = 'application/vnd.code.tree.apiworkbench.storage';

/** Plain data of a node, for host tests (no vscode objects cross the command boundary). */
export interface TestNode {
  key: string;
  type: TreeEntry['type'];
  label: string;
  description?: string;
  tooltip?: string;
  contextValue: string;
  icon: string;
  collapsible: boolean;
  id?: string;
  mimeType?: string;
}

export const register: FeatureRegistration = (services: WorkbenchServices) => {
  const auth = registerStorageAuth(services.endpoints, services.context.secrets);
  const connection = new StorageConnection(services.endpoints, auth.provider);
  const provider = new StorageTreeProvider(connection, services.log);
  const fsp = new StoreFileSystemProvider(connection);
  const config = () => vscode.workspace.getConfiguration('apiWorkbench.storage');

  // Read-only JSON documents (details, app info), kept in memory by URI.
  const details = new Map<string, string>();
  const detailsProvider: vscode.TextDocumentContentProvider = { provideTextDocumentContent: (uri) => details.get(uri.toString()) ?? '' };
  const showJson = async (title: string, value: unknown) => {
    const uri = vscode.Uri.from({ scheme: DETAILS_SCHEME, path: `/${title.replace(/[\\/]/g, '_')}.json`, query: String(Date.now()) });
    details.set(uri.toString(), JSON.stringify(value, null, 2));
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(doc, 'json');
    await vscode.window.showTextDocument(doc, { preview: true });
  };

  const dnd: vscode.TreeDragAndDropController<TreeEntry> = {
    dragMimeTypes: [TREE_MIME],
    dropMimeTypes: [TREE_MIME, 'text/uri-list'],
    handleDrag(source, data) {
      data.set(TREE_MIME, new vscode.DataTransferItem(source.filter((s) => s.type === 'file')));
    },
    async handleDrop(target, data, token) {
      const targetFolder = folderIdOf(target) ?? (target?.type === 'file' ? folderIdOf(provider.getParent(target)) : undefined);
      if (!targetFolder) return;
      const client = await connection.client();
      const internal = data.get(TREE_MIME)?.value as TreeEntry[] | undefined;
      if (internal?.length) {
        // Move: add the new parent, drop the one the item was dragged from.
        for (const e of internal) {
          if (e.type !== 'file' || !e.file.id) continue;
          const from = folderIdOf(provider.getParent(e));
          if (from === targetFolder || e.file.id === targetFolder) continue;
          await client.call<File>('files.patch', { fileId: e.file.id, addParents: targetFolder, removeParents: from === 'root' ? undefined : from, supportsAllDrives: true }, { body: {} }).catch((err: Error) => void vscode.window.showErrorMessage(`Moving "${e.file.title}" failed: ${err.message}`));
        }
        provider.refresh(undefined);
        return;
      }
      const list = await data.get('text/uri-list')?.asString();
      const paths = (list ?? '').split(/\r?\n/).filter((l) => l && !l.startsWith('#')).map((l) => vscode.Uri.parse(l)).filter((u) => u.scheme === 'file').map((u) => u.fsPath);
      if (!paths.length) return;
      await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Uploading', cancellable: true }, async (progress, ct) => {
        const abort = new AbortController();
        ct.onCancellationRequested(() => abort.abort());
        token.onCancellationRequested(() => abort.abort());
        for (const p of paths) await uploadPath(client, p, targetFolder, abort.signal, (m) => progress.report({ message: m }));
      });
      provider.refresh(target);
    },
  };
  const view = vscode.window.createTreeView(STORAGE_VIEW_ID, { treeDataProvider: provider, showCollapseAll: true, canSelectMany: true, dragAndDropController: dnd });

  // About (user, quota) in the view's description, refreshed with the tree.
  const showAbout = async () => {
    try {
      view.description = aboutLine(await (await connection.client()).about('name,user(displayName,emailAddress),quotaBytesUsed,quotaBytesTotal'));
    } catch {
      view.description = undefined;
    }
  };
  void showAbout();

  // Change feed: refresh only what changed; editors of changed files get change events.
  let feed: ChangeFeed | undefined;
  let watcher: ChangeWatcher | undefined;
  const startFeed = async () => {
    feed?.stop();
    feed = undefined;
    void watcher?.stop();
    watcher = undefined;
    const seconds = config().get<number>('changePollSeconds') ?? 30;
    try {
      feed = new ChangeFeed(await connection.client());
      await feed.init();
      feed.onChanges((batch) => {
        void provider.getModel().then((m) => m.applyChanges(batch));
        void fsp.changed(batch.fileIds, batch.parentIds);
        void showAbout();
      });
      if (seconds > 0) feed.start(seconds * 1000, (e) => services.log.warn(`storage: change poll failed: ${(e as Error)?.message ?? e}`));
      // The sandbox can reach a loopback receiver: changes arrive at once instead of at the next poll.
      if ((await connection.endpoint()).sandbox) {
        const current = feed;
        watcher = new ChangeWatcher(await connection.client(), (state) => {
          if (state !== 'sync') void current.poll().catch(() => undefined);
        });
        const start = await (await connection.client()).call<{ startPageToken: string }>('changes.getStartPageToken', {});
        await watcher.start(start.startPageToken).catch((e: Error) => services.log.warn(`storage: change watch unavailable: ${e.message}`));
      }
    } catch (e) {
      services.log.warn(`storage: change feed unavailable: ${(e as Error)?.message ?? e}`);
    }
  };
  void startFeed();

  const comments = new StoreComments(() => connection.client(), fsp);

  /** Walks the tree by labels from the roots (e.g. ['My files', 'Projects']). */
  const walk = async (labels: string[]): Promise<TreeEntry | undefined> => {
    const model = await provider.getModel();
    let current: TreeEntry | undefined;
    for (const [i, label] of labels.entries()) {
      const kids = await model.children(current);
      current = kids.find((k) => model.present(k).label === label);
      if (!current) throw new Error(`No node "${label}" under ${labels.slice(0, i).join(' / ') || 'the roots'}`);
    }
    return current;
  };
  const toTestNode = async (e: TreeEntry): Promise<TestNode> => {
    const p = (await provider.getModel()).present(e);
    return {
      key: e.key, type: e.type, label: p.label, description: p.description, tooltip: p.tooltip, contextValue: p.contextValue, icon: p.icon, collapsible: p.collapsible,
      ...(e.type === 'file' ? { id: e.file.id, mimeType: e.file.mimeType } : {}),
    };
  };
  let conflictPrompts = 0;

  const resetAll = () => {
    connection.reset();
    provider.reset();
    fsp.reset();
    void showAbout();
    void startFeed();
  };
  return [
    ...auth.disposables,
    view,
    provider,
    fsp,
    comments,
    vscode.workspace.registerFileSystemProvider(STORE_SCHEME, fsp, { isCaseSensitive: true }),
    vscode.workspace.registerTextDocumentContentProvider(REVISION_SCHEME, new RevisionContentProvider(connection)),
    vscode.workspace.registerTextDocumentContentProvider(DETAILS_SCHEME, detailsProvider),
    ...registerCommands({ client: () => connection.client(), tree: provider, log: services.log, showJson }),
    vscode.commands.registerCommand('apiWorkbench.storage.refresh', (e?: TreeEntry) => {
      provider.refresh(e);
      void showAbout();
    }),
    vscode.commands.registerCommand('apiWorkbench.storage.loadMore', (e: TreeEntry) => provider.loadMore(e)),
    auth.provider.onDidChangeSessions(() => resetAll()),
    vscode.commands.registerCommand('apiWorkbench.storage.pollChanges', async () => (await feed?.poll())?.changes.length ?? 0),
    services.endpoints.onDidChange((id) => {
      if (id === 'storage') resetAll();
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('apiWorkbench.storage.changePollSeconds')) void startFeed();
      if (e.affectsConfiguration('apiWorkbench.storage.servicePath') || e.affectsConfiguration('apiWorkbench.storage.oauth')) resetAll();
    }),
    new vscode.Disposable(() => {
      feed?.stop();
      void watcher?.stop();
    }),
    vscode.commands.registerCommand('apiWorkbench.storage._testWatchNotifications', () => watcher?.received ?? -1),

    // ---- test hooks (not contributed; host tests call them) ----
    vscode.commands.registerCommand('apiWorkbench.storage._testChildren', async (labels: string[] = []) => {
      const node = await walk(labels);
      const kids = await provider.getChildren(node);
      return Promise.all(kids.map(toTestNode));
    }),
    vscode.commands.registerCommand('apiWorkbench.storage._testLoadMore', async (labels: string[] = []) => {
      const node = await walk(labels);
      const kids = await provider.getChildren(node);
      const more = kids.find((k) => k.type === 'loadMore');
      if (more) await provider.loadMore(more);
      return Promise.all((await provider.getChildren(node)).map(toTestNode));
    }),
    /** Runs a storage command on the node at a label path: `_testRun(['My files','Projects'], 'newFolder', 'X')`. */
    vscode.commands.registerCommand('apiWorkbench.storage._testRun', async (labels: string[], command: string, ...args: unknown[]) => {
      const node = await walk(labels);
      const result = await vscode.commands.executeCommand(`apiWorkbench.storage.${command}`, node, ...args);
      return JSON.parse(JSON.stringify(result ?? null));
    }),
    vscode.commands.registerCommand('apiWorkbench.storage._testUri', async (labels: string[]) => {
      const node = await walk(labels);
      if (node?.type !== 'file' || !node.file.id) throw new Error('not a file');
      return vscode.Uri.from({ scheme: STORE_SCHEME, path: `/${node.file.id}/${(await provider.getModel()).present(node).label.replace(/\//g, '\u2215')}` }).toString();
    }),
    vscode.commands.registerCommand('apiWorkbench.storage._testConflictChoice', (choice: ConflictChoice) => {
      fsp.prompt = async () => {
        conflictPrompts++;
        return choice;
      };
      return true;
    }),
    vscode.commands.registerCommand('apiWorkbench.storage._testConflictPrompts', () => conflictPrompts),
    vscode.commands.registerCommand('apiWorkbench.storage._testClient', async (method: string, params: Record<string, string>, body?: unknown) => (await connection.client()).call(method, params, { body })),
    vscode.commands.registerCommand('apiWorkbench.storage._testFaults', async (body: unknown) => (await connection.client()).transport.json({ method: 'POST', path: '__sandbox/faults', json: body })),
    vscode.commands.registerCommand('apiWorkbench.storage._testViewDescription', () => view.description),
  ];
};
