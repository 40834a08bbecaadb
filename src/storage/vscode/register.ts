// Storage feature adapter: the tree view (with drag and drop), the `store:` file system, revision
// documents, comments, context-menu commands, change-feed polling, and the test hooks host tests drive.
import * as vscode from 'vscode';
import type { FeatureRegistration, WorkbenchServices } from '../../platform/services';
import { ChangeFeed } from '../core/changeFeed';
import { ChangeWatcher } from '../core/changeWatcher';
import { filePath } from '../core/storePaths';
import type { TreeEntry } from '../core/tree';
import { storePathOf } from '../core/treePaths';
import { aboutLine, registerCommands, type CommandContext } from './commands';
import { storageDragAndDrop } from './dragAndDrop';
import { StoreComments } from './comments';
import { StorageConnection } from './connection';
import { registerStorageAuth } from './authProvider';
import {
  REVISION_SCHEME,
  RevisionContentProvider,
  STORE_SCHEME,
  StoreFileSystemProvider,
  type ConflictChoice,
} from './fileSystemProvider';
import { STORAGE_VIEW_ID, StorageTreeProvider } from './treeProvider';
import { registerCommand } from '../../platform/lazy/commandTable';
import { registerSync } from './sync/register';

const DETAILS_SCHEME = 'store-details';
const SIGNED_IN_CONTEXT = 'apiWorkbench.storage.signedIn';

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

