// The reference preview: a webview beside the editor that renders the API and follows the cursor.
// The page is its own bundle (src/discovery/webview) speaking src/discovery/protocol.ts.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { anchorForPath, nodeAt, nodeAtOffset, pathOf, renderPreviewBody } from '../core';
import { PREVIEW_VIEW_TYPE, type PreviewHostToWebview, type PreviewPath, type PreviewWebviewToHost } from '../protocol';
import type { DiscoveryDocuments } from './documents';

/** The page shell: a strict CSP with a per-load nonce; script and CSS are the extension's own files. */
function shellHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const nonce = randomBytes(16).toString('base64');
  const script = webview
    .asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', 'discoveryPreview.js'))
    .toString();
  const css = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'discovery', 'preview.css')).toString();
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource}`,
    `script-src 'nonce-${nonce}'`,
    `img-src ${webview.cspSource}`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${css}">
<title>API Preview</title>
</head>
<body>
<div id="content"></div>
<script nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
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

  constructor(
    private readonly documents: DiscoveryDocuments,
    private readonly extensionUri: vscode.Uri,
  ) {
    this.subscriptions.push(
      vscode.window.onDidChangeTextEditorSelection((e) => {
        if (this.panel && e.textEditor.document === this.doc)
          this.revealAt(e.textEditor.document, e.selections[0].active);
      }),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (this.panel && e.document === this.doc) {
          clearTimeout(this.timer);
          // Rendering a 4 MB document's preview takes a few hundred ms: wait for a longer pause there.
          this.timer = setTimeout(() => this.render(), e.document.getText().length > 1_000_000 ? 2000 : 500);
        }
      }),
    );
  }

  /** Opens (or retargets) the preview for a document; returns the panel for tests. */
  show(doc: vscode.TextDocument): vscode.WebviewPanel | undefined {
    if (!this.documents.get(doc)?.model) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('The preview needs a discovery document (a JSON file with "kind": "discovery#restDescription").'),
      );
      return undefined;
    }
    this.doc = doc;
    if (!this.panel) {
      const root = this.extensionUri;
      const panel = vscode.window.createWebviewPanel(
        PREVIEW_VIEW_TYPE,
        'API Preview',
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        {
          enableScripts: true,
          localResourceRoots: [
            vscode.Uri.joinPath(root, 'dist', 'webview'),
            vscode.Uri.joinPath(root, 'media', 'discovery'),
          ],
        },
      );
      this.panel = panel;
      this.ready = false;
      panel.onDidDispose(() => {
        this.panel = undefined;
        this.doc = undefined;
      });
      panel.webview.onDidReceiveMessage((m: PreviewWebviewToHost) => this.onMessage(m));
      panel.webview.html = shellHtml(panel.webview, root);
    }
    this.renderedVersion = -1;
    this.render();
    this.panel.reveal(vscode.ViewColumn.Beside, true);
    return this.panel;
  }

  private onMessage(m: PreviewWebviewToHost): void {
    if (m?.type === 'ready') {
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
    void this.panel?.webview.postMessage(m);
  }

  private render(): void {
    const doc = this.doc;
    const panel = this.panel;
    if (!doc || !panel || doc.version === this.renderedVersion) return;
    const model = this.documents.get(doc)?.model;
    if (!model) return;
    panel.title = `Preview: ${typeof model.root.title === 'string' ? model.root.title : 'API'}`;
    if (!this.ready) return;
    this.renderedVersion = doc.version;
    this.post({ type: 'render', html: renderPreviewBody(model) });
  }

  private revealAt(doc: vscode.TextDocument, pos: vscode.Position): void {
    const a = this.documents.get(doc);
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
    const tree = doc && this.documents.get(doc)?.parsed.tree;
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
    this.panel?.dispose();
    for (const d of this.subscriptions) d.dispose();
  }
}

export function registerPreview(documents: DiscoveryDocuments, context: vscode.ExtensionContext): vscode.Disposable[] {
  const preview = new DiscoveryPreview(documents, context.extensionUri);
  return [
    preview,
    // Test seam: what the page's `goto` message does (a click inside the webview cannot be driven from the host).
    ...(__TEST_SEAMS__ && context.extensionMode === vscode.ExtensionMode.Test
      ? [
          vscode.commands.registerCommand(
            'apiWorkbench._testDiscoveryPreviewGoto',
            (path: PreviewPath, keep: boolean) => preview.goto(path, keep),
          ),
        ]
      : []),
    vscode.commands.registerCommand('apiWorkbench.discovery.showPreview', (uri?: vscode.Uri) => {
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
