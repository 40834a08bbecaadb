// The one page shell of our webviews: a strict CSP with a per-load nonce; script and CSS are the
// extension's own files (through asWebviewUri), nothing inline and nothing remote.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

export interface WebviewPage {
  /** Path segments of the script under the extension root. */
  script: string[];
  /** Path segments of the stylesheet under the extension root. */
  css: string[];
  title: string;
  /** The page's one root element, where the script renders. */
  root: { id: string; attrs?: string };
  /** Extra CSP sources for images besides the extension's own (e.g. `data:`). */
  imgSrc?: string[];
  /** Whether the page loads the extension's own fonts. */
  fonts?: boolean;
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export function webviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, page: WebviewPage): string {
  const nonce = randomBytes(16).toString('base64');
  const uri = (parts: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...parts)).toString();
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource}`,
    `script-src 'nonce-${nonce}'`,
    `img-src ${[webview.cspSource, ...(page.imgSrc ?? [])].join(' ')}`,
    ...(page.fonts ? [`font-src ${webview.cspSource}`] : []),
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttr(uri(page.css))}">
<title>${escapeAttr(page.title)}</title>
</head>
<body>
<div id="${escapeAttr(page.root.id)}"${page.root.attrs ? ` ${page.root.attrs}` : ''}></div>
<script nonce="${nonce}" src="${escapeAttr(uri(page.script))}"></script>
</body>
</html>`;
}
