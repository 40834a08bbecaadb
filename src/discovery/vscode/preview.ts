// The reference preview: a webview beside the editor that renders the API and follows the cursor.
// The page is its own bundle (src/discovery/webview) speaking src/discovery/protocol.ts.
import * as vscode from 'vscode';
import { webviewHtml } from '../../platform/webviewHtml';
import { panelInPlaceOf } from '../../platform/panelTabs';
import { panelFrame, WebviewPage, type WebviewPageOptions } from '../../platform/webviewPage';

/** What a page hands the panel that replaces it, and (test mode only) how the next page loads. */
type PageCarry = Pick<WebviewPageOptions, 'reloadsDone' | 'silentLoads' | 'readyMs'>;
import { anchorForPath, nodeAt, nodeAtOffset, pathOf, renderPreviewBody } from '../core';
import {
  PREVIEW_VIEW_TYPE,
  type PreviewHostToWebview,
  type PreviewPageState,
  type PreviewPath,
  type PreviewWebviewToHost,
} from '../protocol';
import { textLength, type DiscoveryDocuments } from './documents';
import type { Endpoints, FeatureShell } from '../../platform/services';
import { isTryItMessage, TryItHost } from './tryIt';
import { registerCommand } from '../../platform/lazy/commandTable';

/** The page shell: the shared strict-CSP page with the preview's bundle and stylesheet. */
function shellHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  return webviewHtml(webview, extensionUri, {
    script: ['dist', 'webview', 'discoveryPreview.js'],
    css: ['media', 'discovery', 'preview.css'],
    title: 'API Preview',
    root: { id: 'content' },
  });
}

function panelOptions(root: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return {
    enableScripts: true,
    localResourceRoots: [vscode.Uri.joinPath(root, 'dist', 'webview'), vscode.Uri.joinPath(root, 'media', 'discovery')],
  };
}

function isPath(v: unknown): v is PreviewPath {
  return Array.isArray(v) && v.every((s) => typeof s === 'string' || typeof s === 'number');
}

