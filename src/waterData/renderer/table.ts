// A virtualised grid: only the rows in (and just around) the viewport exist in the DOM, so 10,000
// rows cost about as much to paint as 30. Cells are text nodes; sorting and filtering work on an
// index array so the rows themselves are never copied.
import {
  Virtualizer,
  elementScroll,
  observeElementOffset,
  observeElementRect,
  type Rect,
} from '@tanstack/virtual-core';
import { el } from './dom';
import { buildHeader } from './tableHeader';
import { RowCells } from './tableRows';
import { isRowKey, rowAfterKey } from './rowKeys';
import { cellOf, cellText, parseFilter, sortIndices, toTsv, type ColumnFilter, type Row, type SortDir } from './values';

export const ROW_HEIGHT = 24;
const HEAD_HEIGHT = 26;
const FILTER_HEIGHT = 28;
const GUTTER_WIDTH = 56;

export interface TableOptions {
  columns: string[];
  rows: Row[];
  /** Height of the scrolling area before it scrolls, in px. */
  maxHeight?: number;
  copy: (text: string) => void;
  onSelectionChange?: (rowIndices: number[]) => void;
}

export interface TableHandle {
  readonly element: HTMLElement;
  setRows(rows: Row[]): void;
  /** Selects one row (index into the rows given) and scrolls it into view; clears filters hiding it. */
  selectRow(index: number): void;
  selectedRows(): number[];
  /** Row indices in display order (after filter and sort). */
  viewOrder(): readonly number[];
  copySelection(): void;
  /** False when no cell has the focus. */
  copyFocusedCell(): boolean;
  sortBy(column: string, dir: SortDir | undefined): void;
  setFilter(column: string, text: string): void;
  /** Re-measures after the table became visible (it has no size while its tab is hidden). */
  refresh(): void;
  dispose(): void;
}

function columnWidth(name: string, rows: Row[]): number {
  let longest = name.length + 2;
  const n = Math.min(rows.length, 200);
  for (let i = 0; i < n; i++) {
    const len = cellText(cellOf(rows[i], name)).length;
    if (len > longest) longest = len;
  }
  return Math.max(64, Math.min(320, Math.round(longest * 7.2 + 20)));
}

