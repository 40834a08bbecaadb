// Entry of the evaluation results grid's webview (bundled to dist/webview/evalGrid.js). Rows are dataset items,
// columns are variants; only the rows the viewport shows are in the DOM (fixed row height, rows placed by
// offset), so a run of 10,000 cells paints and scrolls like one of 100.
import { cellKey } from '../core/eval/cellKey';
import { gridSummary, rowsToShow, visibleRows, type CellMark, type RowFilter, type RunMeta } from '../core/eval/grid';
import type { CellResult } from '../core/eval/runner';
import type { CellRef, Comparison, GridInit, GridProgress, GridToHost, HostToGrid } from '../evalGridProtocol';
import { button, el } from '../webview/dom';
import { cellElement } from './cell';

declare function acquireVsCodeApi(): { postMessage(m: GridToHost): void; setState(state: unknown): void };

const vscode = acquireVsCodeApi();
const post = (m: GridToHost) => vscode.postMessage(m);

/** Every row has this height (px), so the rows a scroll position shows are known without measuring. */
const ROW_HEIGHT = 184;

let meta: RunMeta | undefined;
const cells = new Map<string, CellResult>();
let marks = new Map<string, CellMark>();
let comparison: Comparison | undefined;
let progress: GridProgress = { done: 0, total: 0, running: false };
let filter: RowFilter = 'all';
let rows: number[] = [];
/** Selected cells (cellKey), at most two: two make a diff. */
let selected: string[] = [];
/** The cell that has the keyboard: a position in `rows` and a column. */
let focus = { row: 0, col: 0 };
let testAcks = false;

const app = document.getElementById('app')!;
const title = el('h1', { class: 'title' });
const source = el('span', { class: 'source' });
const progressText = el('span', { class: 'progress', 'aria-live': 'polite', 'data-testid': 'grid-progress' });
const compareText = el('span', { class: 'compared', 'data-testid': 'grid-compared' });
const filterSelect = el(
  'select',
  { 'aria-label': 'Rows', 'data-testid': 'grid-filter' },
  el('option', { value: 'all', text: 'All rows' }),
  el('option', { value: 'failures', text: 'Failures only' }),
  el('option', { value: 'changed', text: 'Changed since earlier run' }),
);
const selectionText = el('span', { class: 'selection' });
const stopButton = button('Stop', () => post({ type: 'stop' }), { 'data-testid': 'grid-stop' });
const diffButton = button(
  'Diff',
  () => selected.length === 2 && post({ type: 'diff', a: ref(selected[0]), b: ref(selected[1]) }),
  {
    title: 'Compare the two selected cells',
    'data-testid': 'grid-diff',
  },
);
const chatButton = button(
  'Open in Chat',
  () => selected.length === 1 && post({ type: 'openInChat', cell: ref(selected[0]) }),
  {
    title: 'Continue the selected cell’s conversation in the chat',
    'data-testid': 'grid-open-chat',
  },
);
const toolbar = el(
  'header',
  { class: 'toolbar' },
  el('div', { class: 'heading' }, title, source),
  el(
    'div',
    { class: 'actions' },
    progressText,
    stopButton,
    filterSelect,
    selectionText,
    diffButton,
    chatButton,
    button('Compare with Earlier Run…', () => post({ type: 'compare' }), { 'data-testid': 'grid-compare' }),
    button('Open Run…', () => post({ type: 'openRun' }), { 'data-testid': 'grid-open-run' }),
    button('Export CSV…', () => post({ type: 'export', format: 'csv' }), { 'data-testid': 'grid-export-csv' }),
    button('Export JSON…', () => post({ type: 'export', format: 'json' }), { 'data-testid': 'grid-export-json' }),
    compareText,
  ),
);
const head = el('div', { class: 'grid-head', role: 'rowgroup' });
const body = el('div', { class: 'grid-body', role: 'rowgroup' });
const empty = el('div', { class: 'empty', 'data-testid': 'grid-empty' });
const scroller = el('div', { class: 'grid-scroll', role: 'grid', tabindex: '0', 'aria-label': 'Results' }, head, body);
app.append(toolbar, scroller, empty);

