// Splits a query the service would consider too big (> 1,000,000 records) the way it asks: by monitoring
// location and, where one location is still too big, by ActivityStartYear. Every partition filter wraps the
// user's filter in parentheses — the official clients' `LocationId eq X and a or b` bug changes the meaning.
import { WATER_PARTITION_THRESHOLD, type WaterEntitySet } from '../../shared/wire/waterData';
import type { WaterClient } from './client';
import { filterFields, parseFilter } from './filter';
import { eachPage } from './pager';
import { parseCount } from './run';
import { buildUrl } from './url';

export interface Partition {
  /** Filter of this partition (undefined = no filter at all). */
  filter?: string;
  /** Count measured for it, when one was taken. */
  count?: number;
  estimate?: boolean;
}

export interface PartitionPlanOptions {
  threshold?: number;
  /** Location ids per partition before counting; batches over the threshold are split again. */
  maxIdsPerPartition?: number;
  signal?: AbortSignal;
  onStep?: (message: string) => void;
}

export function andFilter(extra: string, filter: string | undefined): string {
  return filter ? `${extra} and (${filter})` : extra;
}

export async function countOf(
  client: WaterClient,
  set: WaterEntitySet,
  filter: string | undefined,
  signal?: AbortSignal,
): Promise<{ value: number; estimate: boolean }> {
  const res = await client.get(buildUrl(client.baseUrl, { entitySet: set, filter, count: true }), signal);
  return parseCount(res.body);
}

/** True when the filter already narrows by location (the clients' rule for "already partitioned"). */
export function constrainsLocation(filter: string | undefined): boolean {
  if (!filter) return false;
  try {
    const f = filterFields(parseFilter(filter));
    return f.has('LocationId') || f.has('Id');
  } catch {
    return false;
  }
}

export async function planPartitions(
  client: WaterClient,
  set: WaterEntitySet,
  filter: string | undefined,
  o: PartitionPlanOptions = {},
): Promise<Partition[]> {
  const threshold = o.threshold ?? WATER_PARTITION_THRESHOLD;
  const total = await countOf(client, set, filter, o.signal);
  if (total.value <= threshold || set === 'Metadata' || set === 'Locations')
    return [{ filter, count: total.value, estimate: total.estimate }];
  if (constrainsLocation(filter)) return splitByYear(client, set, filter, total.value, threshold, o);

  o.onStep?.(`${total.value.toLocaleString('en')} rows: listing monitoring locations to partition by`);
  const ids: number[] = [];
  const locUrl = buildUrl(client.baseUrl, { entitySet: 'Locations', select: ['Id'], filter, top: 10000 });
  for await (const page of eachPage(client, locUrl, o.signal))
    for (const r of page.rows) if (typeof r.Id === 'number') ids.push(r.Id);
  // Start from batches expected to hold about half the threshold, then measure.
  const perLocation = total.value / Math.max(1, ids.length);
  const batch = Math.max(
    1,
    Math.min(o.maxIdsPerPartition ?? 200, Math.floor(threshold / 2 / Math.max(1, perLocation))),
  );
  const out: Partition[] = [];
  for (let i = 0; i < ids.length; i += batch)
    out.push(...(await fitBatch(client, set, filter, ids.slice(i, i + batch), threshold, o)));
  return out;
}

function locationFilter(ids: number[]): string {
  return ids.length === 1 ? `LocationId eq ${ids[0]}` : `LocationId in (${ids.join(', ')})`;
}

async function fitBatch(
  client: WaterClient,
  set: WaterEntitySet,
  filter: string | undefined,
  ids: number[],
  threshold: number,
  o: PartitionPlanOptions,
): Promise<Partition[]> {
  const f = andFilter(locationFilter(ids), filter);
  const c = await countOf(client, set, f, o.signal);
  if (c.value === 0) return [];
  if (c.value <= threshold) return [{ filter: f, count: c.value, estimate: c.estimate }];
  if (ids.length > 1) {
    const mid = Math.ceil(ids.length / 2);
    return [
      ...(await fitBatch(client, set, filter, ids.slice(0, mid), threshold, o)),
      ...(await fitBatch(client, set, filter, ids.slice(mid), threshold, o)),
    ];
  }
  return splitByYear(client, set, f, c.value, threshold, o);
}

/** Bisects ActivityStartYear until each range is under the threshold or a single year. */
async function splitByYear(
  client: WaterClient,
  set: WaterEntitySet,
  filter: string | undefined,
  total: number,
  threshold: number,
  o: PartitionPlanOptions,
): Promise<Partition[]> {
  const nextYear = new Date().getUTCFullYear() + 1;
  const out: Partition[] = [];
  const visit = async (from: number, to: number, known?: number): Promise<void> => {
    // Years [from, to): one filter per range; the unbounded ends catch any odd dates.
    const parts: string[] = [];
    if (from > 1800) parts.push(`ActivityStartYear gte '${from}'`);
    if (to <= nextYear) parts.push(`ActivityStartYear lt '${to}'`);
    const f = parts.length ? andFilter(parts.join(' and '), filter) : filter;
    const c = known ?? (await countOf(client, set, f, o.signal)).value;
    if (c === 0) return;
    if (c <= threshold || to - from <= 1) {
      out.push({ filter: f, count: c });
      return;
    }
    const mid = from <= 1800 ? 1990 : to > nextYear ? nextYear : Math.floor((from + to) / 2);
    if (mid <= from || mid >= to) {
      out.push({ filter: f, count: c });
      return;
    }
    await visit(from, mid);
    await visit(mid, to);
  };
  o.onStep?.(`${total.toLocaleString('en')} rows at one location: partitioning by ActivityStartYear`);
  await visit(1800, nextYear + 1, total);
  return out;
}
