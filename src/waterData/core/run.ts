// Runs one validated query cell to a WaterResult: count or rows, paging up to the limit, attribution.
import { WATER_SELECT_FIELDS, type WaterEntitySet } from '../../shared/wire/waterData';
import type { DatasetAttribution, WaterResult } from '../protocol';
import { AttributionCache, attributionFromMetadata, doisOf } from './attribution';
import type { WaterClient } from './client';
import { WaterApiError } from './errors';
import { collectRows, withTop, type PagedRows, type PagingProgress } from './pager';
import type { ParsedQuery } from './query';
import { buildUrl, toRequest, type WaterRequest } from './url';

/** Rows per request when the query gives no $top: full Observations/Records rows are ~1 kB each. */
export const DEFAULT_PAGE_SIZE: Record<WaterEntitySet, number> = {
  Metadata: 100,
  Locations: 10000,
  Observations: 5000,
  Records: 4000,
};

/** Above this the service calls a count an estimate. */
export const COUNT_ESTIMATE_ABOVE = 1_000_000;

export interface RunContext {
  client: WaterClient;
  attributions: AttributionCache;
  /** Most rows to hold for a result (the row-limit setting). */
  rowLimit: number;
  signal?: AbortSignal;
  onProgress?: (p: PagingProgress) => void;
}

export function displayColumns(req: WaterRequest, rows: readonly Record<string, unknown>[]): string[] {
  if (req.select?.length) return [...req.select];
  const known = WATER_SELECT_FIELDS[req.entitySet];
  const present = new Set<string>();
  for (const r of rows.slice(0, 50)) for (const k of Object.keys(r)) present.add(k);
  if (present.size === 0) return [...known];
  return [...known.filter((k) => present.has(k)), ...[...present].filter((k) => !known.includes(k))];
}

/** The request actually sent: DOI is always fetched so the rows can be attributed. */
export function wireRequest(q: ParsedQuery): WaterRequest {
  const req = toRequest(q);
  if (req.select && !req.select.includes('DOI')) req.select = [...req.select, 'DOI'];
  return req;
}

export function parseCount(body: unknown): { value: number; estimate: boolean } {
  const b = body as Record<string, unknown>;
  const raw = b?.value ?? b?.['odata.count'] ?? b?.['@odata.count'];
  const value = typeof raw === 'number' ? raw : Number(raw);
  if (!Number.isFinite(value))
    throw new WaterApiError('invalid-response', 'The count response has no number in "value".', '', undefined);
  return { value, estimate: b?.['@odata.count.estimate'] === true || value > COUNT_ESTIMATE_ABOVE };
}

export async function runQuery(q: ParsedQuery, ctx: RunContext): Promise<WaterResult> {
  const display = toRequest(q);
  const req = wireRequest(q);
  if (req.count) {
    const url = buildUrl(ctx.client.baseUrl, { entitySet: req.entitySet, filter: req.filter, count: true });
    const res = await ctx.client.get(url, ctx.signal);
    ctx.onProgress?.({ pages: 1, rows: 0 });
    return {
      entitySet: req.entitySet,
      requestUrl: url,
      columns: [],
      rows: [],
      count: parseCount(res.body),
      pages: 1,
      attributions: [],
    };
  }
  const maxRows = q.top ?? ctx.rowLimit;
  const pageSize = q.top ?? Math.min(DEFAULT_PAGE_SIZE[req.entitySet], ctx.rowLimit);
  const firstUrl = withTop(buildUrl(ctx.client.baseUrl, { ...req, top: undefined }), Math.min(pageSize, maxRows));
  const paged = await collectRows(ctx.client, firstUrl, {
    maxRows,
    pageSize,
    signal: ctx.signal,
    onPage: (p) => ctx.onProgress?.(p),
  });
  const result = await toResult(req.entitySet, firstUrl, displayColumns(display, paged.rows), paged, ctx);
  return q.top !== undefined ? { ...result, pageTop: q.top } : result;
}

/**
 * How many rows "Load more" adds: one more page of the size the first run used, the query's `$top` (its page
 * size) or else the row limit. "Fetch all" is the explicit way to everything.
 */
export function loadMoreRows(previous: Pick<WaterResult, 'pageTop'>, rowLimit: number): number {
  return previous.pageTop !== undefined && previous.pageTop > 0 ? previous.pageTop : rowLimit;
}

/** "Load more" / "fetch all": continues a result from its nextLink. */
export async function continueResult(previous: WaterResult, extraRows: number, ctx: RunContext): Promise<WaterResult> {
  if (!previous.nextLink) return previous;
  // A $top from the user is the page size of every page: its nextLinks are followed exactly as given.
  const keepTop = previous.pageTop !== undefined;
  const pageSize = Math.min(DEFAULT_PAGE_SIZE[previous.entitySet], extraRows);
  const paged = await collectRows(ctx.client, previous.nextLink, {
    maxRows: extraRows,
    pageSize,
    keepTop,
    signal: ctx.signal,
    onPage: (p) => ctx.onProgress?.({ pages: previous.pages + p.pages, rows: previous.rows.length + p.rows }),
  });
  const merged: PagedRows = { ...paged, rows: [...previous.rows, ...paged.rows], pages: previous.pages + paged.pages };
  const result = await toResult(previous.entitySet, previous.requestUrl, previous.columns, merged, ctx);
  return keepTop ? { ...result, pageTop: previous.pageTop } : result;
}

async function toResult(
  set: WaterEntitySet,
  requestUrl: string,
  columns: string[],
  paged: PagedRows,
  ctx: RunContext,
): Promise<WaterResult> {
  const warnings: string[] = [];
  if (paged.error)
    warnings.push(`Stopped after ${paged.rows.length} rows: ${paged.error.message} ${paged.error.advice}`.trim());
  let attributions: DatasetAttribution[];
  const dois = doisOf(paged.rows);
  if (set === 'Metadata') {
    for (const r of paged.rows) {
      const a = attributionFromMetadata(r);
      if (a) ctx.attributions.remember(a);
    }
  }
  try {
    attributions = await ctx.attributions.resolve(ctx.client, dois, ctx.signal);
  } catch (e) {
    if ((e as WaterApiError).kind === 'cancelled') throw e;
    attributions = dois.map((doi) => ({ doi }));
    warnings.push(
      `Could not fetch the citation and licence of ${dois.length} dataset(s): ${(e as Error).message} Cite them by DOI: https://doi.org/<DOI>.`,
    );
  }
  return {
    entitySet: set,
    requestUrl,
    columns,
    rows: paged.rows,
    nextLink: paged.nextLink,
    truncated: paged.truncated || undefined,
    pages: paged.pages,
    attributions,
    ...(warnings.length ? { warnings } : {}),
  };
}
