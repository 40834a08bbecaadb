// Streams every row of a query — across pages and partitions — to a sink, a batch of rows in memory at a time.
// Used by "Export query to CSV" (from /Records) and by the CLI.
import { WATER_SELECT_FIELDS, type WaterEntitySet } from '../../shared/wire/waterData';
import type { WaterClient } from './client';
import { csvLine, csvRows } from './csv';
import { readPage, smallerPage, withTop } from './pager';
import { planPartitions, type Partition } from './partition';
import { DEFAULT_PAGE_SIZE } from './run';
import { buildUrl, type WaterRequest } from './url';

export interface StreamProgress {
  partition: number;
  partitions: number;
  pages: number;
  rows: number;
}

export interface StreamOptions {
  /** Stop after this many rows. */
  maxRows?: number;
  partitionThreshold?: number;
  pageSize?: number;
  /** `pageSize` is the user's $top: every page asks for exactly it (whole pages, then the cap is applied). */
  keepTop?: boolean;
  /** When false, never count first nor partition (a $top query, or a row cap under the threshold). */
  partition?: boolean;
  signal?: AbortSignal;
  onProgress?: (p: StreamProgress) => void;
  onStep?: (message: string) => void;
}

export interface StreamSummary {
  rows: number;
  pages: number;
  partitions: number;
  dois: string[];
}

/**
 * Calls `sink` with the rows as they arrive, a batch of a page at a time, awaiting it: a slow file write
 * holds back the reading of the response (and so the service), and nothing holds more than a batch.
 */
export async function streamRows(
  client: WaterClient,
  req: WaterRequest,
  sink: (rows: Record<string, unknown>[]) => Promise<void> | void,
  o: StreamOptions = {},
): Promise<StreamSummary> {
  const maxRows = o.maxRows ?? Number.POSITIVE_INFINITY;
  const wantPartitions = o.partition ?? maxRows > (o.partitionThreshold ?? 1_000_000);
  const partitions: Partition[] = wantPartitions
    ? await planPartitions(client, req.entitySet, req.filter, {
        threshold: o.partitionThreshold,
        signal: o.signal,
        onStep: o.onStep,
      })
    : [{ filter: req.filter }];
  const pageSize = Math.min(o.pageSize ?? DEFAULT_PAGE_SIZE[req.entitySet], 10000);
  const dois = new Set<string>();
  let rows = 0;
  let pages = 0;
  /** Hands on a batch of the page being read, up to the row cap (a whole-page $top may overshoot it). */
  const deliver = async (batch: Record<string, unknown>[]) => {
    const room = maxRows - rows;
    if (room <= 0) return;
    const take = batch.length > room ? batch.slice(0, room) : batch;
    for (const r of take) if (typeof r.DOI === 'string') dois.add(r.DOI);
    rows += take.length;
    await sink(take);
  };
  for (let i = 0; i < partitions.length && rows < maxRows; i++) {
    const top = o.keepTop ? pageSize : Math.min(pageSize, maxRows - rows);
    let url: string | undefined = withTop(
      buildUrl(client.baseUrl, { ...req, filter: partitions[i].filter, top: undefined, count: undefined }),
      top,
    );
    while (url) {
      let next: string | undefined;
      try {
        next = (await readPage(client, url, deliver, o.signal)).nextLink;
      } catch (e) {
        url = smallerPage(url, e);
        continue;
      }
      pages++;
      o.onProgress?.({ partition: i + 1, partitions: partitions.length, pages, rows });
      if (rows >= maxRows) break;
      url = next;
    }
  }
  return { rows, pages, partitions: partitions.length, dois: [...dois] };
}

export function exportColumns(set: WaterEntitySet, select?: string[]): string[] {
  return select?.length ? select : [...WATER_SELECT_FIELDS[set]];
}

export interface TextSink {
  write(chunk: string): Promise<void>;
}

/** CSV with a header; memory is one batch of rows and its text, whatever the size of a page. */
export async function streamCsv(
  client: WaterClient,
  req: WaterRequest,
  out: TextSink,
  o: StreamOptions & { columns?: string[] } = {},
): Promise<StreamSummary> {
  const columns = o.columns ?? exportColumns(req.entitySet, req.select);
  await out.write(csvLine(columns));
  return streamRows(
    client,
    req,
    async (rows) => {
      const chunk = csvRows(columns, rows);
      if (chunk) await out.write(chunk);
    },
    o,
  );
}

/** A TextSink over a Node writable that honours back-pressure. */
export function writableSink(w: NodeJS.WritableStream): TextSink {
  return {
    write: (chunk) =>
      new Promise<void>((resolve, reject) => {
        const ok = w.write(chunk, (err) => (err ? reject(err) : undefined));
        if (ok) resolve();
        else w.once('drain', () => resolve());
      }),
  };
}
