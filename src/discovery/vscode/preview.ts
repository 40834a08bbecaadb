// The reference preview: a webview beside the editor that renders the API and follows the cursor.
import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import { anchorForPath, nodeAt, nodeAtOffset, pathOf, renderPreviewBody } from '../core';
import type { DiscoveryDocuments } from './documents';

const STYLE = `
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); padding: 0 16px 40px; }
h1 { margin-bottom: 0; } .meta, .id, small { color: var(--vscode-descriptionForeground); }
h3 { border-bottom: 1px solid var(--vscode-panel-border); padding-top: 8px; }
.method, .schema { padding: 6px 8px; margin: 6px 0; border-left: 3px solid transparent; }
.current { border-left-color: var(--vscode-focusBorder); background: var(--vscode-editor-inactiveSelectionBackground); }
.deprecated h4 .url { text-decoration: line-through; }
.verb { font-weight: bold; padding: 0 4px; border-radius: 3px; color: var(--vscode-badge-foreground); background: var(--vscode-badge-background); }
.url { font-family: var(--vscode-editor-font-family); cursor: pointer; }
table { border-collapse: collapse; margin: 4px 0; } td, th { text-align: left; padding: 2px 8px 2px 0; vertical-align: top; }
a.ref { color: var(--vscode-textLink-foreground); }
.desc { white-space: pre-wrap; margin: 4px 0; }
`;

const SCRIPT = `
const vscode = acquireVsCodeApi();
let current;
window.addEventListener('message', (e) => {
  const m = e.data;
  if (m.type === 'reveal') {
    const el = document.getElementById(m.anchor);
    if (!el) return;
    if (current) current.classList.remove('current');
    el.classList.add('current');
    current = el;
    el.scrollIntoView({ block: 'nearest' });
  }
});
document.addEventListener('click', (e) => {
  const target = e.target.closest('h4');
  if (!target) return;
  const holder = target.closest('[data-path]');
  if (holder) vscode.postMessage({ type: 'goto', path: JSON.parse(holder.dataset.path) });
});
`;

export class DiscoveryPreview implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private doc: vscode.TextDocument | undefined;
  private renderedVersion = -1;
  private readonly subscriptions: vscode.Disposable[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly documents: DiscoveryDocuments) {
    this.subscriptions.push(
      vscode.window.onDidChangeTextEditorSelection((e) => {
        if (this.panel && e.textEditor.document === this.doc) this.revealAt(e.textEditor.document, e.selections[0].active);
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
      void vscode.window.showInformationMessage('The preview needs a discovery document (a JSON file with "kind": "discovery#restDescription").');
      return undefined;
    }
    this.doc = doc;
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel('apiWorkbench.discoveryPreview', 'API Preview', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, { enableScripts: true, localResourceRoots: [] });
      this.panel.onDidDispose(() => { this.panel = undefined; this.doc = undefined; });
      this.panel.webview.onDidReceiveMessage((m: { type?: string; path?: (string | number)[] }) => {
        if (m.type === 'goto' && Array.isArray(m.path)) void this.goto(m.path);
      });
    }
    this.renderedVersion = -1;
    this.render();
    this.panel.reveal(vscode.ViewColumn.Beside, true);
    return this.panel;
  }

  private render(): void {
    const doc = this.doc;
    const panel = this.panel;
    if (!doc || !panel || doc.version === this.renderedVersion) return;
    const model = this.documents.get(doc)?.model;
    if (!model) return;
    this.renderedVersion = doc.version;
    const nonce = randomBytes(16).toString('base64');
    panel.title = `Preview: ${typeof model.root.title === 'string' ? model.root.title : 'API'}`;
    panel.webview.html = `<!DOCTYPE html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}';">
<style nonce="${nonce}">${STYLE}</style></head><body>${renderPreviewBody(model)}<script nonce="${nonce}">${SCRIPT}</script></body></html>`;
  }

  private revealAt(doc: vscode.TextDocument, pos: vscode.Position): void {
    const a = this.documents.get(doc);
    const tree = a?.parsed.tree;
    if (!a?.model || !tree) return;
    const n = nodeAtOffset(tree, doc.offsetAt(pos));
    if (n < 0) return;
    const anchor = anchorForPath(a.model, pathOf(tree, n));
    if (anchor) void this.panel?.webview.postMessage({ type: 'reveal', anchor });
  }

  private async goto(path: (string | number)[]): Promise<void> {
    const doc = this.doc;
    const tree = doc && this.documents.get(doc)?.parsed.tree;
    if (!doc || !tree) return;
    const n = nodeAt(tree, path);
    if (n < 0) return;
    const start = doc.positionAt(tree.keyStart[n] >= 0 ? tree.keyStart[n] : tree.start[n]);
    const editor = await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, preserveFocus: false });
    editor.selection = new vscode.Selection(start, start);
    editor.revealRange(new vscode.Range(start, start), vscode.TextEditorRevealType.InCenter);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.panel?.dispose();
    for (const d of this.subscriptions) d.dispose();
  }
}

export function registerPreview(documents: DiscoveryDocuments): vscode.Disposable[] {
  const preview = new DiscoveryPreview(documents);
  return [
    preview,
    vscode.commands.registerCommand('apiWorkbench.discovery.showPreview', (uri?: vscode.Uri) => {
      const doc = uri ? vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString()) : vscode.window.activeTextEditor?.document;
      if (!doc) {
        void vscode.window.showInformationMessage('Open a discovery document first.');
        return undefined;
      }
      return preview.show(doc) !== undefined;
    }),
  ];
}
