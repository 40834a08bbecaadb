// The suggestion list of the Try it body editor (browser side). What to propose comes from the host, which
// asks the editor-free core (completeBody); this only shows the list under the caret, moves through it, and
// inserts the chosen item. A plain textarea stays the editor: a code editor bundle in the page would cost
// more than a schema-aware list gives.
import type { BodyCompletion, BodyCompletions } from '../core/tryIt';

let lists = 0;

/** Pixel position of `offset` in a textarea, through a hidden copy laid out the same way. */
function caretPoint(area: HTMLTextAreaElement, offset: number): { left: number; top: number; height: number } {
  const mirror = document.createElement('div');
  const style = getComputedStyle(area);
  for (const p of ['font', 'letterSpacing', 'padding', 'border', 'boxSizing', 'lineHeight', 'tabSize'] as const)
    mirror.style[p] = style[p];
  Object.assign(mirror.style, {
    position: 'absolute',
    visibility: 'hidden',
    whiteSpace: 'pre-wrap',
    overflowWrap: 'break-word',
    width: `${area.clientWidth}px`,
    left: '0',
    top: '0',
  });
  mirror.textContent = area.value.slice(0, offset);
  const mark = document.createElement('span');
  mark.textContent = '\u200b';
  mirror.append(mark);
  document.body.append(mirror);
  const point = { left: mark.offsetLeft, top: mark.offsetTop - area.scrollTop, height: mark.offsetHeight };
  mirror.remove();
  return point;
}

/** Inserts `text` over [from, to) as typing would, so Ctrl+Z undoes it; `input` fires as for typing. */
function replaceRange(area: HTMLTextAreaElement, from: number, to: number, text: string): void {
  const expected = area.value.slice(0, from) + text + area.value.slice(to);
  area.setSelectionRange(from, to);
  // execCommand is deprecated but still the one way to edit a textarea with undo; where it does nothing, set it.
  const done = typeof document.execCommand === 'function' && document.execCommand('insertText', false, text);
  if (!done || area.value !== expected) {
    area.setRangeText(text, from, to, 'end');
    area.dispatchEvent(new Event('input', { bubbles: true }));
  }
}

export class BodyCompletionList {
  private readonly list: HTMLUListElement;
  private readonly docs: HTMLDivElement;
  private readonly box: HTMLDivElement;
  private current: BodyCompletions | undefined;
  private active = 0;
  private seq = 0;
  /** The request in flight was asked for (Ctrl+Space, or a value expected after an accepted name). */
  private explicit = false;
  /** True while an item is being inserted: that input is ours, not the user's typing. */
  private inserting = false;

  constructor(
    private readonly area: HTMLTextAreaElement,
    private readonly request: (body: string, offset: number, seq: number) => void,
  ) {
    const id = `try-suggest-${++lists}`;
    this.box = document.createElement('div');
    this.box.className = 'try-suggest';
    this.box.hidden = true;
    this.list = document.createElement('ul');
    this.list.id = id;
    this.list.setAttribute('role', 'listbox');
    this.list.setAttribute('aria-label', 'Suggestions');
    this.docs = document.createElement('div');
    this.docs.className = 'try-suggest-docs';
    this.docs.id = `${id}-docs`;
    this.box.append(this.list, this.docs);
    area.setAttribute('aria-autocomplete', 'list');
    area.setAttribute('aria-haspopup', 'listbox');
    area.setAttribute('aria-controls', id);
    area.setAttribute('aria-expanded', 'false');
    area.after(this.box);
    area.addEventListener('keydown', (e) => this.onKey(e));
    area.addEventListener('input', (e) => this.onInput(e as InputEvent));
    area.addEventListener('blur', () => this.close());
    area.addEventListener('click', () => this.close());
    // A click on an item must not take the focus from the editor (which would close the list first).
    this.list.addEventListener('mousedown', (e) => {
      e.preventDefault();
      const option = (e.target as Element).closest<HTMLElement>('[role=option]');
      if (option) this.accept(Number(option.dataset.index));
    });
  }

  /** Asks the host what may go at the caret. */
  trigger(explicit = false): void {
    this.explicit = explicit;
    this.request(this.area.value, this.area.selectionStart, ++this.seq);
  }

