// Storage feature adapter: the tree view (with drag and drop), the `store:` file system, revision
// documents, comments, context-menu commands, change-feed polling, and the test hooks host tests drive.
import * as vscode from 'vscode';
import type { FeatureRegistration, WorkbenchServices } from '../../platform/services';
import { ChangeFeed } from '../core/changeFeed';
import { ChangeWatcher } from '../core/changeWatcher';
import type { TreeEntry } from '../core/tree';
import { aboutLine, registerCommands } from './commands';
import { storageDragAndDrop } from './dragAndDrop';
import { StoreComments } from './comments';
import { StorageConnection, oauthConfig } from './connection';
import { OAuthError, revokeToken, signIn } from '../core/oauth';
import { REVISION_SCHEME, RevisionContentProvider, STORE_SCHEME, StoreFileSystemProvider, type ConflictChoice } from './fileSystemProvider';
import { STORAGE_VIEW_ID, StorageTreeProvider } from './treeProvider';

const DETAILS_SCHEME = 'store-details';

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
  const connection = new StorageConnection(services.endpoints, services.context.secrets);
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

  const dnd = storageDragAndDrop(provider, () => connection.client());
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
        await watcher.start(await (await connection.client()).startPageToken()).catch((e: Error) => services.log.warn(`storage: change watch unavailable: ${e.message}`));
      }
    } catch (e) {
      services.log.warn(`storage: change feed unavailable: ${(e as Error)?.message ?? e}`);
    }
  };
  void startFeed();

  const comments = new StoreComments(() => connection.client(), fsp, __TEST_SEAMS__ && services.context.extensionMode === vscode.ExtensionMode.Test);

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
  /** Sign-in with the browser; `openBrowser` is replaceable so host tests can play the user. */
  const doSignIn = async (openBrowser?: (url: string) => Promise<unknown>) => {
    const endpoint = await connection.endpoint();
    const config = oauthConfig(endpoint);
    if (!config.clientId) {
      const pick = await vscode.window.showErrorMessage('Set an OAuth client id for the storage service first (setting "apiWorkbench.storage.oauth.clientId"), or paste an access token.', 'Open Settings', 'Paste Access Token');
      if (pick === 'Open Settings') await vscode.commands.executeCommand('workbench.action.openSettings', 'apiWorkbench.storage.oauth');
      if (pick === 'Paste Access Token') await vscode.commands.executeCommand('apiWorkbench.setCredential');
      return false;
    }
    try {
      const tokens = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Signing in to storage: finish in your browser…', cancellable: true }, (_p, token) => {
        const abort = new AbortController();
        token.onCancellationRequested(() => abort.abort());
        return signIn(config, { openBrowser: openBrowser ?? ((url) => vscode.env.openExternal(vscode.Uri.parse(url))), signal: abort.signal });
      });
      await connection.tokens.save(tokens);
      resetAll();
      const about = await (await connection.client()).about('user(displayName,emailAddress)').catch(() => undefined);
      void vscode.window.showInformationMessage(`Signed in to storage${about?.user ? ` as ${about.user.displayName} <${about.user.emailAddress}>` : ''}.`);
      return true;
    } catch (e) {
      const message = e instanceof OAuthError ? e.message : (e as Error)?.message ?? String(e);
      void vscode.window.showErrorMessage(`Sign-in failed: ${message}`);
      return false;
    }
  };

  return [
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
    vscode.commands.registerCommand('apiWorkbench.storage.signIn', () => doSignIn()),
    vscode.commands.registerCommand('apiWorkbench.storage.signOut', async () => {
      const tokens = await connection.tokens.load();
      if (tokens) {
        const config = oauthConfig(await connection.endpoint());
        await revokeToken(config, tokens.refreshToken ?? tokens.accessToken);
      }
      await connection.tokens.save(undefined);
      resetAll();
      return true;
    }),
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
    // ---- test hooks (not contributed; host tests call them; only under test, never in the production build) ----
    ...(__TEST_SEAMS__ && services.context.extensionMode === vscode.ExtensionMode.Test ? [
    vscode.commands.registerCommand('apiWorkbench.storage._testWatchNotifications', () => watcher?.received ?? -1),
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
    vscode.commands.registerCommand('apiWorkbench.storage._testClient', async (method: string, params: Record<string, string>, body?: unknown) => (await connection.client()).callById(method, params, body)),
    vscode.commands.registerCommand('apiWorkbench.storage._testFaults', async (body: unknown) => (await connection.client()).transport.json({ method: 'POST', path: '__sandbox/faults', json: body })),
    vscode.commands.registerCommand('apiWorkbench.storage._testViewDescription', () => view.description),
    vscode.commands.registerCommand('apiWorkbench.storage._testSignedIn', () => connection.signedIn()),
    /** Signs in with a scripted browser that submits the sandbox's approve page with `decision`. */
    vscode.commands.registerCommand('apiWorkbench.storage._testSignIn', (decision: 'approve' | 'deny') =>
      doSignIn(async (url) => {
        const page = await (await fetch(url)).text();
        const form = new URLSearchParams();
        const unescape = (v: string) => v.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
        for (const m of page.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) form.set(unescape(m[1]), unescape(m[2]));
        form.set('decision', decision);
        const res = await fetch(new URL('/o/oauth2/v2/auth/decision', url), { method: 'POST', body: form, redirect: 'manual' });
        await fetch(res.headers.get('location') ?? '');
      }),
    ),
    ] : []),
  ];
};
