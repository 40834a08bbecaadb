// Try it in the reference preview (browser side): a button on each method, the form the host sends, and the
// result. The page never calls the network (its CSP has no connect-src); the host does. Everything from the
// document or the server is set as text, never as HTML.
import type { TryField, TryForm, TryResponse } from '../core/tryIt';
import { BodyCompletionList } from './bodyCompletion';
import { el, fieldRow, valuesOf } from './tryItFields';
import { ownValue, putOwn } from '../../shared/wire/ownKeys';
import {
  PATH_ATTRIBUTE,
  type PreviewHostToWebview,
  type PreviewPath,
  type PreviewWebviewToHost,
  type TryItFormValues,
} from '../protocol';

type Post = (m: PreviewWebviewToHost) => void;

/** What the page keeps in its webview state: per method id, where its panel was and what the user entered. */
type SavedPanels = Record<string, { path: PreviewPath; values: TryItFormValues; media?: string }>;
export interface PanelStateStore {
  getState(): unknown;
  setState(state: unknown): void;
}

function holderOf(path: PreviewPath): HTMLElement | undefined {
  const want = JSON.stringify(path);
  for (const h of document.querySelectorAll<HTMLElement>(`.method[${PATH_ATTRIBUTE}]`))
    if (h.getAttribute(PATH_ATTRIBUTE) === want) return h;
  return undefined;
}

function panelOf(path: PreviewPath): HTMLElement | undefined {
  return holderOf(path)?.querySelector<HTMLElement>('.try-it') ?? undefined;
}

/** Panels taken out of the page for a re-render whose method the host has not placed again yet, by method id. */
const parked = new Map<string, HTMLElement>();
const suggestions = new WeakMap<HTMLElement, BodyCompletionList>();

/**
 * The webview is re-created when its panel is shown again after being hidden (and when a restored window
 * brings it back): the panels open then, with their values, are reopened from its state.
 */
let store: PanelStateStore | undefined;
let toRestore: SavedPanels = {};

function savedOf(state: unknown): SavedPanels {
  const saved = (state as { tryIt?: unknown } | undefined)?.tryIt;
  return saved && typeof saved === 'object' ? (saved as SavedPanels) : {};
}

function saveState(): void {
  if (!store) return;
  const saved: SavedPanels = {};
  const panels = [...document.querySelectorAll<HTMLElement>('.try-it'), ...parked.values()];
  for (const p of panels) {
    // A gone method's panel has no path to be asked for again.
    if (!p.dataset.methodId || p.closest('.try-gone')) continue;
    const kept = keptOf(p);
    const entry: SavedPanels[string] = { path: JSON.parse(p.dataset.path ?? '[]') as PreviewPath, values: kept.values };
    if (kept.media) entry.media = kept.media;
    putOwn(saved, p.dataset.methodId, entry);
  }
  const state = store.getState();
  store.setState({ ...(state && typeof state === 'object' ? state : {}), tryIt: saved });
}

/** Called once, as the page starts: the panels of the webview this one replaces wait for the first render. */
export function usePanelState(s: PanelStateStore): void {
  store = s;
  toRestore = savedOf(s.getState());
}

/** After the first render: each kept panel's form is asked for again; its values go in when it comes. */
export function restorePanels(post: Post): void {
  for (const [id, saved] of Object.entries(toRestore)) if (!panelById(id)) post({ type: 'tryIt', path: saved.path });
}

function panelById(methodId: string): HTMLElement | undefined {
  for (const p of document.querySelectorAll<HTMLElement>('.try-it')) if (p.dataset.methodId === methodId) return p;
  return parked.get(methodId);
}

/** Before the reference is rendered again: the open panels leave the page, with what the user entered. */
export function parkPanels(): void {
  for (const p of document.querySelectorAll<HTMLElement>('.try-it')) {
    p.remove();
    if (p.dataset.methodId) parked.set(p.dataset.methodId, p);
  }
}

/**
 * After it: each panel goes back under its method where that is still at the same path, at once (no flicker);
 * the host then sends every open panel's form again, found by method id, or says its method is gone.
 */
export function unparkPanels(): void {
  for (const [id, p] of parked) {
    const holder = holderOf(JSON.parse(p.dataset.path ?? '[]') as PreviewPath);
    if (!holder) continue;
    holder.append(p);
    parked.delete(id);
  }
}

/** Adds a Try it button to every method the host rendered. */
export function decorateMethods(post: Post): void {
  for (const holder of document.querySelectorAll<HTMLElement>(`.method[${PATH_ATTRIBUTE}]`)) {
    if (holder.querySelector('.try-it-open')) continue;
    const button = el('button', 'try-it-open', 'Try it');
    button.addEventListener('click', (e) => {
      e.stopPropagation();
      const path = JSON.parse(holder.getAttribute(PATH_ATTRIBUTE) ?? '[]') as PreviewPath;
      post({ type: 'tryIt', path });
    });
    holder.querySelector('h4')?.after(button);
  }
}

