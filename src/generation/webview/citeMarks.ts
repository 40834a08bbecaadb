// Marks cited passages inside an already rendered (and sanitised) reply. Citation ranges index the
// Markdown source, but the DOM holds rendered text: `**`, fences, list markers and link targets are
// gone. The rendered characters are aligned back onto the source in order, then only text nodes are
// split and wrapped, so no markup from the model is ever re-parsed and element nesting stays valid.

export interface CitationRange {
  n: number;
  /** UTF-16 offsets into the Markdown source (end exclusive). */
  start: number;
  end: number;
  /** Shown as the mark's tooltip. */
  title?: string;
}

/** Elements whose text is our own chrome, not the model's words. */
const SKIP = '.code-actions, .citation-ref';

function textNodes(root: Element): Text[] {
  const out: Text[] = [];
  const walk = (node: Node) => {
    for (const child of [...node.childNodes]) {
      if (child.nodeType === 3) out.push(child as Text);
      else if (child.nodeType === 1 && !(child as Element).matches(SKIP)) walk(child);
    }
  };
  walk(root);
  return out;
}

/** Markdown escapes and HTML entities: the renderer shows one character for several in the source. */
const ESCAPE_OR_ENTITY = /\\[!-/:-@[-`{-~]|&(?:[a-z][a-z0-9]{1,31}|#\d{1,7}|#x[0-9a-f]{1,6});/gi;

/** The source with escapes and entities decoded, and the source offset of each decoded character. */
function decodeSource(source: string, decode: (s: string) => string): { text: string; at: number[] } {
  let text = '';
  const at: number[] = [];
  let last = 0;
  const keep = (from: number, to: number) => {
    for (let i = from; i < to; i++) at.push(i);
    text += source.slice(from, to);
  };
  for (const m of source.matchAll(ESCAPE_OR_ENTITY)) {
    keep(last, m.index);
    const decoded = decode(m[0]);
    text += decoded;
    for (let i = 0; i < decoded.length; i++) at.push(m.index);
    last = m.index + m[0].length;
  }
  keep(last, source.length);
  return { text, at };
}

/** How far one stray character may pull the alignment ahead when no longer run confirms it. */
const LONE_CHAR_WINDOW = 12;

/**
 * The source offset of every rendered character, found by walking both texts forward. Each visible
 * run is looked up whole (up to 6 characters), which carries it past dropped markup such as link
 * targets or fence lines without latching onto a lone character further on; whitespace the renderer
 * added between blocks only matches source whitespace, so it never drags the alignment ahead.
 */
export function alignToSource(
  source: string,
  rendered: readonly string[],
  decode: (s: string) => string = (s) => s,
): number[][] {
  const { text: plain, at } = decodeSource(source, decode);
  const origin = (i: number) => (i < at.length ? at[i] : source.length);
  let pos = 0;
  return rendered.map((chunk) => {
    const offsets: number[] = [];
    for (let i = 0; i < chunk.length; i++) {
      const ch = chunk[i];
      if (/\s/.test(ch)) {
        if (pos < plain.length && /\s/.test(plain[pos])) offsets.push(origin(pos++));
        else offsets.push(origin(pos > 0 ? pos - 1 : 0));
        continue;
      }
      let runEnd = i + 1;
      while (runEnd < chunk.length && runEnd - i < 6 && !/\s/.test(chunk[runEnd])) runEnd++;
      let found = runEnd - i > 1 ? plain.indexOf(chunk.slice(i, runEnd), pos) : -1;
      if (found === -1) {
        const lone = plain.indexOf(ch, pos);
        found = lone !== -1 && lone - pos <= LONE_CHAR_WINDOW ? lone : -1;
      }
      if (found === -1) {
        offsets.push(origin(pos));
        continue;
      }
      offsets.push(origin(found));
      pos = found + 1;
    }
    return offsets;
  });
}

/**
 * Wraps the rendered text of each citation in `<mark data-citation="n">` (nested where citations
 * overlap) and puts a superscript `[n]` link after its last piece, pointing at `#${idPrefix}n`.
 * `decode` resolves Markdown escapes and HTML entities as the renderer does. Returns the numbers
 * that were marked.
 */
export function markCitations(
  root: HTMLElement,
  source: string,
  citations: readonly CitationRange[],
  idPrefix: string,
  decode: (s: string) => string = (s) => s,
): number[] {
  const ranges = citations.filter((c) => c.end > c.start);
  if (!ranges.length) return [];
  const doc = root.ownerDocument;
  const nodes = textNodes(root);
  const offsets = alignToSource(
    source,
    nodes.map((t) => t.data),
    decode,
  );
  const lastPiece = new Map<number, Element>();

  nodes.forEach((node, k) => {
    const map = offsets[k];
    const text = node.data;
    // Runs of characters covered by the same set of citations.
    const keyAt = (i: number) => ranges.filter((c) => map[i] >= c.start && map[i] < c.end).map((c) => c.n);
    const pieces: { from: number; to: number; cites: number[] }[] = [];
    for (let i = 0; i < text.length; i++) {
      const cites = keyAt(i);
      const prev = pieces[pieces.length - 1];
      if (prev && prev.cites.join() === cites.join()) prev.to = i + 1;
      else pieces.push({ from: i, to: i + 1, cites });
    }
    // Whitespace the renderer put between blocks belongs to no passage worth highlighting.
    if (!text.trim() || !pieces.some((p) => p.cites.length)) return;
    const parent = node.parentNode!;
    // Inside a table row or list only cell content may hold inline elements.
    if (/^(TABLE|THEAD|TBODY|TR|UL|OL)$/.test((parent as Element).tagName ?? '')) return;
    const frag = doc.createDocumentFragment();
    for (const p of pieces) {
      const chunk = doc.createTextNode(text.slice(p.from, p.to));
      if (!p.cites.length) {
        frag.append(chunk);
        continue;
      }
      let inner: Node = chunk;
      for (const n of [...p.cites].reverse()) {
        const mark = doc.createElement('mark');
        mark.setAttribute('data-citation', String(n));
        const title = ranges.find((c) => c.n === n)?.title;
        if (title) mark.setAttribute('title', title);
        mark.append(inner);
        inner = mark;
        lastPiece.set(n, mark);
      }
      frag.append(inner);
    }
    parent.replaceChild(frag, node);
  });

  for (const [n, mark] of lastPiece) {
    // After the outermost mark of the last piece, so nested marks keep one contiguous look.
    let anchor: Element = mark;
    while (anchor.parentElement && anchor.parentElement.tagName === 'MARK') anchor = anchor.parentElement;
    const link = doc.createElement('a');
    link.setAttribute('href', `#${idPrefix}${n}`);
    link.setAttribute('data-citation-ref', String(n));
    link.setAttribute('aria-label', `Source ${n}`);
    link.textContent = `[${n}]`;
    const sup = doc.createElement('sup');
    sup.className = 'citation-ref';
    sup.append(link);
    anchor.after(sup);
  }
  return [...lastPiece.keys()].sort((a, b) => a - b);
}
