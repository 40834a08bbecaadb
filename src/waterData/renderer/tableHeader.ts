// The grid's two header rows: a sort button and a width grip per column, then a filter input per
// column. The grid owns the state; the header only reports clicks, typing and drags.
import { el } from './dom';

export interface HeaderEvents {
  onSortClick: (column: string) => void;
  /** Debounced: called once typing pauses. */
  onFilterInput: (column: string, text: string) => void;
  /** `widths` was changed in place by a drag. */
  onResize: () => void;
}

export interface Header {
  headerCells: HTMLElement[];
  filterInputs: Map<string, HTMLInputElement>;
}

const FILTER_DEBOUNCE_MS = 120;

/** Builds both header rows into `head`; `widths` (px per column) is mutated by the resize grips. */
export function buildHeader(
  doc: Document,
  head: HTMLElement,
  columns: string[],
  widths: number[],
  events: HeaderEvents,
): Header {
  const headRow = el(doc, 'div', { className: 'wq-row wq-head-row', attrs: { role: 'row', 'aria-rowindex': '1' } });
  const filterRow = el(doc, 'div', { className: 'wq-row wq-filter-row', attrs: { role: 'row' } });
  headRow.append(el(doc, 'div', { className: 'wq-cell wq-gutter', text: '#', attrs: { role: 'columnheader' } }));
  filterRow.append(el(doc, 'div', { className: 'wq-cell wq-gutter', attrs: { role: 'gridcell' } }));
  const headerCells: HTMLElement[] = [];
  const filterInputs = new Map<string, HTMLInputElement>();
  columns.forEach((name, c) => {
    const th = el(doc, 'div', { className: 'wq-cell wq-th', attrs: { role: 'columnheader', 'aria-sort': 'none' } });
    const b = el(doc, 'button', { className: 'wq-sort', title: `Sort by ${name}`, attrs: { type: 'button' } });
    b.append(
      el(doc, 'span', { className: 'wq-th-name', text: name }),
      el(doc, 'span', { className: 'wq-sort-mark', attrs: { 'aria-hidden': 'true' } }),
    );
    b.addEventListener('click', () => events.onSortClick(name));
    th.append(b, resizer(doc, name, c, widths, events.onResize));
    headerCells.push(th);
    headRow.append(th);
    const input = el(doc, 'input', {
      className: 'wq-filter',
      attrs: {
        type: 'text',
        placeholder: 'filter',
        'aria-label': `Filter ${name}`,
        spellcheck: 'false',
        title: 'Text to find, or >n, <n, >=n, <=n, =x, !=x; "" for empty',
      },
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    input.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(() => events.onFilterInput(name, input.value), FILTER_DEBOUNCE_MS);
    });
    input.addEventListener('keydown', (e) => e.stopPropagation());
    filterInputs.set(name, input);
    filterRow.append(el(doc, 'div', { className: 'wq-cell', attrs: { role: 'gridcell' } }, [input]));
  });
  head.append(headRow, filterRow);
  return { headerCells, filterInputs };
}

/** A drag handle on the header's right edge; widths live in one CSS variable shared by all rows. */
function resizer(doc: Document, name: string, c: number, widths: number[], onResize: () => void): HTMLElement {
  const grip = el(doc, 'span', {
    className: 'wq-resizer',
    title: `Resize ${name}`,
    attrs: { 'aria-hidden': 'true' },
  });
  grip.addEventListener('pointerdown', (e) => {
    e.preventDefault();
    e.stopPropagation();
    const startX = e.clientX;
    const startW = widths[c];
    grip.setPointerCapture?.(e.pointerId);
    const move = (ev: PointerEvent) => {
      widths[c] = Math.max(40, Math.min(1200, Math.round(startW + ev.clientX - startX)));
      onResize();
    };
    const up = () => {
      grip.removeEventListener('pointermove', move);
      grip.removeEventListener('pointerup', up);
      grip.removeEventListener('pointercancel', up);
    };
    grip.addEventListener('pointermove', move);
    grip.addEventListener('pointerup', up);
    grip.addEventListener('pointercancel', up);
  });
  grip.addEventListener('click', (e) => e.stopPropagation());
  return grip;
}