function ref(key: string): CellRef {
  const at = key.indexOf('\u0000');
  return { item: Number(key.slice(0, at)), variant: key.slice(at + 1) };
}

function setColumns(variants: string[]): void {
  app.style.setProperty('--grid-columns', `minmax(180px, 240px) repeat(${variants.length}, minmax(300px, 1fr))`);
  app.style.setProperty('--grid-min-width', `${240 + variants.length * 300}px`);
}

function percent(n: number): string {
  return `${Math.round(n * 1000) / 10}%`;
}

function paintHead(): void {
  if (!meta) return;
  const s = gridSummary(meta, cells);
  const names = el(
    'div',
    { class: 'row head', role: 'row' },
    el('div', { class: 'label', role: 'columnheader', text: 'Item' }),
  );
  const summary = el(
    'div',
    { class: 'row summary', role: 'row', 'data-testid': 'grid-summary' },
    el('div', { class: 'label', text: 'Summary' }),
  );
  for (const v of s.variants) {
    names.append(el('div', { class: 'variant', role: 'columnheader', text: v.variant, title: v.variant }));
    if (!v.cells) {
      summary.append(el('div', { class: 'stats' }, el('span', { class: 'meta', text: 'No cells yet.' })));
      continue;
    }
    summary.append(
      el(
        'div',
        { class: 'stats' },
        el('span', { class: 'rate', text: `${v.passed}/${v.cells} passed (${percent(v.passRate)})` }),
        el('span', { text: `mean ${v.meanLatencyMs} ms · p95 ${v.p95LatencyMs} ms` }),
        el('span', { text: `tokens ${v.tokensIn} in · ${v.tokensOut} out` }),
        v.errors
          ? el('span', { class: 'error-text', text: `${v.errors} failed request${v.errors > 1 ? 's' : ''}` })
          : undefined,
      ),
    );
  }
  head.replaceChildren(names, summary);
}

function paintToolbar(): void {
  if (!meta) return;
  title.textContent = meta.prompt;
  source.textContent = [
    meta.dataset ?? 'default input',
    meta.startedAt ? new Date(meta.startedAt).toLocaleString() : '',
  ]
    .filter(Boolean)
    .join(' · ');
  progressText.textContent = `${progress.done} / ${progress.total} cells${progress.running ? ' · running' : ''}${progress.note ? ` · ${progress.note}` : ''}`;
  stopButton.hidden = !progress.running;
  filterSelect.options[2].disabled = !comparison;
  if (!comparison && filter === 'changed') filter = filterSelect.value = 'all';
  let worse = 0;
  for (const m of marks.values()) if (m === 'worse') worse++;
  compareText.textContent = comparison
    ? `Compared with ${comparison.label}: ${worse} worse, ${marks.size - worse} better`
    : '';
  compareText.dataset.worse = String(worse);
  selectionText.textContent = selected.length ? `${selected.length} selected` : '';
  diffButton.disabled = selected.length !== 2;
  chatButton.disabled = selected.length !== 1 || !cells.get(selected[0])?.output;
}

/** Each row's label, by item index. */
const labels = new Map<number, string>();
/** Row elements in the DOM, by item index. */
const rendered = new Map<number, HTMLElement>();

function buildRow(pos: number): HTMLElement {
  const item = { index: rows[pos], label: labels.get(rows[pos]) ?? '' };
  const row = el(
    'div',
    { class: 'row', role: 'row', 'data-item': String(item.index) },
    el(
      'div',
      { class: 'label', role: 'rowheader', title: item.label },
      el('b', { text: `#${item.index}` }),
      el('span', { text: item.label }),
    ),
  );
  for (const v of meta!.variants) {
    const key = cellKey(item.index, v);
    row.append(
      cellElement(cells.get(key), {
        key,
        mark: marks.get(key),
        selected: selected.includes(key),
        running: progress.running,
      }),
    );
  }
  row.style.transform = `translateY(${pos * ROW_HEIGHT}px)`;
  row.dataset.pos = String(pos);
  return row;
}