export class DiscoveryPreview implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private doc: vscode.TextDocument | undefined;
  private renderedVersion = -1;
  /** The page posts `ready` once it listens; renders wait for it. */
  private ready = false;
  private readonly subscriptions: vscode.Disposable[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly tryIt: TryItHost;
  /** The panel's page and its watchdog. */
  private page: WebviewPage | undefined;
  /** Test mode only: how the next preview's page loads (a shorter watchdog wait, silent loads). */
  nextPage: PageCarry | undefined;
  /** Test seam: sees every message posted to the page. */
  onPost: ((m: PreviewHostToWebview) => void) | undefined;
  /** Test seam: what was posted since the seam last took it (undefined until a test asks). */
  recorded: PreviewHostToWebview[] | undefined;

  constructor(
    private readonly documents: DiscoveryDocuments,
    private readonly extensionUri: vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
    endpoints?: Endpoints,
  ) {
    this.tryIt = new TryItHost(endpoints);
    this.subscriptions.push(
      vscode.window.onDidChangeTextEditorSelection((e) => {
        if (this.panel && e.textEditor.document === this.doc)
          this.revealAt(e.textEditor.document, e.selections[0].active);
      }),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (this.panel && e.document === this.doc) {
          clearTimeout(this.timer);
          // Rendering a 4 MB document's preview takes a few hundred ms: wait for a longer pause there.
          this.timer = setTimeout(() => this.render(), textLength(e.document) > 1_000_000 ? 2000 : 500);
        }
      }),
    );
  }

  /** Opens (or retargets) the preview for a document; returns the panel for tests. */
  show(doc: vscode.TextDocument): vscode.WebviewPanel | undefined {
    if (!this.documents.index(doc)?.model) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('The preview needs a discovery document (a JSON file with "kind": "discovery#restDescription").'),
      );
      return undefined;
    }
    // Try it panels follow their own document's edits; another document's preview starts with none.
    if (doc !== this.doc) this.tryIt.closeAll();
    this.doc = doc;
    if (!this.panel) {
      const panel = vscode.window.createWebviewPanel(
        PREVIEW_VIEW_TYPE,
        'API Preview',
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        panelOptions(this.extensionUri),
      );
      this.adopt(panel);
    }
    this.renderedVersion = -1;
    this.render();
    this.panel?.reveal(vscode.ViewColumn.Beside, true);
    return this.panel;
  }

  /** Takes a panel over: one this class created, one VS Code restored after a reload, or a blank one's successor. */
  private adopt(panel: vscode.WebviewPanel, carried?: PageCarry): void {
    this.panel = panel;
    this.ready = false;
    const page = new WebviewPage(panelFrame(panel), {
      name: vscode.l10n.t('API preview'),
      html: (webview) => shellHtml(webview, this.extensionUri),
      log: this.log,
      replace: (c) => this.replace(panel, c),
      ...(carried ?? this.nextPage),
    });
    this.nextPage = undefined;
    this.page?.dispose();
    this.page = page;
    panel.onDidDispose(() => {
      page.dispose();
      if (this.panel !== panel) return;
      this.panel = undefined;
      this.page = undefined;
      this.doc = undefined;
      this.tryIt.closeAll();
    });
    panel.webview.onDidReceiveMessage((m: PreviewWebviewToHost) => void this.onMessage(m));
    page.load();
  }

  /**
   * A preview whose page stayed blank through the watchdog's reloads: the same document in a new panel in its
   * place (a new webview host frame); the old panel is closed (its page never showed, so no Try it form is lost).
   */
  private replace(old: vscode.WebviewPanel, carried: PageCarry): void {
    const doc = this.doc;
    // Like the preview itself, its replacement never takes the focus from the document being edited.
    const next = panelInPlaceOf(
      old,
      PREVIEW_VIEW_TYPE,
      panelOptions(this.extensionUri),
      vscode.ViewColumn.Beside,
      false,
    );
    old.dispose();
    this.doc = doc;
    this.adopt(next, carried);
    this.renderedVersion = -1;
    this.render();
  }

  /**
   * A preview left open when the window closed: it shows its document again (the page asks for its Try it
   * forms back once rendered). A document that is gone or no longer a description closes the panel, saying why.
   */
  async restore(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const source = (state as PreviewPageState | undefined)?.source;
    let doc: vscode.TextDocument | undefined;
    try {
      if (typeof source === 'string') doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(source, true));
    } catch {
      // Gone since: said below.
    }
    if (!doc || !this.documents.index(doc)?.model) {
      panel.dispose();
      if (typeof source === 'string')
        void vscode.window.showInformationMessage(
          vscode.l10n.t('The API preview of {0} was not restored: it is no longer a discovery document.', source),
        );
      return;
    }
    if (this.panel && this.panel !== panel) {
      // One preview at a time: the restored one replaces any opened meanwhile.
      this.panel.dispose();
    }
    panel.webview.options = panelOptions(this.extensionUri);
    this.doc = doc;
    this.adopt(panel);
    this.renderedVersion = -1;
    this.render();
  }

  /** Handles a message from the page; resolves when its answer is posted (Try it calls the network). */
  async onMessage(m: PreviewWebviewToHost): Promise<void> {
    if (m && isTryItMessage(m)) {
      const root = this.doc && this.documents.get(this.doc)?.model?.root;
      if (root)
        await this.tryIt
          .handle(m, root, (reply) => this.post(reply))
          .catch((e: unknown) => void vscode.window.showErrorMessage(vscode.l10n.t('Try it failed: {0}', String(e))));
    } else if (m?.type === 'ready') {
      if (this.page && !this.page.ready()) return;
      this.ready = true;
      this.renderedVersion = -1;
      this.render();
      const editor = vscode.window.activeTextEditor;
      if (editor && editor.document === this.doc) this.revealAt(editor.document, editor.selection.active);
    } else if (m?.type === 'goto' && isPath(m.path)) {
      this.goto(m.path, m.preserveFocus === true).catch(
        (e: unknown) =>
          void vscode.window.showErrorMessage(
            vscode.l10n.t('Cannot show the source: {0}', e instanceof Error ? e.message : String(e)),
          ),
      );
    }
  }

  private post(m: PreviewHostToWebview): void {
    this.onPost?.(m);
    this.recorded?.push(m);
    void this.panel?.webview.postMessage(m);
  }

  private render(): void {
    const doc = this.doc;
    const panel = this.panel;
    if (!doc || !panel || doc.version === this.renderedVersion) return;
    const model = this.documents.index(doc)?.model;
    if (!model) return;
    panel.title = `Preview: ${typeof model.root.title === 'string' ? model.root.title : 'API'}`;
    if (!this.ready) return;
    this.renderedVersion = doc.version;
    this.post({ type: 'render', html: renderPreviewBody(model), source: doc.uri.toString() });
    this.tryIt.refresh(model, (m) => this.post(m));
  }

  private revealAt(doc: vscode.TextDocument, pos: vscode.Position): void {
    const a = this.documents.index(doc);
    const tree = a?.parsed.tree;
    if (!a?.model || !tree) return;
    const n = nodeAtOffset(tree, doc.offsetAt(pos));
    if (n < 0) return;
    const anchor = anchorForPath(a.model, pathOf(tree, n));
    if (anchor && this.ready) this.post({ type: 'reveal', anchor });
  }

  /** Shows a path's source in the editor beside the preview; returns the editor (for tests). */
  async goto(path: PreviewPath, preserveFocus = false): Promise<vscode.TextEditor | undefined> {
    const doc = this.doc;
    const tree = doc && this.documents.index(doc)?.parsed.tree;
    if (!doc || !tree) return undefined;
    const n = nodeAt(tree, path);
    if (n < 0) return undefined;
    const start = doc.positionAt(tree.keyStart[n] >= 0 ? tree.keyStart[n] : tree.start[n]);
    const editor = await vscode.window.showTextDocument(doc, {
      viewColumn: vscode.ViewColumn.One,
      preserveFocus,
    });
    editor.selection = new vscode.Selection(start, start);
    editor.revealRange(new vscode.Range(start, start), vscode.TextEditorRevealType.InCenter);
    return editor;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.page?.dispose();
    this.panel?.dispose();
    for (const d of this.subscriptions) d.dispose();
  }
}

