// Try it in the reference preview (browser side): a button on each method, the form the host sends, and the
// result. The page never calls the network (its CSP has no connect-src); the host does. Everything from the
// document or the server is set as text, never as HTML.
import type { TryField, TryForm, TryResponse } from '../core/tryIt';
import {
  PATH_ATTRIBUTE,
  type PreviewHostToWebview,
  type PreviewPath,
  type PreviewWebviewToHost,
  type TryItFormValues,
} from '../protocol';

type Post = (m: PreviewWebviewToHost) => void;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
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

function fieldInput(f: TryField): HTMLElement {
  if (f.enum) {
    const select = el('select');
    if (!f.required) select.append(el('option', undefined, ''));
    for (const v of f.enum) {
      const o = el('option', undefined, v.description ? `${v.value} — ${v.description.slice(0, 80)}` : v.value);
      o.value = v.value;
      if (v.deprecated) o.textContent += ' (deprecated)';
      select.append(o);
    }
    if (f.default !== undefined) select.value = f.default;
    return select;
  }
  if (f.type === 'boolean') {
    const select = el('select');
    for (const v of ['', 'true', 'false']) select.append(Object.assign(el('option', undefined, v), { value: v }));
    if (f.default !== undefined) select.value = f.default;
    return select;
  }
  const input = el('input');
  input.type = 'text';
  input.placeholder = f.default ?? (f.format ? `${f.type} (${f.format})` : f.type);
  return input;
}

function fieldRow(f: TryField): HTMLElement {
  const row = el('div', 'try-field');
  row.dataset.name = f.name;
  const label = el('label', undefined, f.name + (f.required ? ' *' : ''));
  label.title = f.description ?? '';
  const inputs = el('span', 'try-inputs');
  inputs.append(fieldInput(f));
  row.append(label, inputs);
  if (f.repeated) {
    const more = el('button', 'try-more', '+');
    more.title = 'Add another value';
    more.addEventListener('click', () => inputs.append(fieldInput(f)));
    row.append(more);
  }
  row.append(el('span', 'try-where', f.location + (f.repeated ? ', repeated' : '')));
  return row;
}

function valuesOf(panel: HTMLElement): TryItFormValues {
  const params: Record<string, string[]> = {};
  for (const row of panel.querySelectorAll<HTMLElement>('.try-field')) {
    const name = row.dataset.name ?? '';
    params[name] = [...row.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input, select')].map((i) => i.value);
  }
  const body = panel.querySelector<HTMLTextAreaElement>('textarea.try-body')?.value;
  return { params, ...(body !== undefined ? { body } : {}) };
}

function showForm(path: PreviewPath, form: TryForm, credential: string | undefined, post: Post): void {
  const holder = holderOf(path);
  if (!holder) return;
  holder.querySelector('.try-it')?.remove();
  const panel = el('div', 'try-it');
  panel.append(el('div', 'try-url', `${form.httpMethod} ${form.urlTemplate}`));
  panel.append(el('div', 'try-credential', credential ? `Sends the ${credential}.` : 'Sends no credential.'));
  const own = form.fields.filter((f) => !f.global);
  const globals = form.fields.filter((f) => f.global);
  for (const f of own) panel.append(fieldRow(f));
  if (globals.length) {
    const details = el('details');
    details.append(el('summary', undefined, `Standard parameters (${globals.length})`));
    for (const f of globals) details.append(fieldRow(f));
    panel.append(details);
  }
  if (form.body) {
    panel.append(el('div', 'try-label', `Request body (${form.body.schema})`));
    const area = el('textarea', 'try-body');
    area.value = form.body.seed;
    area.rows = Math.min(16, form.body.seed.split('\n').length + 1);
    area.spellcheck = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    area.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(() => post({ type: 'tryItCheckBody', path, body: area.value }), 300);
    });
    panel.append(area, el('ul', 'try-problems'));
  }
  const actions = el('div', 'try-actions');
  if (form.upload) {
    const pick = el('button', undefined, 'Choose media…');
    pick.addEventListener('click', () => post({ type: 'tryItPickMedia', path }));
    actions.append(pick, el('span', 'try-media', ''));
  }
  const send = el('button', 'try-send', 'Send');
  send.addEventListener('click', () => post({ type: 'tryItSend', path, values: valuesOf(panel) }));
  const curl = el('button', undefined, 'Copy as curl');
  curl.addEventListener('click', (e) =>
    post({ type: 'tryItCopyCurl', path, values: valuesOf(panel), reveal: e.altKey }),
  );
  curl.title = 'Credentials are replaced by $ACCESS_TOKEN / $API_KEY (Alt+click to include them)';
  actions.prepend(send, curl);
  panel.append(actions, el('div', 'try-result'));
  holder.append(panel);
  if (form.body) post({ type: 'tryItCheckBody', path, body: form.body.seed });
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
  open.addEventListener('click', () => post({ type: 'tryItOpenResponse', path }));
  out.append(open);
}

/** Handles the Try it messages; false for any other. */
export function handleTryItMessage(m: PreviewHostToWebview, post: Post): boolean {
  switch (m.type) {
    case 'tryItForm':
      showForm(m.path, m.form, m.credential, post);
      return true;
    case 'tryItBodyProblems': {
      const list = panelOf(m.path)?.querySelector('.try-problems');
      list?.replaceChildren(...m.problems.map((p) => el('li', undefined, `${p.pointer || '/'}: ${p.message}`)));
      return true;
    }
    case 'tryItMedia': {
      const span = panelOf(m.path)?.querySelector('.try-media');
      if (span) span.textContent = m.name ?? '';
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