  /** The host's answer; dropped if the user typed on since it was asked. */
  show(seq: number, completions: BodyCompletions): void {
    if (seq !== this.seq || document.activeElement !== this.area) return;
    // Opened by typing, a list of only `null` (any value may be null) would pop up after every colon.
    const onlyNull = completions.items.length === 1 && completions.items[0].label === 'null';
    if (!completions.items.length || (onlyNull && !this.explicit && !this.current)) return this.close();
    this.current = completions;
    this.active = 0;
    this.list.replaceChildren(...completions.items.map((item, i) => this.option(item, i)));
    const at = caretPoint(this.area, completions.replace.offset);
    this.box.style.top = `${this.area.offsetTop + at.top + at.height + 2}px`;
    this.box.hidden = false;
    // Under the caret, but never past the editor's right edge.
    const room = this.area.offsetLeft + this.area.offsetWidth - this.box.offsetWidth;
    this.box.style.left = `${Math.max(0, Math.min(this.area.offsetLeft + at.left, room))}px`;
    this.area.setAttribute('aria-expanded', 'true');
    this.select(0);
  }

  close(): void {
    if (!this.current && this.box.hidden) return;
    this.current = undefined;
    this.box.hidden = true;
    this.list.replaceChildren();
    this.area.setAttribute('aria-expanded', 'false');
    this.area.removeAttribute('aria-activedescendant');
  }

  private option(item: BodyCompletion, i: number): HTMLLIElement {
    const li = document.createElement('li');
    li.id = `${this.list.id}-${i}`;
    li.dataset.index = String(i);
    li.setAttribute('role', 'option');
    li.setAttribute('aria-selected', 'false');
    li.className = `try-suggest-item ${item.kind}${item.deprecated ? ' deprecated' : ''}`;
    const label = document.createElement('span');
    label.className = 'try-suggest-label';
    label.textContent = item.label;
    li.append(label);
    if (item.required) {
      const req = document.createElement('span');
      req.className = 'try-suggest-required';
      req.textContent = 'required';
      li.append(req);
    }
    if (item.detail) {
      const detail = document.createElement('span');
      detail.className = 'try-suggest-detail';
      detail.textContent = item.detail;
      li.append(detail);
    }
    // What a screen reader says for the option: the name, then what kind of value, then whether it is needed.
    li.setAttribute(
      'aria-label',
      [item.label, item.detail, item.required ? 'required' : '', item.deprecated ? 'deprecated' : '']
        .filter(Boolean)
        .join(', '),
    );
    return li;
  }

  private select(i: number): void {
    const items = this.current?.items;
    if (!items?.length) return;
    this.active = (i + items.length) % items.length;
    for (const li of this.list.children) li.setAttribute('aria-selected', 'false');
    const li = this.list.children[this.active] as HTMLElement | undefined;
    li?.setAttribute('aria-selected', 'true');
    li?.scrollIntoView({ block: 'nearest' });
    if (li) this.area.setAttribute('aria-activedescendant', li.id);
    const doc = items[this.active].documentation;
    this.docs.textContent = doc ?? '';
    this.docs.hidden = !doc;
    if (doc) li?.setAttribute('aria-describedby', this.docs.id);
  }

  private accept(i: number): void {
    const c = this.current;
    const item = c?.items[i];
    if (!c || !item) return;
    this.close();
    this.inserting = true;
    try {
      const { offset, length } = c.replace;
      // The later edit first, so the comma's offset still holds.
      replaceRange(this.area, offset, offset + length, item.insertText);
      let caret = offset + item.caret;
      if (c.commaAt !== undefined) {
        replaceRange(this.area, c.commaAt, c.commaAt, ',');
        caret++;
      }
      this.area.setSelectionRange(caret, caret);
    } finally {
      this.inserting = false;
    }
    if (item.retrigger) this.trigger(true);
  }

  private onKey(e: KeyboardEvent): void {
    if (e.key === ' ' && e.ctrlKey) {
      e.preventDefault();
      this.trigger(true);
      return;
    }
    if (!this.current) return;
    const page = Math.max(1, Math.floor(this.list.clientHeight / 22));
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page };
    if (e.key in moves) this.select(this.active + moves[e.key]);
    else if (e.key === 'Enter' || e.key === 'Tab') this.accept(this.active);
    else if (e.key === 'Escape') this.close();
    else return;
    e.preventDefault();
    e.stopPropagation();
  }

  private onInput(e: InputEvent): void {
    if (this.inserting) return;
    this.seq++;
    const typed = e.inputType === 'insertText' ? (e.data ?? '') : '';
    // While the list is open it follows the typing; closed, a name's first letter or quote opens it.
    if (this.current && (typed || e.inputType === 'deleteContentBackward')) this.trigger(this.explicit);
    else if (/^["A-Za-z_:]$/.test(typed.slice(-1))) this.trigger();
    else this.close();
  }
}