export function registerPreview(
  documents: DiscoveryDocuments,
  context: vscode.ExtensionContext,
  shell: FeatureShell,
  log: vscode.LogOutputChannel,
  endpoints?: Endpoints,
): vscode.Disposable[] {
  const preview = new DiscoveryPreview(documents, context.extensionUri, log, endpoints);
  // The entry registered the serializer (so a restored preview activates us); it hands restoring over now.
  shell.webviewPanelSerializer(PREVIEW_VIEW_TYPE, {
    deserializeWebviewPanel: (panel, state) => preview.restore(panel, state),
  });
  return [
    preview,
    // Test seam: what the page's `goto` message does (a click inside the webview cannot be driven from the host).
    ...(__TEST_SEAMS__ && context.extensionMode === vscode.ExtensionMode.Test
      ? [
          registerCommand('apiWorkbench._testDiscoveryPreviewGoto', (path: PreviewPath, keep: boolean) =>
            preview.goto(path, keep),
          ),
          // Test seam: a message as the page would send it; returns what the host posted back.
          registerCommand('apiWorkbench._testDiscoveryPreviewMessage', async (m: PreviewWebviewToHost) => {
            const posted: PreviewHostToWebview[] = [];
            preview.onPost = (p) => posted.push(p);
            try {
              await preview.onMessage(m);
            } finally {
              preview.onPost = undefined;
            }
            return posted;
          }),
          // Test seam: the next preview's page loads silently (`silentLoads` loads' ready unheard; watchdog wait `readyMs`).
          registerCommand('apiWorkbench._testDiscoveryPreviewSilent', (silentLoads: unknown, readyMs: unknown) => {
            if (typeof silentLoads !== 'number' || typeof readyMs !== 'number')
              throw new Error('_testDiscoveryPreviewSilent takes the number of silent loads and the wait in ms.');
            preview.nextPage = { silentLoads, readyMs };
          }),
          // Test seam: what the host posted to the page since the last call (renders and forms after an edit).
          registerCommand('apiWorkbench._testDiscoveryPreviewPosted', () => {
            const out = preview.recorded ?? [];
            preview.recorded = [];
            return out;
          }),
        ]
      : []),
    registerCommand('apiWorkbench.discovery.showPreview', (uri?: vscode.Uri) => {
      const doc = uri
        ? vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString())
        : vscode.window.activeTextEditor?.document;
      if (!doc) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Open a discovery document first.'));
        return undefined;
      }
      return preview.show(doc) !== undefined;
    }),
  ];
}
