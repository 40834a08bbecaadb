// Entry of the discovery reference preview's webview (bundled to dist/webview/discoveryPreview.js).
// It shows the reference the host rendered, highlights what the editor's cursor is in, follows
// the in-page type links (the editor follows), and asks the host to show a heading's source when one is clicked.
import { PATH_ATTRIBUTE, type PreviewHostToWebview, type PreviewPath, type PreviewWebviewToHost } from '../protocol';
import { decorateMethods, handleTryItMessage, parkPanels, restorePanels, unparkPanels, usePanelState } from './tryIt';

declare function acquireVsCodeApi(): {
  postMessage(m: PreviewWebviewToHost): void;
  getState(): unknown;
  setState(state: unknown): void;
};

const vscode = acquireVsCodeApi();
const post = (m: PreviewWebviewToHost) => vscode.postMessage(m);
usePanelState(vscode);
let rendered = false;
const content = document.getElementById('content') ?? document.body;

/** The id of the highlighted section, kept across re-renders. */
let currentAnchor: string | undefined;

function highlight(anchor: string, scroll: boolean): void {
  const target = document.getElementById(anchor);
  if (!target) return;
  for (const old of content.querySelectorAll('.current')) old.classList.remove('current');
  target.classList.add('current');
  currentAnchor = anchor;
  if (scroll) target.scrollIntoView({ block: 'nearest' });
}

function render(html: string): void {
  const scroll = document.scrollingElement?.scrollTop ?? 0;
  // The core escapes every text of the document it renders; the CSP allows no inline script either way.
  parkPanels();
  content.innerHTML = html;
  decorateMethods(post);
  unparkPanels();
  if (currentAnchor) highlight(currentAnchor, false);
  if (document.scrollingElement) document.scrollingElement.scrollTop = scroll;
  // The host sends the forms of the panels it knows open right after the render; the others (a window
  // reloaded) are asked for after those have come.
  if (!rendered) setTimeout(() => restorePanels(post), 0);
  rendered = true;
}

function pathOf(holder: Element): PreviewPath | undefined {
  try {
    const parsed: unknown = JSON.parse(holder.getAttribute(PATH_ATTRIBUTE) ?? '');
    return Array.isArray(parsed) && parsed.every((s) => typeof s === 'string' || typeof s === 'number')
      ? parsed
      : undefined;
  } catch {
    return undefined;
  }
}

window.addEventListener('message', (event: MessageEvent<PreviewHostToWebview>) => {
  const m = event.data;
  if (handleTryItMessage(m, post)) return;
  switch (m.type) {
    case 'render': {
      const state = vscode.getState();
      vscode.setState({ ...(state && typeof state === 'object' ? state : {}), source: m.source });
      render(m.html);
      break;
    }
    case 'reveal':
      highlight(m.anchor, true);
      break;
  }
});

document.addEventListener('click', (e) => {
  const target = e.target instanceof Element ? e.target : undefined;
  const link = target?.closest('a[href^="#"]');
  if (link) {
    // A type link jumps to its schema within the preview, and the editor follows to its source.
    e.preventDefault();
    const anchor = decodeURIComponent(link.getAttribute('href')!.slice(1));
    highlight(anchor, true);
    const schema = document.getElementById(anchor)?.closest(`[${PATH_ATTRIBUTE}]`);
    const schemaPath = schema && pathOf(schema);
    if (schemaPath) post({ type: 'goto', path: schemaPath, preserveFocus: true });
    return;
  }
  // Clicks inside a Try it panel are the form's own.
  if (target?.closest('.try-it, .try-it-open')) return;
  const heading = target?.closest('h4');
  const holder = heading?.closest(`[${PATH_ATTRIBUTE}]`);
  const path = holder && pathOf(holder);
  if (path) post({ type: 'goto', path });
});

post({ type: 'ready' });
