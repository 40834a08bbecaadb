// Turns Observations/Records rows into aligned time series for one characteristic: one series per
// monitoring location (the busiest few), x in seconds since the epoch, y the numeric ResultValue.
import { cellText, type Row } from './values';

export interface CharacteristicSummary {
  name: string;
  count: number;
}

export interface SeriesSet {
  characteristic: string;
  /** The most common ResultUnit of the characteristic ('' when the rows give none). */
  unit: string;
  /** All distinct units met; more than one means the y axis mixes scales. */
  units: string[];
  labels: string[];
  x: number[];
  ys: (number | null)[][];
  /** Numeric values plotted (before averaging samples that share a location and time). */
  points: number;
  /** Rows of the characteristic without a date or a numeric value. */
  skipped: number;
  /** Whether any row gave a time zone (times are then shown in UTC). */
  zoned: boolean;
}

export function hasSeries(columns: string[]): boolean {
  return (
    columns.includes('CharacteristicName') && columns.includes('ResultValue') && columns.includes('ActivityStartDate')
  );
}

export function characteristics(rows: Row[]): CharacteristicSummary[] {
  const counts = new Map<string, number>();
  for (const r of rows) {
    const name = cellText(r.CharacteristicName).trim();
    if (name) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts]
    .map(([name, count]) => ({ name, count }))
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})/;
const TIME = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?/;
const ZONE = /^(?:Z|UTC|([+-])(\d{2}):?(\d{2}))$/i;

/** Seconds since the epoch of the activity start; a missing zone is read as UTC (shown as recorded). */
export function activityTime(row: Row): { t: number; zoned: boolean } | undefined {
  const d = DATE.exec(cellText(row.ActivityStartDate).trim());
  if (!d) return undefined;
  let ms = Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3]));
  const tm = TIME.exec(cellText(row.ActivityStartTime).trim());
  if (tm)
    ms +=
      ((Number(tm[1]) * 60 + Number(tm[2])) * 60 + Number(tm[3] ?? 0)) * 1000 + Number((tm[4] ?? '0').padEnd(3, '0'));
  let zoned = false;
  const z = ZONE.exec(cellText(row.ActivityStartTimeZone).trim());
  if (z) {
    zoned = true;
    if (z[1]) ms -= (z[1] === '-' ? -1 : 1) * (Number(z[2]) * 60 + Number(z[3])) * 60000;
  }
  return Number.isFinite(ms) ? { t: ms / 1000, zoned } : undefined;
}

function numeric(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

function locationKey(r: Row): { key: string; label: string } {
  const id = cellText(r.LocationId ?? r.MonitoringLocationID).trim();
  const name = cellText(r.MonitoringLocationName).trim();
  if (!id && !name) return { key: '', label: 'All locations' };
  return { key: id || name, label: name ? (id && id !== name ? `${name} (${id})` : name) : `Location ${id}` };
}

export function buildSeries(rows: Row[], characteristic: string, maxSeries = 8): SeriesSet {
  const unitCounts = new Map<string, number>();
  type Acc = { label: string; count: number; at: Map<number, { sum: number; n: number }> };
  const byLoc = new Map<string, Acc>();
  let points = 0,
    skipped = 0,
    zoned = false;
  for (const r of rows) {
    if (cellText(r.CharacteristicName).trim() !== characteristic) continue;
    const t = activityTime(r);
    const v = numeric(r.ResultValue);
    if (!t || v === undefined) {
      skipped++;
      continue;
    }
    zoned ||= t.zoned;
    const unit = cellText(r.ResultUnit).trim();
    unitCounts.set(unit, (unitCounts.get(unit) ?? 0) + 1);
    const loc = locationKey(r);
    let acc = byLoc.get(loc.key);
    if (!acc) byLoc.set(loc.key, (acc = { label: loc.label, count: 0, at: new Map() }));
    acc.count++;
    const cell = acc.at.get(t.t);
    if (cell) {
      cell.sum += v;
      cell.n++;
    } else acc.at.set(t.t, { sum: v, n: 1 });
    points++;
  }
  const ranked = [...byLoc.values()].sort((a, b) => b.count - a.count || a.label.localeCompare(b.label));
  let groups = ranked;
  if (ranked.length > maxSeries) {
    // The long tail is merged into one series so the legend stays readable.
    const other: Acc = { label: `Other locations (${ranked.length - maxSeries + 1})`, count: 0, at: new Map() };
    for (const acc of ranked.slice(maxSeries - 1)) {
      other.count += acc.count;
      for (const [t, c] of acc.at) {
        const o = other.at.get(t);
        if (o) {
          o.sum += c.sum;
          o.n += c.n;
        } else other.at.set(t, { ...c });
      }
    }
    groups = [...ranked.slice(0, maxSeries - 1), other];
  }
  const times = new Set<number>();
  for (const g of groups) for (const t of g.at.keys()) times.add(t);
  const x = [...times].sort((a, b) => a - b);
  const ys = groups.map((g) =>
    x.map((t) => {
      const c = g.at.get(t);
      return c ? c.sum / c.n : null;
    }),
  );
  const units = [...unitCounts.keys()].filter((u) => u !== '');
  const unit = [...unitCounts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
  return { characteristic, unit, units, labels: groups.map((g) => g.label), x, ys, points, skipped, zoned };
}
