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
  pages: number;
  attributions: DatasetAttribution[];
  /** Problems that did not lose rows (e.g. a retry that eventually gave up on the last page). */
  warnings?: string[];
}

/** Messages the renderer posts to the controller (requiresMessaging: optional). */
export type RendererToHost =
  | { type: 'rendered'; requestUrl: string; rows: number }
  | { type: 'loadMore'; requestUrl: string }
  | { type: 'fetchAll'; requestUrl: string }
  | { type: 'export'; requestUrl: string; format: 'csv' | 'json' };

export type HostToRenderer = { type: 'appendRows'; requestUrl: string; rows: Record<string, unknown>[]; nextLink?: string };