/** What a panel holds that the user made: the values, the last result, the media chosen. */
function keptOf(panel: HTMLElement): { values: TryItFormValues; result: ChildNode[]; media: string } {
  return {
    values: valuesOf(panel),
    result: [...(panel.querySelector('.try-result')?.childNodes ?? [])],
    media: panel.querySelector('.try-media')?.textContent ?? '',
  };
}

function closePanel(panel: HTMLElement, path: PreviewPath, post: Post): void {
  post({ type: 'tryItClose', path, methodId: panel.dataset.methodId ?? '' });
  parked.delete(panel.dataset.methodId ?? '');
  (panel.closest('.try-gone') ?? panel).remove();
  saveState();
}

function showForm(path: PreviewPath, form: TryForm, credential: string | undefined, post: Post): void {
  const holder = holderOf(path);
  // The same method's panel, open before an edit of the document (or a second click on Try it): its values stay.
  const previous = panelById(form.methodId) ?? holder?.querySelector<HTMLElement>('.try-it') ?? undefined;
  const restored = ownValue(toRestore, form.methodId);
  delete toRestore[form.methodId];
  const kept = previous
    ? keptOf(previous)
    : restored && { values: restored.values, result: [], media: restored.media ?? '' };
  if (previous) (previous.closest('.try-gone') ?? previous).remove();
  parked.delete(form.methodId);
  if (!holder) return;
  const panel = el('div', 'try-it');
  panel.dataset.methodId = form.methodId;
  panel.dataset.path = JSON.stringify(path);
  const head = el('div', 'try-head');
  const close = el('button', 'try-close', '×');
  close.title = 'Close';
  close.setAttribute('aria-label', `Close Try it for ${form.methodId}`);
  close.addEventListener('click', () => closePanel(panel, path, post));
  head.append(el('div', 'try-url', `${form.httpMethod} ${form.urlTemplate}`), close);
  panel.append(head);
  panel.append(el('div', 'try-credential', credential ? `Sends the ${credential}.` : 'Sends no credential.'));
  const typed = (f: TryField) => (kept ? ownValue(kept.values.params, f.name) : undefined);
  const own = form.fields.filter((f) => !f.global);
  const globals = form.fields.filter((f) => f.global);
  for (const f of own) panel.append(fieldRow(f, typed(f)));
  if (globals.length) {
    const details = el('details');
    details.append(el('summary', undefined, `Standard parameters (${globals.length})`));
    for (const f of globals) details.append(fieldRow(f, typed(f)));
    if (globals.some((f) => typed(f)?.some((v) => v && v !== f.default))) details.open = true;
    panel.append(details);
  }
  const body = form.body ? (kept?.values.body ?? form.body.seed) : undefined;
  if (form.body && body !== undefined) {
    const label = el('label', 'try-label', `Request body (${form.body.schema})`);
    const hint = el('span', 'try-hint', ' · Ctrl+Space suggests');
    label.append(hint);
    const area = el('textarea', 'try-body');
    area.id = `try-body-${form.methodId.replace(/[^\w-]/g, '_')}`;
    label.htmlFor = area.id;
    area.value = body;
    // Room to type from the start (the seed of a big schema is `{}`), growing with the text up to a point.
    const fit = () => (area.rows = Math.max(6, Math.min(20, area.value.split('\n').length + 1)));
    fit();
    area.spellcheck = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    area.addEventListener('input', () => {
      fit();
      clearTimeout(timer);
      timer = setTimeout(() => post({ type: 'tryItCheckBody', path, body: area.value }), 300);
    });
    const wrap = el('div', 'try-body-wrap');
    wrap.append(area);
    panel.append(label, wrap, el('ul', 'try-problems'));
    suggestions.set(
      panel,
      new BodyCompletionList(area, (text, offset, seq) =>
        post({ type: 'tryItCompleteBody', path, body: text, offset, seq }),
      ),
    );
  }
  const actions = el('div', 'try-actions');
  if (form.upload) {
    const pick = el('button', undefined, 'Choose media…');
    pick.addEventListener('click', () => post({ type: 'tryItPickMedia', path }));
    actions.append(pick, el('span', 'try-media', kept?.media ?? ''));
  }
  const send = el('button', 'try-send', 'Send');
  send.addEventListener('click', () => post({ type: 'tryItSend', path, values: valuesOf(panel) }));
  const curl = el('button', undefined, 'Copy as curl');
  curl.addEventListener('click', (e) =>
    post({ type: 'tryItCopyCurl', path, values: valuesOf(panel), reveal: e.altKey }),
  );
  curl.title = 'Credentials are replaced by $ACCESS_TOKEN / $API_KEY (Alt+click to include them)';
  actions.prepend(send, curl);
  const result = el('div', 'try-result');
  result.setAttribute('aria-live', 'polite');
  if (kept) result.append(...kept.result);
  panel.append(actions, result);
  panel.addEventListener('input', saveState);
  panel.addEventListener('change', saveState);
  holder.append(panel);
  saveState();
  if (body !== undefined) post({ type: 'tryItCheckBody', path, body });
}

