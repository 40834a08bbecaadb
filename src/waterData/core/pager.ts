// Follows a query's pages — @odata.nextLink (or the OpenAPI spelling odata.nextLink), else the Link header —
// up to a row limit, asking each page for no more rows than are still wanted. Errors after the first page
// keep the rows already received and the link to resume from.
import { WaterApiError } from './errors';
import { notJsonError, type WaterClient } from './client';
import { PageBodyParser } from './pageBody';
import { PageBodyError } from './pageBodyBytes';
import { followableNextLink, reencodeQuery } from './url';

export interface Page {
  url: string;
  rows: Record<string, unknown>[];
  nextLink?: string;
  body: Record<string, unknown>;
}

export function parseLinkHeader(header: string | undefined): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(/,(?=\s*<)/)) {
    const m = /<([^>]*)>\s*;(.*)$/.exec(part.trim());
    if (m && /\brel\s*=\s*"?next"?/i.test(m[2])) return m[1];
  }
  return undefined;
}

export function withTop(url: string, top: number): string {
  const q = url.indexOf('?');
  const base = q < 0 ? url : url.slice(0, q);
  const params =
    q < 0
      ? []
      : url
          .slice(q + 1)
          .split('&')
          .filter((p) => p && !/^(%24|\$)top=/i.test(p));
  params.push(`%24top=${top}`);
  return `${base}?${params.join('&')}`;
}

export function topOf(url: string): number | undefined {
  const m = /[?&](?:%24|\$)top=(\d+)/i.exec(url);
  return m ? Number(m[1]) : undefined;
}

function noValueList(status: number, url: string): WaterApiError {
  return new WaterApiError(
    'invalid-response',
    'The response has no "value" list.',
    'Check that the base URL points at the OData v4 API.',
    status,
    url,
  );
}

/** The page after `url`: the body's next link (either spelling), else the Link header's. */
function nextLinkOf(
  client: WaterClient,
  url: string,
  body: Record<string, unknown>,
  link: string | undefined,
): string | undefined {
  const rawNext =
    (typeof body['@odata.nextLink'] === 'string' && body['@odata.nextLink']) ||
    (typeof body['odata.nextLink'] === 'string' && body['odata.nextLink']) ||
    parseLinkHeader(link);
  const nextLink = rawNext ? followableNextLink(client.baseUrl, rawNext) : undefined;
  // A link back to the page just read would loop forever (a failure the R client guards against too).
  return nextLink && reencodeQuery(nextLink) === reencodeQuery(url) ? undefined : nextLink;
}

export async function fetchPage(client: WaterClient, url: string, signal?: AbortSignal): Promise<Page> {
  const res = await client.get(url, signal);
  const body = res.body as Record<string, unknown>;
  if (!Array.isArray(body.value)) throw noValueList(res.status, url);
  return {
    url,
    rows: body.value as Record<string, unknown>[],
    nextLink: nextLinkOf(client, url, body, res.link),
    body,
  };
}

/**
 * Reads one page, handing its rows to `onRows` a batch at a time as they arrive (exports): what is held is a
 * batch, never the page's text or all its rows. Returns how many rows were handed on and the next link.
 */
export async function readPage(
  client: WaterClient,
  url: string,
  onRows: (rows: Record<string, unknown>[]) => Promise<void> | void,
  signal?: AbortSignal,
): Promise<{ rows: number; nextLink?: string }> {
  let handed = 0;
  const res = await client.getStreamed(
    url,
    async (body, status) => {
      const parser = new PageBodyParser();
      // A retry after a broken connection reads the page from its start: rows already handed on are skipped.
      let seen = 0;
      try {
        const hand = async (rows: Record<string, unknown>[]) => {
          const skip = Math.min(rows.length, Math.max(0, handed - seen));
          seen += rows.length;
          if (skip === rows.length) return;
          const fresh = skip > 0 ? rows.slice(skip) : rows;
          handed += fresh.length;
          await onRows(fresh);
        };
        for await (const chunk of body) {
          parser.push(chunk);
          for (let rows = parser.take(); rows.length > 0; rows = parser.take()) await hand(rows);
        }
        const { rows, members } = parser.end();
        await hand(rows);
        return members;
      } catch (e) {
        if (!(e instanceof PageBodyError)) throw e;
        throw e.problem === 'no-value' ? noValueList(status, url) : notJsonError(status, url);
      }
    },
    signal,
  );
  return { rows: handed, nextLink: nextLinkOf(client, url, res.value, res.link) };
}

