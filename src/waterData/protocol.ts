// The one contract between the notebook controller (extension host) and the renderer (browser).
// Both sides import this file; nothing else crosses the boundary.

/** MIME type of every query-cell result; the renderer is registered for it. */
export const WATER_RESULT_MIME = 'application/vnd.api-workbench.water-result+json';

export type EntitySet = 'Metadata' | 'Locations' | 'Observations' | 'Records';

/** A dataset's terms of use, which must accompany any presentation of its rows. */
export interface DatasetAttribution {
  doi: string;
  datasetName?: string;
  citation?: string;
  /** Licence as the API returns it: a code (odc-by, odc-pddl, ogl…) or a URL. */
  licence?: string;
  disclaimer?: string;
}

export interface WaterResult {
  /**
   * Identifies this output among all others, so two cells running the same query stay apart. Absent in
   * outputs saved before it existed; those are matched by requestUrl.
   */
  resultId?: string;
  entitySet: EntitySet;
  /** The request URL of the first page (the key is never part of it). */
  requestUrl: string;
  /** Column names in display order. */
  columns: string[];
  /** Rows as returned (values are rendered as text, never HTML). */
  rows: Record<string, unknown>[];
  /** Set when the query asked `$count=true`. */
  count?: { value: number; estimate: boolean };
  /** Present when more pages exist beyond what was fetched. */
  nextLink?: string;
  /** True when the row limit stopped paging. */
  truncated?: boolean;
  /** The $top the query gave: the page size of every later page too ("Load more" never rewrites it). */
  pageTop?: number;
  pages: number;
  attributions: DatasetAttribution[];
  /** Problems that did not lose rows (e.g. a retry that eventually gave up on the last page). */
  warnings?: string[];
}

/**
 * Every message names its output by resultId (when the output has one) and by requestUrl (the fallback
 * for outputs saved before resultId existed).
 */
interface ResultRef {
  resultId?: string;
  requestUrl: string;
}

/** Messages the renderer posts to the controller (requiresMessaging: optional). */
export type RendererToHost = ResultRef &
  (
    | { type: 'rendered'; rows: number }
    | { type: 'loadMore' }
    | { type: 'fetchAll' }
    | { type: 'export'; format: 'csv' | 'json' }
  );

/** Rows fetched after the output was rendered; the renderer appends them instead of re-rendering. */
export type HostToRenderer = ResultRef & {
  type: 'appendRows';
  rows: Record<string, unknown>[];
  nextLink?: string;
  /** The result's state after the append; absent fields keep the renderer's own bookkeeping. */
  pages?: number;
  truncated?: boolean;
  attributions?: DatasetAttribution[];
  warnings?: string[];
};

/** True when a message addressed to `target` is meant for the output showing `result`. */
export function sameResult(target: ResultRef, result: ResultRef): boolean {
  if (target.resultId || result.resultId) return target.resultId === result.resultId;
  return target.requestUrl === result.requestUrl;
}