/** The panel's method left the document: the panel stays, at the top, saying so, its values kept. */
function showGone(methodId: string): void {
  const panel = panelById(methodId);
  if (!panel) return;
  parked.delete(methodId);
  let wrap = panel.closest<HTMLElement>('.try-gone');
  if (!wrap) {
    wrap = el('section', 'method try-gone');
    wrap.append(el('h4', undefined, methodId));
    (document.getElementById('content') ?? document.body).prepend(wrap);
  }
  panel.querySelector('.try-gone-note')?.remove();
  const note = el(
    'div',
    'try-gone-note',
    `${methodId} is no longer in the document (removed, or its id changed). What you entered is kept; ` +
      'the form follows the method again when it is back.',
  );
  note.setAttribute('role', 'status');
  panel.querySelector('.try-head')?.after(note);
  for (const b of panel.querySelectorAll<HTMLButtonElement>('.try-actions button')) b.disabled = true;
  wrap.append(panel);
  saveState();
  wrap.scrollIntoView({ block: 'nearest' });
}

function showResult(
  path: PreviewPath,
  response: TryResponse | undefined,
  failure: string | undefined,
  post: Post,
): void {
  const out = panelOf(path)?.querySelector<HTMLElement>('.try-result');
  if (!out) return;
  out.replaceChildren();
  if (!response) {
    out.append(el('div', 'try-failure', failure ?? 'No response.'));
    return;
  }
  const ok = response.status < 400;
  out.append(
    el('div', `try-status ${ok ? 'ok' : 'bad'}`, `${response.status} ${response.statusText} · ${response.timeMs} ms`),
  );
  if (response.error) {
    const box = el('div', 'try-rpc');
    box.append(el('div', undefined, `${response.error.status ?? ''} ${response.error.message}`.trim()));
    if (response.error.meaning) box.append(el('div', 'desc', response.error.meaning));
    for (const d of response.error.details) box.append(el('div', 'desc', d));
    out.append(box);
  }
  const headers = el('details');
  headers.append(el('summary', undefined, `Headers (${response.headers.length})`));
  for (const [k, v] of response.headers) headers.append(el('div', 'try-header', `${k}: ${v}`));
  out.append(headers, el('pre', 'try-response', response.body + (response.truncated ? '\n…' : '')));
  const open = el('button', undefined, 'Open response in editor');
  // The result outlives a re-render that moves its method: the panel's path at the time of the click counts.
  open.addEventListener('click', () => {
    const now = open.closest<HTMLElement>('.try-it')?.dataset.path;
    post({ type: 'tryItOpenResponse', path: now ? (JSON.parse(now) as PreviewPath) : path });
  });
  out.append(open);
}

/** Handles the Try it messages; false for any other. */
export function handleTryItMessage(m: PreviewHostToWebview, post: Post): boolean {
  switch (m.type) {
    case 'tryItForm':
      showForm(m.path, m.form, m.credential, post);
      return true;
    case 'tryItGone':
      showGone(m.methodId);
      return true;
    case 'tryItBodyCompletions': {
      const panel = panelOf(m.path);
      if (panel) suggestions.get(panel)?.show(m.seq, m.completions);
      return true;
    }
    case 'tryItBodyProblems': {
      const list = panelOf(m.path)?.querySelector('.try-problems');
      list?.replaceChildren(...m.problems.map((p) => el('li', undefined, `${p.pointer || '/'}: ${p.message}`)));
      return true;
    }
    case 'tryItMedia': {
      const span = panelOf(m.path)?.querySelector('.try-media');
      if (span) span.textContent = m.name ?? '';
      saveState();
      return true;
    }
    case 'tryItSending': {
      const out = panelOf(m.path)?.querySelector('.try-result');
      out?.replaceChildren(el('div', 'try-status', 'Sending…'));
      return true;
    }
    case 'tryItResult':
      showResult(m.path, m.response, m.failure, post);
      return true;
    default:
      return false;
  }
}