export interface PagingProgress {
  pages: number;
  rows: number;
}

export interface PagedRows {
  rows: Record<string, unknown>[];
  pages: number;
  /** Where to continue: more rows exist (limit reached) or the last request failed. */
  nextLink?: string;
  truncated: boolean;
  /** Set when a later page failed; rows before it are kept. */
  error?: WaterApiError;
  firstBody?: Record<string, unknown>;
}

export interface PagingOptions {
  maxRows: number;
  /** Page size to ask for; never more than the rows still wanted. */
  pageSize?: number;
  /**
   * The URL's $top is the user's page size: send every link as it is and keep whole pages (paging stops
   * once `maxRows` is reached), so rows past the limit are never dropped between two pages.
   */
  keepTop?: boolean;
  signal?: AbortSignal;
  onPage?: (p: PagingProgress, page: Page) => void;
}

export async function collectRows(client: WaterClient, firstUrl: string, o: PagingOptions): Promise<PagedRows> {
  const rows: Record<string, unknown>[] = [];
  let pageSize = o.keepTop ? undefined : o.pageSize;
  let url: string | undefined = pageSize ? withTop(firstUrl, Math.min(pageSize, o.maxRows)) : firstUrl;
  let pages = 0;
  let firstBody: Record<string, unknown> | undefined;
  while (url && rows.length < o.maxRows) {
    let page: Page;
    try {
      page = await fetchPage(client, url, o.signal);
    } catch (e) {
      // Too large for one response: ask for half as many rows per page and try the same position again.
      const top = topOf(url);
      if (e instanceof WaterApiError && e.kind === 'too-large' && top !== undefined && top > 1) {
        pageSize = Math.max(1, Math.floor(top / 2));
        url = withTop(url, pageSize);
        continue;
      }
      if (pages === 0 || !(e instanceof WaterApiError) || e.kind === 'cancelled') throw e;
      return { rows, pages, nextLink: url, truncated: true, error: e, firstBody };
    }
    pages++;
    firstBody ??= page.body;
    for (const r of page.rows) {
      if (!o.keepTop && rows.length >= o.maxRows) break;
      rows.push(r);
    }
    o.onPage?.({ pages, rows: rows.length }, page);
    url = page.nextLink;
    if (url && pageSize) {
      const remaining = o.maxRows - rows.length;
      if (remaining > 0) url = withTop(url, Math.min(pageSize, remaining));
    }
  }
  return { rows, pages, nextLink: url, truncated: url !== undefined, firstBody };
}

/**
 * The same request for half as many rows when the service refused the page as too large for one response
 * (refused before any row, so the position is the same); any other failure is thrown on.
 */
export function smallerPage(url: string, e: unknown): string {
  const top = topOf(url);
  if (e instanceof WaterApiError && e.kind === 'too-large' && top !== undefined && top > 1)
    return withTop(url, Math.floor(top / 2));
  throw e;
}

/** Streams every page (for exports): memory stays at one page whatever the total. */
export async function* eachPage(client: WaterClient, firstUrl: string, signal?: AbortSignal): AsyncGenerator<Page> {
  let url: string | undefined = firstUrl;
  while (url) {
    let page: Page;
    try {
      page = await fetchPage(client, url, signal);
    } catch (e) {
      url = smallerPage(url, e);
      continue;
    }
    yield page;
    url = page.nextLink;
  }
}
