// The one contract between the evaluation results grid's host side (vscode/evalGrid.ts) and its webview
// (evalGrid/main.ts). Both import this file; every message is discriminated by `type`.
import type { CellMark, RowFilter, RunMeta } from './core/eval/grid';
import type { CellResult } from './core/eval/runner';

export const EVAL_GRID_VIEW_TYPE = 'apiWorkbench.generation.evalGrid';

/** A cell of the grid: the dataset item (row) and the variant (column). */
export interface CellRef {
  item: number;
  variant: string;
}

/** The earlier run the grid is compared with, and the marks of the cells that changed (by cellKey). */
export interface Comparison {
  label: string;
  marks: [string, CellMark][];
}

export interface GridProgress {
  done: number;
  total: number;
  running: boolean;
  /** Shown beside the count: stopped, resumed, an error that ended the run. */
  note?: string;
}

/** What a grid tab keeps with the window (webview state), so a reload reopens the same run and comparison. */
export interface GridRestoreState {
  /** The run's results file (absolute). */
  results: string;
  /** The earlier run's results file it was compared with. */
  earlier?: string;
}

export interface GridInit {
  meta: RunMeta;
  cells: CellResult[];
  progress: GridProgress;
  /** The run's file, as the toolbar names it (workspace-relative). */
  source: string;
  comparison?: Comparison;
  /** Only in ExtensionMode.Test: the page reports what it shows after each paint (`rendered`). */
  testAcks: boolean;
}

export type HostToGrid =
  | { type: 'init'; data: GridInit }
  /** Cells that completed (live), in the order they did. */
  | { type: 'cells'; cells: CellResult[] }
  | { type: 'progress'; progress: GridProgress }
  | { type: 'comparison'; comparison: Comparison | undefined }
  /** Kept as the tab's state: what a window reload reopens. */
  | { type: 'remember'; state: GridRestoreState };

export type GridToHost =
  | { type: 'ready' }
  | { type: 'openInChat'; cell: CellRef }
  | { type: 'diff'; a: CellRef; b: CellRef }
  | { type: 'export'; format: 'csv' | 'json' }
  /** "Compare with earlier run…": the host asks which one. */
  | { type: 'compare' }
  | { type: 'openRun' }
  | { type: 'stop' }
  /** Test mode only: what the page shows, so host tests can check it without DOM access. */
  | {
      type: 'rendered';
      filter: RowFilter;
      /** The run is still going. */
      running: boolean;
      /** Rows the filter keeps, and how many row elements are in the DOM (virtualised: only the visible ones). */
      rows: number;
      domRows: number;
      /** Cells the page has, and those it shows as worse / better (cellKey with the NUL shown as "|"). */
      cells: number;
      worse: string[];
      better: string[];
      /** The summary row's text per variant. */
      summary: string[];
      /** The text of the first visible row's cells. */
      firstRow: string[];
    };

export type GridRenderedAck = Extract<GridToHost, { type: 'rendered' }>;