export function createTable(doc: Document, opts: TableOptions): TableHandle {
  const columns = opts.columns;
  let rows = opts.rows;
  const maxHeight = opts.maxHeight ?? 420;
  const widths = columns.map((c) => columnWidth(c, rows));

  let view: number[] = rows.map((_, i) => i);
  let sort: { column: string; dir: SortDir } | undefined;
  const filterText = new Map<string, string>();
  const selected = new Set<number>();
  let anchorPos = -1; // position in `view` where a shift-selection starts
  let focus: { row: number; col: number } | undefined;

  const root = el(doc, 'div', { className: 'wq-table', attrs: { 'data-testid': 'water-table' } });
  function applyWidths(): void {
    root.style.setProperty('--wq-cols', `${GUTTER_WIDTH}px ${widths.map((w) => `${w}px`).join(' ')}`);
    root.style.setProperty('--wq-width', `${GUTTER_WIDTH + widths.reduce((a, b) => a + b, 0)}px`);
  }
  applyWidths();
  root.style.setProperty('--wq-row-h', `${ROW_HEIGHT}px`);
  const scroller = el(doc, 'div', {
    className: 'wq-scroll',
    attrs: {
      role: 'grid',
      tabindex: '0',
      'aria-label': 'Result rows',
      'aria-multiselectable': 'true',
      'aria-colcount': String(columns.length + 1),
    },
  });
  scroller.style.maxHeight = `${maxHeight}px`;
  const head = el(doc, 'div', { className: 'wq-head', attrs: { role: 'rowgroup' } });
  const body = el(doc, 'div', { className: 'wq-body', attrs: { role: 'rowgroup' } });
  const status = el(doc, 'div', { className: 'wq-table-status', attrs: { 'aria-live': 'polite' } });

  const { headerCells, filterInputs } = buildHeader(doc, head, columns, widths, {
    onSortClick: (name) => {
      const dir: SortDir | undefined = sort?.column !== name ? 'asc' : sort.dir === 'asc' ? 'desc' : undefined;
      handle.sortBy(name, dir);
    },
    onFilterInput: (name, text) => handle.setFilter(name, text),
    onResize: () => {
      applyWidths();
      measureStarts();
      paint();
    },
  });
  scroller.append(head, body);
  root.append(scroller, status);

  const headerHeight = HEAD_HEIGHT + FILTER_HEIGHT;
  const virtualizer = new Virtualizer<HTMLElement, HTMLElement>({
    count: view.length,
    getScrollElement: () => scroller,
    estimateSize: () => ROW_HEIGHT,
    overscan: 6,
    scrollMargin: headerHeight,
    scrollPaddingStart: headerHeight,
    scrollToFn: elementScroll,
    observeElementOffset,
    // Before layout (a hidden tab, a DOM without layout) the scroller measures 0; assume its
    // maximum height so the first paint already has rows.
    observeElementRect: (instance, cb) =>
      observeElementRect(instance, (rect: Rect) =>
        cb(rect.height > 0 ? rect : { width: rect.width || 800, height: maxHeight }),
      ),
    onChange: () => paint(),
  });

  const rendered = new Map<number, HTMLElement>(); // view position → row element
  // Rows leaving the viewport are kept and refilled for the rows entering it: refilling text is far
  // cheaper than creating a row's cells again, which is what keeps fast scrolling smooth.
  const pool: HTMLElement[] = [];

  const cells = new RowCells(doc, columns);

  const starts: number[] = [];
  const measureStarts = () => widths.reduce((x, w, i) => ((starts[i] = x), x + w), GUTTER_WIDTH);
  measureStarts();
  let colRange: [number, number] = [0, columns.length - 1];

  function visibleColumns(): [number, number] {
    const width = scroller.clientWidth;
    if (!width) return [0, columns.length - 1];
    const left = scroller.scrollLeft - 200;
    const right = scroller.scrollLeft + width + 200;
    let a = 0;
    while (a < columns.length - 1 && starts[a] + widths[a] < left) a++;
    let b = a;
    while (b < columns.length - 1 && starts[b + 1] < right) b++;
    return [a, b];
  }

  function fillRow(r: HTMLElement, pos: number): void {
    cells.fill(r, pos, view[pos], rows[view[pos]], colRange);
  }

  function decorate(r: HTMLElement, index: number): void {
    cells.decorate(r, selected.has(index), focus && focus.row === index ? focus.col : -1);
  }

  function paint(): void {
    const range = visibleColumns();
    if (range[0] !== colRange[0] || range[1] !== colRange[1]) {
      colRange = range;
      for (const [pos, r] of rendered) fillRow(r, pos);
    }
    const items = virtualizer.getVirtualItems();
    body.style.height = `${virtualizer.getTotalSize()}px`;
    const keep = new Set<number>();
    for (const item of items) keep.add(item.index);
    for (const [pos, r] of rendered) {
      if (!keep.has(pos)) {
        rendered.delete(pos);
        pool.push(r);
      }
    }
    for (const item of items) {
      let r = rendered.get(item.index);
      if (!r) {
        r = pool.pop() ?? cells.createRow();
        fillRow(r, item.index);
        rendered.set(item.index, r);
        if (r.parentNode !== body) body.append(r);
      }
      r.style.transform = `translateY(${item.start - headerHeight}px)`;
      decorate(r, view[item.index]);
    }
    // Rows not reused in this pass leave the DOM but stay pooled.
    for (const r of pool) if (r.parentNode) r.remove();
  }

  function updateStatus(): void {
    const total = rows.length.toLocaleString('en-US');
    const parts = [
      view.length === rows.length
        ? `${total} ${rows.length === 1 ? 'row' : 'rows'}`
        : `${view.length.toLocaleString('en-US')} of ${total} rows match the filters`,
    ];
    if (sort) parts.push(`sorted by ${sort.column} ${sort.dir === 'asc' ? '↑' : '↓'}`);
    if (selected.size) parts.push(`${selected.size.toLocaleString('en-US')} selected`);
    status.textContent = parts.join(' · ');
    scroller.setAttribute('aria-rowcount', String(view.length + 1));
  }

  function recompute(): void {
    const filters: [string, ColumnFilter][] = [];
    for (const [col, text] of filterText) {
      const f = parseFilter(text);
      if (f) filters.push([col, f]);
    }
    let next: number[] = [];
    if (filters.length) {
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i];
        if (filters.every(([col, f]) => f(cellOf(row, col)))) next.push(i);
      }
    } else {
      next = rows.map((_, i) => i);
    }
    if (sort) next = sortIndices(rows, next, sort.column, sort.dir);
    view = next;
    for (const r of rendered.values()) pool.push(r);
    rendered.clear();
    anchorPos = -1;
    virtualizer.setOptions({ ...virtualizer.options, count: view.length });
    virtualizer._willUpdate();
    virtualizer.measure();
    paint();
    updateStatus();
  }

  function selectionChanged(): void {
    for (const [pos, r] of rendered) decorate(r, view[pos]);
    updateStatus();
    opts.onSelectionChange?.([...selected]);
  }

  function copyRows(indices: number[]): void {
    const ordered = view.filter((i) => indices.includes(i));
    const list = ordered.length === indices.length ? ordered : indices;
    opts.copy(
      toTsv(
        columns,
        list.map((i) => rows[i]),
        true,
      ),
    );
  }

  let lastLeft = 0;
  scroller.addEventListener(
    'scroll',
    () => {
      if (scroller.scrollLeft !== lastLeft) {
        lastLeft = scroller.scrollLeft;
        paint();
      }
    },
    { passive: true },
  );

  body.addEventListener('click', (e) => {
    const target = e.target as HTMLElement;
    const rowEl = target.closest<HTMLElement>('.wq-data-row');
    if (!rowEl) return;
    const index = Number(rowEl.dataset.index);
    const pos = view.indexOf(index);
    const cellEl = target.closest<HTMLElement>('.wq-cell');
    const col = cellEl?.dataset.col !== undefined ? Number(cellEl.dataset.col) : undefined;
    if (e.shiftKey && anchorPos >= 0) {
      selected.clear();
      const [a, b] = anchorPos < pos ? [anchorPos, pos] : [pos, anchorPos];
      for (let p = a; p <= b; p++) selected.add(view[p]);
    } else if (e.ctrlKey || e.metaKey) {
      if (selected.has(index)) selected.delete(index);
      else selected.add(index);
      anchorPos = pos;
    } else {
      selected.clear();
      selected.add(index);
      anchorPos = pos;
    }
    focus = col !== undefined ? { row: index, col } : undefined;
    scroller.focus({ preventScroll: true });
    selectionChanged();
  });

  scroller.addEventListener('keydown', (e) => {
    const mod = e.ctrlKey || e.metaKey;
    if (mod && (e.key === 'c' || e.key === 'C')) {
      e.preventDefault();
      if (selected.size > 1 || !focus) handle.copySelection();
      else handle.copyFocusedCell();
    } else if (mod && (e.key === 'a' || e.key === 'A')) {
      e.preventDefault();
      for (const i of view) selected.add(i);
      selectionChanged();
    } else if (e.key === 'Escape') {
      selected.clear();
      focus = undefined;
      selectionChanged();
    } else if (isRowKey(e.key)) {
      e.preventDefault();
      if (!view.length) return;
      const cur = focus ? view.indexOf(focus.row) : anchorPos;
      const page = Math.max(1, Math.floor(scroller.clientHeight / ROW_HEIGHT) - 3 || 10);
      const pos = rowAfterKey(e.key, cur, view.length, page);
      selected.clear();
      selected.add(view[pos]);
      anchorPos = pos;
      focus = { row: view[pos], col: focus?.col ?? 0 };
      virtualizer.scrollToIndex(pos, { align: 'auto' });
      selectionChanged();
    } else if ((e.key === 'ArrowLeft' || e.key === 'ArrowRight') && focus) {
      e.preventDefault();
      focus = {
        row: focus.row,
        col: Math.max(0, Math.min(columns.length - 1, focus.col + (e.key === 'ArrowRight' ? 1 : -1))),
      };
      selectionChanged();
    }
  });

  const unmount = virtualizer._didMount();
  virtualizer._willUpdate();
  paint();
  updateStatus();

  const handle: TableHandle = {
    element: root,
    setRows(next) {
      rows = next;
      const keep = [...selected].filter((i) => i < rows.length);
      selected.clear();
      keep.forEach((i) => selected.add(i));
      recompute();
    },
    selectRow(index) {
      if (index < 0 || index >= rows.length) return;
      if (!view.includes(index)) {
        filterText.clear();
        for (const input of filterInputs.values()) input.value = '';
        recompute();
      }
      selected.clear();
      selected.add(index);
      anchorPos = view.indexOf(index);
      focus = { row: index, col: focus?.col ?? 0 };
      virtualizer.scrollToIndex(anchorPos, { align: 'center' });
      selectionChanged();
    },
    selectedRows: () => [...selected],
    viewOrder: () => view,
    copySelection() {
      if (selected.size) copyRows([...selected]);
      else copyRows(view);
    },
    copyFocusedCell() {
      if (!focus) return false;
      const row = rows[focus.row];
      opts.copy(cellText(row && cellOf(row, columns[focus.col])));
      return true;
    },
    sortBy(column, dir) {
      sort = dir ? { column, dir } : undefined;
      headerCells.forEach((th, i) => {
        const active = sort?.column === columns[i];
        th.setAttribute('aria-sort', active ? (sort!.dir === 'asc' ? 'ascending' : 'descending') : 'none');
        (th.querySelector('.wq-sort-mark') as HTMLElement).textContent = active
          ? sort!.dir === 'asc'
            ? '▲'
            : '▼'
          : '';
      });
      recompute();
    },
    setFilter(column, text) {
      if (text.trim()) filterText.set(column, text);
      else filterText.delete(column);
      const input = filterInputs.get(column);
      if (input && input.value !== text) input.value = text;
      recompute();
    },
    refresh() {
      virtualizer._willUpdate();
      virtualizer.measure();
      paint();
    },
    dispose() {
      unmount();
      for (const r of rendered.values()) r.remove();
      rendered.clear();
      pool.length = 0;
    },
  };
  return handle;
}
