// The results grid's logic, editor-free and browser-safe (the grid's webview imports it): a cell's status, the
// comparison with an earlier run, the rows the failures filter keeps, the window of rows a scroll position shows,
// and the CSV and JSON exports. Rows are dataset items, columns are variants.
import { reportCell, summarise, type EvalSummary } from './report';
import { cellKey } from './cellKey';
import type { CellResult } from './runner';

/** What a run folder keeps beside a run's results (JSON Lines): enough to show the grid of an earlier run. */
export interface RunMeta {
  version: 1;
  /** The prompt file, workspace-relative (or absolute outside a workspace). */
  prompt: string;
  /** The dataset file, like the prompt's path; null: the prompt's default input. */
  dataset: string | null;
  /** The columns, in order. */
  variants: string[];
  /** The rows, in order: each dataset item's index and a short label of its input. */
  items: { index: number; label: string }[];
  /** ISO time the run started. */
  startedAt: string;
  concurrency: number;
}

export type CellStatus = 'pass' | 'fail' | 'error';
/** How a cell changed against the same cell of an earlier run. */
export type CellMark = 'worse' | 'better';

export function cellStatus(c: Pick<CellResult, 'error' | 'assertions'>): CellStatus {
  if (c.error) return 'error';
  return c.assertions.every((a) => a.pass) ? 'pass' : 'fail';
}

const RANK: Record<CellStatus, number> = { error: 0, fail: 1, pass: 2 };

/**
 * Worse: it passed and now fails, or it now fails with an error it did not have (pass → fail, pass → error,
 * fail → error); better: the reverse. A cell the earlier run did not have is neither.
 */
export function compareCell(now: CellResult, before: CellResult | undefined): CellMark | undefined {
  if (!before) return undefined;
  const a = RANK[cellStatus(now)];
  const b = RANK[cellStatus(before)];
  return a < b ? 'worse' : a > b ? 'better' : undefined;
}

/** Marks of every cell of `now` that changed against `before`, by cellKey. */
export function compareRuns(now: Iterable<CellResult>, before: Iterable<CellResult>): Map<string, CellMark> {
  const earlier = new Map<string, CellResult>();
  for (const c of before) earlier.set(cellKey(c.item, c.variant), c);
  const marks = new Map<string, CellMark>();
  for (const c of now) {
    const key = cellKey(c.item, c.variant);
    const mark = compareCell(c, earlier.get(key));
    if (mark) marks.set(key, mark);
  }
  return marks;
}

export type RowFilter = 'all' | 'failures' | 'changed';

/**
 * The item indices of the rows to show, in the run's order. `failures`: a row with a cell that failed or
 * errored; `changed`: a row with a marked cell. Cells not run yet fail nothing.
 */
export function rowsToShow(
  items: readonly { index: number }[],
  variants: readonly string[],
  cells: ReadonlyMap<string, CellResult>,
  filter: RowFilter,
  marks: ReadonlyMap<string, CellMark> = new Map(),
): number[] {
  const keep = (item: number) =>
    variants.some((v) => {
      const key = cellKey(item, v);
      if (filter === 'changed') return marks.has(key);
      const c = cells.get(key);
      return c !== undefined && cellStatus(c) !== 'pass';
    });
  return items.map((i) => i.index).filter((i) => filter === 'all' || keep(i));
}

/** The rows a viewport shows (with `overscan` more on each side): `first` to `end` (exclusive). */
export function visibleRows(
  scrollTop: number,
  viewportHeight: number,
  rowHeight: number,
  rowCount: number,
  overscan = 2,
): { first: number; end: number } {
  if (rowCount <= 0 || rowHeight <= 0) return { first: 0, end: 0 };
  const top = Math.max(0, Math.floor(scrollTop / rowHeight));
  const first = Math.min(rowCount, Math.max(0, top - overscan));
  const end = Math.min(rowCount, top + Math.ceil(Math.max(0, viewportHeight) / rowHeight) + 1 + overscan);
  return { first, end: Math.max(first, end) };
}

/** A short one-line label of a dataset item's input: its values in order, clipped. */
export function itemLabel(input: Record<string, unknown>, max = 80): string {
  const text = Object.entries(input)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ')
    .replace(/\s+/g, ' ');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A CSV field (RFC 4180): quoted when it holds a comma, quote, CR or LF; a leading = + - @ is neutralised. */
function csvField(v: string | number | null | undefined): string {
  let s = v === null || v === undefined ? '' : String(v);
  // Spreadsheets run a field starting with these as a formula: a model's reply must not become one.
  if (/^[=+\-@\t\r]/.test(s) && typeof v === 'string') s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const CSV_COLUMNS = [
  'item',
  'input',
  'variant',
  'status',
  'mark',
  'output',
  'finishReason',
  'assertions',
  'safety',
  'tokensIn',
  'tokensOut',
  'ttftMs',
  'latencyMs',
  'error',
] as const;

/** One line per cell (rows in the run's order, variants in column order); cells not run are left out. */
export function gridCsv(
  meta: RunMeta,
  cells: ReadonlyMap<string, CellResult>,
  marks: ReadonlyMap<string, CellMark> = new Map(),
): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const item of meta.items)
    for (const v of meta.variants) {
      const key = cellKey(item.index, v);
      const c = cells.get(key);
      if (!c) continue;
      lines.push(
        [
          c.item,
          item.label,
          c.variant,
          cellStatus(c),
          marks.get(key) ?? '',
          c.output,
          c.finishReason ?? c.blockReason ?? '',
          c.assertions
            .map((a) => `${a.type}:${a.pass ? 'pass' : 'fail'}${a.reason ? ` (${a.reason})` : ''}`)
            .join('; '),
          (c.safety ?? []).map((s) => `${s.category}:${s.probability}${s.blocked ? ':blocked' : ''}`).join('; '),
          c.usage.promptTokenCount ?? '',
          c.usage.candidatesTokenCount ?? '',
          c.ttftMs === null ? '' : Math.round(c.ttftMs),
          Math.round(c.latencyMs),
          c.error ? `${c.error.code} ${c.error.status}: ${c.error.message}` : '',
        ]
          .map(csvField)
          .join(','),
      );
    }
  return lines.join('\r\n') + '\r\n';
}

/** The run's summary: one entry per variant (pass rate, mean and p95 latency, tokens) and overall. */
export function gridSummary(meta: RunMeta, cells: ReadonlyMap<string, CellResult>): EvalSummary {
  return summarise([...orderedCells(meta, cells)], meta.variants, meta.items.length * meta.variants.length);
}

function* orderedCells(meta: RunMeta, cells: ReadonlyMap<string, CellResult>): Generator<CellResult> {
  for (const item of meta.items)
    for (const v of meta.variants) {
      const c = cells.get(cellKey(item.index, v));
      if (c) yield c;
    }
}

/** The JSON export: the run (as its meta says), every cell as `eval --format json` prints it, and the summary. */
export function gridJson(
  meta: RunMeta,
  cells: ReadonlyMap<string, CellResult>,
  marks: ReadonlyMap<string, CellMark> = new Map(),
): string {
  const list = [...orderedCells(meta, cells)].map((c) => {
    const mark = marks.get(cellKey(c.item, c.variant));
    return mark ? { ...reportCell(c), mark } : reportCell(c);
  });
  return JSON.stringify({ run: meta, cells: list, summary: gridSummary(meta, cells) }, null, 2) + '\n';
}
