// The chat's page: the shared strict-CSP shell with the chat bundle and stylesheet.
import type * as vscode from 'vscode';
import { webviewHtml } from '../../platform/webviewHtml';

export function panelHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  return webviewHtml(webview, extensionUri, {
    script: ['dist', 'webview', 'generation.js'],
    css: ['media', 'generation', 'panel.css'],
    title: 'Generation',
    root: { id: 'app', attrs: 'aria-live="polite"' },
    imgSrc: ['data:'],
    fonts: true,
  });
}