function paintRows(force = false): void {
  if (!meta) return;
  const { first, end } = visibleRows(scroller.scrollTop, scroller.clientHeight, ROW_HEIGHT, rows.length);
  for (const [item, row] of rendered) {
    const pos = Number(row.dataset.pos);
    if (force || pos < first || pos >= end || rows[pos] !== item) {
      row.remove();
      rendered.delete(item);
    }
  }
  for (let pos = first; pos < end; pos++) {
    if (rendered.has(rows[pos])) continue;
    const row = buildRow(pos);
    rendered.set(rows[pos], row);
    body.append(row);
  }
  markFocus();
}

function markFocus(): void {
  for (const c of body.querySelectorAll('.cell[data-focused]')) c.removeAttribute('data-focused');
  const item = rows[focus.row];
  const v = meta?.variants[focus.col];
  if (item === undefined || v === undefined) return;
  const c = body.querySelector(`.row[data-item="${item}"] .cell[data-key="${CSS.escape(cellKey(item, v))}"]`);
  c?.setAttribute('data-focused', '');
}

function layout(): void {
  if (!meta) return;
  rows = rowsToShow(meta.items, meta.variants, cells, filter, marks);
  body.style.height = `${rows.length * ROW_HEIGHT}px`;
  focus.row = Math.min(focus.row, Math.max(0, rows.length - 1));
  empty.textContent = !meta.items.length
    ? 'This run has no items.'
    : rows.length
      ? ''
      : filter === 'failures'
        ? progress.running
          ? 'No failures so far.'
          : 'No failures: every cell passed.'
        : 'No cell changed against the earlier run.';
  empty.hidden = rows.length > 0;
  paintRows(true);
}

let frame = 0;
/** Repaints at the next frame (cells arriving live, a scroll), at most once a frame. */
function schedule(what: { head?: boolean; layout?: boolean; toolbar?: boolean }): void {
  pending.head ||= !!what.head;
  pending.layout ||= !!what.layout;
  pending.toolbar ||= !!what.toolbar;
  if (frame) return;
  frame = requestAnimationFrame(() => {
    frame = 0;
    const p = { ...pending };
    pending.head = pending.layout = pending.toolbar = false;
    if (p.toolbar || p.head || p.layout) paintToolbar();
    if (p.head) paintHead();
    if (p.layout) layout();
    else paintRows();
    report();
  });
}
const pending = { head: false, layout: false, toolbar: false };

function report(): void {
  if (!testAcks) return;
  const first = body.querySelector<HTMLElement>('.row[data-pos="0"]') ?? body.querySelector<HTMLElement>('.row');
  const list = (m: CellMark) => [...marks].filter(([, x]) => x === m).map(([k]) => k.replace('\u0000', '|'));
  post({
    type: 'rendered',
    filter,
    running: progress.running,
    rows: rows.length,
    domRows: body.querySelectorAll('.row').length,
    cells: cells.size,
    worse: list('worse'),
    better: list('better'),
    summary: [...head.querySelectorAll('.summary .stats')].map((s) => s.textContent ?? ''),
    firstRow: first ? [...first.querySelectorAll('.cell')].map((c) => c.textContent ?? '') : [],
  });
}

function init(data: GridInit): void {
  meta = data.meta;
  testAcks = data.testAcks;
  labels.clear();
  for (const i of meta.items) labels.set(i.index, i.label);
  cells.clear();
  for (const c of data.cells) cells.set(cellKey(c.item, c.variant), c);
  progress = data.progress;
  setComparison(data.comparison);
  selected = [];
  setColumns(meta.variants);
  document.title = meta.prompt;
  paintToolbar();
  paintHead();
  layout();
  report();
}

