// Every node the renderer creates goes through these helpers so that data only ever reaches the
// DOM as text (textContent / attribute values), never as markup.

export type Child = Node | string | null | undefined | false;

export interface ElOptions {
  className?: string;
  text?: string;
  title?: string;
  attrs?: Record<string, string>;
}

export function el<K extends keyof HTMLElementTagNameMap>(
  doc: Document,
  tag: K,
  opts: ElOptions = {},
  children: Child[] = [],
): HTMLElementTagNameMap[K] {
  const node = doc.createElement(tag);
  if (opts.className) node.className = opts.className;
  if (opts.text !== undefined) node.textContent = opts.text;
  if (opts.title !== undefined) node.title = opts.title;
  if (opts.attrs) for (const [k, v] of Object.entries(opts.attrs)) node.setAttribute(k, v);
  append(node, children);
  return node;
}

export function append(parent: Node, children: Child[]): void {
  const doc = parent.ownerDocument ?? (parent as Document);
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    parent.appendChild(typeof c === 'string' ? doc.createTextNode(c) : c);
  }
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function svg(doc: Document, tag: string, attrs: Record<string, string | number> = {}): SVGElement {
  const node = doc.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** The URL if it is absolute http(s), otherwise undefined: nothing else may become a link. */
export function safeHttpUrl(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const trimmed = raw.trim();
  if (!/^https?:\/\//i.test(trimmed)) return undefined;
  try {
    const u = new URL(trimmed);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

/** A link that opens outside the notebook; `text` defaults to the address itself. */
export function link(doc: Document, href: string | undefined, text?: string): HTMLElement {
  const url = safeHttpUrl(href);
  if (!url) return el(doc, 'span', { text: text ?? String(href ?? '') });
  return el(doc, 'a', { text: text ?? url, attrs: { href: url, rel: 'noopener noreferrer', target: '_blank' } });
}

export function button(
  doc: Document,
  label: string,
  title: string,
  onClick: () => void,
  className = '',
): HTMLButtonElement {
  const b = el(doc, 'button', {
    text: label,
    title,
    className: `wq-btn ${className}`.trim(),
    attrs: { type: 'button' },
  });
  b.addEventListener('click', (e) => {
    e.preventDefault();
    onClick();
  });
  return b;
}