export const register: FeatureRegistration = (services: WorkbenchServices, shell) => {
  const auth = registerStorageAuth(services.endpoints, services.context.secrets, shell);
  const connection = new StorageConnection(services.endpoints, auth.provider);
  const provider = new StorageTreeProvider(connection, services.log);
  const fsp = new StoreFileSystemProvider(connection);
  const config = () => vscode.workspace.getConfiguration('apiWorkbench.storage');

  // Read-only JSON documents (details, app info), kept in memory by URI.
  const details = new Map<string, string>();
  const detailsProvider: vscode.TextDocumentContentProvider = {
    provideTextDocumentContent: (uri) => details.get(uri.toString()) ?? '',
  };
  const showJson = async (title: string, value: unknown) => {
    const uri = vscode.Uri.from({
      scheme: DETAILS_SCHEME,
      path: `/${title.replace(/[\\/]/g, '_')}.json`,
      query: String(Date.now()),
    });
    details.set(uri.toString(), JSON.stringify(value, null, 2));
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(doc, 'json');
    await vscode.window.showTextDocument(doc, { preview: true });
  };

  const dnd = storageDragAndDrop(provider, () => connection.client());
  // The entry created the view (collapse all, multi-select, these drag mime types) and the `store:` file
  // system before this feature was loaded; both forward to what is handed over here.
  const view = shell.treeView(STORAGE_VIEW_ID, provider, dnd);
  shell.fileSystem(STORE_SCHEME, fsp);
  provider.view = view;
  // Revision and details documents come back with a restored window, before storage is loaded: the entry
  // registered their schemes too.
  shell.textDocumentContent(REVISION_SCHEME, new RevisionContentProvider(connection));
  shell.textDocumentContent(DETAILS_SCHEME, detailsProvider);

  // About (user, quota) in the view's description, refreshed with the tree.
  const showAbout = async () => {
    try {
      view.description = aboutLine(
        await (await connection.client()).about('name,user(displayName,emailAddress),quotaBytesUsed,quotaBytesTotal'),
      );
    } catch {
      // An unreachable endpoint: the tree names its address there (whichever of the two fails last).
      if (!provider.connectError) view.description = undefined;
    }
  };

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
      // One start page token for the feed and the watcher: asking twice was a duplicate request.
      const startToken = await feed.init();
      feed.onChanges((batch) => {
        void provider.getModel().then((m) => m.applyChanges(batch));
        void fsp.changed(batch.fileIds, batch.parentIds);
        void showAbout();
        sync.storeChanged();
      });
      if (seconds > 0)
        feed.start(seconds * 1000, (e) =>
          services.log.warn(`storage: change poll failed: ${(e as Error)?.message ?? e}`),
        );
      // The sandbox can reach a loopback receiver: changes arrive at once instead of at the next poll.
      if ((await connection.endpoint()).sandbox) {
        const current = feed;
        watcher = new ChangeWatcher(await connection.client(), (state) => {
          if (state !== 'sync') void current.poll().catch(() => undefined);
        });
        await watcher
          .start(startToken)
          .catch((e: Error) => services.log.warn(`storage: change watch unavailable: ${e.message}`));
      }
    } catch (e) {
      services.log.warn(`storage: change feed unavailable: ${(e as Error)?.message ?? e}`);
    }
  };

  const comments = new StoreComments(
    () => connection.client(),
    fsp,
    __TEST_SEAMS__ && services.context.extensionMode === vscode.ExtensionMode.Test,
  );

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
      key: e.key,
      type: e.type,
      label: p.label,
      description: p.description,
      tooltip: p.tooltip,
      contextValue: p.contextValue,
      icon: p.icon,
      collapsible: p.collapsible,
      ...(e.type === 'file' ? { id: e.file.id, mimeType: e.file.mimeType } : {}),
    };
  };
  let conflictPrompts = 0;

  // Sign In and Sign Out are never offered together: the view title shows the one that applies.
  let signedIn = false;
  const updateSignedIn = async () => {
    signedIn = (await auth.provider.getSessions(undefined)).length > 0;
    await vscode.commands.executeCommand('setContext', SIGNED_IN_CONTEXT, signedIn);
  };

  // Loading the feature reaches no endpoint: resolving one may start the in-process sandbox, and the first
  // request makes VS Code's proxy support read the system's certificates, together more than loading the
  // feature costs. The about line, the change feed and the signed-in state start with the first use of the
  // connection (the tree's first children, a `store:` file, a command) and again after every reset.
  let live = false;
  connection.onConnect = () => {
    if (live) return;
    live = true;
    void showAbout();
    void startFeed();
    void updateSignedIn().catch(() => undefined);
  };

  /** After a change of endpoint, settings or session; if the connection was in use, it reconnects at once. */
  const resetAll = () => {
    const wasLive = live;
    live = false;
    connection.reset();
    provider.reset();
    fsp.reset();
    if (wasLive) void connection.client().catch(() => undefined);
  };
  const commandContext: CommandContext = {
    client: () => connection.client(),
    tree: provider,
    log: services.log,
    showJson,
    storeUri: async (e) => {
      if (e?.type !== 'file' || !e.file.id) return undefined;
      const path = storePathOf(await provider.getModel(), e) ?? filePath(e.file.id, e.file.title);
      // From Starred, Recent or a search: the file's folder path (the id path when it has none or the
      // walk fails: the file opens either way).
      const readable = await fsp
        .fs()
        .then((fs) => fs.readablePath(path))
        .catch(() => undefined);
      return fsp.uriFor(readable ?? path, e.file.id);
    },
    storeChanged: (fileIds, parentIds) => void fsp.changed(fileIds, parentIds),
  };
  const sync = registerSync(services, shell, commandContext);
  return [
    ...auth.disposables,
    provider,
    fsp,
    comments,
    ...registerCommands(commandContext),
    ...sync.disposables,
    registerCommand('apiWorkbench.storage.refresh', (e?: TreeEntry) => {
      provider.refresh(e);
      void showAbout();
    }),
    registerCommand('apiWorkbench.storage.loadMore', (e: TreeEntry) => provider.loadMore(e)),
    auth.provider.onDidChangeSessions(() => {
      resetAll();
      void updateSignedIn().catch(() => undefined);
    }),
    registerCommand('apiWorkbench.storage.pollChanges', async () => (await feed?.poll())?.changes.length ?? 0),
    services.endpoints.onDidChange((id) => {
      if (id === 'storage') resetAll();
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (live && e.affectsConfiguration('apiWorkbench.storage.changePollSeconds')) void startFeed();
      if (
        e.affectsConfiguration('apiWorkbench.storage.servicePath') ||
        e.affectsConfiguration('apiWorkbench.storage.oauth')
      )
        resetAll();
    }),
    new vscode.Disposable(() => {
      feed?.stop();
      void watcher?.stop();
    }),
    // ---- test hooks (not contributed; host tests call them; only under test, never in the production build) ----
    ...(__TEST_SEAMS__ && services.context.extensionMode === vscode.ExtensionMode.Test
      ? [
          registerCommand('apiWorkbench.storage._testWatchNotifications', () => watcher?.received ?? -1),
          registerCommand('apiWorkbench.storage._testChildren', async (labels: string[] = []) => {
            const node = await walk(labels);
            const kids = await provider.getChildren(node);
            return Promise.all(kids.map(toTestNode));
          }),
          registerCommand('apiWorkbench.storage._testLoadMore', async (labels: string[] = []) => {
            const node = await walk(labels);
            const kids = await provider.getChildren(node);
            const more = kids.find((k) => k.type === 'loadMore');
            if (more) await provider.loadMore(more);
            return Promise.all((await provider.getChildren(node)).map(toTestNode));
          }),
          /** Runs a storage command on the node at a label path: `_testRun(['My files','Projects'], 'newFolder', 'X')`. */
          registerCommand(
            'apiWorkbench.storage._testRun',
            async (labels: string[], command: string, ...args: unknown[]) => {
              const node = await walk(labels);
              const result = await vscode.commands.executeCommand(`apiWorkbench.storage.${command}`, node, ...args);
              const plain: unknown = JSON.parse(JSON.stringify(result ?? null));
              return plain;
            },
          ),
          /** Runs a storage command on a multi-selection, as the view does: the clicked node, then all selected. */
          registerCommand(
            'apiWorkbench.storage._testRunMany',
            async (paths: string[][], command: string, ...args: unknown[]) => {
              const nodes = await Promise.all(paths.map((labels) => walk(labels)));
              const result = await vscode.commands.executeCommand(
                `apiWorkbench.storage.${command}`,
                nodes[0],
                nodes,
                ...args,
              );
              const plain: unknown = JSON.parse(JSON.stringify(result ?? null));
              return plain;
            },
          ),
          registerCommand('apiWorkbench.storage._testUri', async (labels: string[]) => {
            const node = await walk(labels);
            if (node?.type !== 'file' || !node.file.id) throw new Error('not a file');
            return vscode.Uri.from({
              scheme: STORE_SCHEME,
              path: `/${node.file.id}/${(await provider.getModel()).present(node).label.replace(/\//g, '\u2215')}`,
            }).toString();
          }),
          registerCommand('apiWorkbench.storage._testConflictChoice', (choice: ConflictChoice) => {
            fsp.prompt = () => {
              conflictPrompts++;
              return Promise.resolve(choice);
            };
            return true;
          }),
          registerCommand('apiWorkbench.storage._testConflictPrompts', () => conflictPrompts),
          registerCommand(
            'apiWorkbench.storage._testClient',
            async (method: string, params: Record<string, string>, body?: unknown) =>
              (await connection.client()).callById(method, params, body),
          ),
          registerCommand('apiWorkbench.storage._testFaults', async (body: unknown) =>
            (await connection.client()).transport.json({ method: 'POST', path: '__sandbox/faults', json: body }),
          ),
          registerCommand('apiWorkbench.storage._testViewDescription', () => view.description),
          registerCommand('apiWorkbench.storage._testSignedInContext', async () => {
            await updateSignedIn();
            return signedIn;
          }),
          registerCommand('apiWorkbench.storage._testConnectError', () => provider.connectErrorState),
        ]
      : []),
  ];
};