function setComparison(c: Comparison | undefined): void {
  comparison = c;
  marks = new Map(c?.marks ?? []);
}

function toggle(key: string): void {
  selected = selected.includes(key) ? selected.filter((k) => k !== key) : [...selected, key].slice(-2);
  for (const c of body.querySelectorAll<HTMLElement>('.cell'))
    c.setAttribute('aria-selected', selected.includes(c.dataset.key ?? '') ? 'true' : 'false');
  paintToolbar();
}

body.addEventListener('click', (e) => {
  const c = (e.target as Element).closest<HTMLElement>('.cell');
  if (!c?.dataset.key || (e.target as Element).closest('a')) return;
  const row = Number(c.closest<HTMLElement>('.row')?.dataset.pos);
  const { variant } = ref(c.dataset.key);
  focus = { row, col: Math.max(0, meta?.variants.indexOf(variant) ?? 0) };
  toggle(c.dataset.key);
  markFocus();
  scroller.focus({ preventScroll: true });
});
body.addEventListener('click', (e) => {
  const a = (e.target as Element).closest('a');
  if (a) e.preventDefault(); // links in replies open nothing from inside the grid
});

scroller.addEventListener('keydown', (e) => {
  if (!meta || !rows.length) return;
  const moves: Record<string, [number, number]> = {
    ArrowDown: [1, 0],
    ArrowUp: [-1, 0],
    ArrowRight: [0, 1],
    ArrowLeft: [0, -1],
    PageDown: [Math.max(1, Math.floor(scroller.clientHeight / ROW_HEIGHT) - 1), 0],
    PageUp: [-Math.max(1, Math.floor(scroller.clientHeight / ROW_HEIGHT) - 1), 0],
  };
  const m = moves[e.key];
  if (m) {
    e.preventDefault();
    focus = {
      row: Math.min(rows.length - 1, Math.max(0, focus.row + m[0])),
      col: Math.min(meta.variants.length - 1, Math.max(0, focus.col + m[1])),
    };
    const top = focus.row * ROW_HEIGHT;
    const headH = head.offsetHeight;
    if (top < scroller.scrollTop) scroller.scrollTop = top;
    else if (top + ROW_HEIGHT > scroller.scrollTop + scroller.clientHeight - headH)
      scroller.scrollTop = top + ROW_HEIGHT - scroller.clientHeight + headH;
    paintRows();
  } else if (e.key === ' ' || e.key === 'Enter') {
    e.preventDefault();
    toggle(cellKey(rows[focus.row], meta.variants[focus.col]));
  }
});

scroller.addEventListener('scroll', () => schedule({}), { passive: true });
window.addEventListener('resize', () => schedule({}));
filterSelect.addEventListener('change', () => {
  filter = filterSelect.value as RowFilter;
  scroller.scrollTop = 0;
  schedule({ layout: true });
});

window.addEventListener('message', (e: MessageEvent<HostToGrid>) => {
  const m = e.data;
  switch (m.type) {
    case 'init':
      init(m.data);
      break;
    case 'cells':
      for (const c of m.cells) {
        const key = cellKey(c.item, c.variant);
        cells.set(key, c);
        rendered.get(c.item)?.remove();
        rendered.delete(c.item);
      }
      schedule({ head: true, layout: filter !== 'all' });
      break;
    case 'progress':
      progress = m.progress;
      // A run that ended turns its waiting cells into "not run".
      schedule({ toolbar: true, layout: !progress.running });
      break;
    case 'comparison':
      setComparison(m.comparison);
      schedule({ layout: true });
      break;
    case 'remember':
      vscode.setState(m.state);
      break;
  }
});

post({ type: 'ready' });
