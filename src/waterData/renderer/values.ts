// How a row value becomes text, is compared, filtered and serialised. Pure functions, no DOM.

export type Row = Record<string, unknown>;

/**
 * A row's value in `column`: its own member only. Columns come from the server's rows, and a row without a
 * column named `constructor` or `__proto__` would otherwise show Object's members in the cell.
 */
export function cellOf(row: Row, column: string): unknown {
  return Object.hasOwn(row, column) ? row[column] : undefined;
}

export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) return value.map(cellText).join('; ');
  try {
    return JSON.stringify(value);
  } catch {
    // Cyclic or holding a bigint: no faithful text, so say what kind of value it is.
    return Object.prototype.toString.call(value);
  }
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

function asNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  // The API quotes some numbers (ids, the R mocks' "406583"), so numeric-looking strings sort as numbers.
  if (typeof v === 'string' && v.trim() !== '' && /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(v.trim()))
    return Number(v);
  return undefined;
}

/** Ascending order; empty values always last, whatever the direction (applied by the caller). */
export function compareValues(a: unknown, b: unknown): number {
  const ea = a === null || a === undefined || a === '';
  const eb = b === null || b === undefined || b === '';
  if (ea || eb) return ea === eb ? 0 : ea ? 1 : -1;
  const na = asNumber(a);
  const nb = asNumber(b);
  if (na !== undefined && nb !== undefined) return na - nb;
  return collator.compare(cellText(a), cellText(b));
}

export type SortDir = 'asc' | 'desc';

/** Indices of `rows` in sorted order (stable); empty values stay at the end in both directions. */
export function sortIndices(rows: Row[], indices: number[], column: string, dir: SortDir): number[] {
  const sign = dir === 'asc' ? 1 : -1;
  // Keys are computed once per row, not once per comparison: 10,000 rows cost ~130,000 comparisons.
  const n = indices.length;
  const nums = new Float64Array(n);
  const texts = new Array<string | undefined>(n);
  const empty = new Uint8Array(n);
  for (let k = 0; k < n; k++) {
    const v = cellOf(rows[indices[k]], column);
    if (v === null || v === undefined || v === '') empty[k] = 1;
    else {
      const num = asNumber(v);
      if (num !== undefined) nums[k] = num;
      else texts[k] = cellText(v);
    }
  }
  const order = Array.from({ length: n }, (_, k) => k);
  order.sort((a, b) => {
    if (empty[a] || empty[b]) return empty[a] === empty[b] ? a - b : empty[a] ? 1 : -1;
    const ta = texts[a],
      tb = texts[b];
    let c: number;
    if (ta === undefined && tb === undefined) c = nums[a] - nums[b];
    else c = collator.compare(ta ?? String(nums[a]), tb ?? String(nums[b]));
    return sign * c || a - b;
  });
  return order.map((k) => indices[k]);
}

export type ColumnFilter = (value: unknown) => boolean;

/**
 * A column filter typed by the user. `>5`, `<=2020-06-01`, `=pH`, `!=x` compare; `""` matches empty
 * cells; anything else is a case-insensitive substring. Returns undefined for a blank filter.
 */
export function parseFilter(input: string): ColumnFilter | undefined {
  const text = input.trim();
  if (!text) return undefined;
  if (text === '""' || text === "''") return (v) => cellText(v) === '';
  const m = /^(>=|<=|!=|>|<|=)\s*(.*)$/.exec(text);
  if (m) {
    const [, op, rhsRaw] = m;
    const rhs = rhsRaw.trim();
    const rhsNum = asNumber(rhs);
    return (v) => {
      if (op === '=' || op === '!=') {
        const eq =
          rhsNum !== undefined && asNumber(v) !== undefined
            ? asNumber(v) === rhsNum
            : cellText(v).toLowerCase() === rhs.toLowerCase();
        return op === '=' ? eq : !eq;
      }
      if (v === null || v === undefined || v === '') return false;
      const c =
        rhsNum !== undefined && asNumber(v) !== undefined
          ? (asNumber(v) as number) - rhsNum
          : collator.compare(cellText(v), rhs);
      return op === '>' ? c > 0 : op === '<' ? c < 0 : op === '>=' ? c >= 0 : c <= 0;
    };
  }
  const needle = text.toLowerCase();
  return (v) => cellText(v).toLowerCase().includes(needle);
}

function tsvField(s: string): string {
  // Spreadsheets read quoted TSV fields, so embedded tabs/newlines survive a paste.
  return /[\t\n\r"]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toTsv(columns: string[], rows: Row[], withHeader: boolean): string {
  const lines: string[] = [];
  if (withHeader) lines.push(columns.map(tsvField).join('\t'));
  for (const r of rows) lines.push(columns.map((c) => tsvField(cellText(cellOf(r, c)))).join('\t'));
  return lines.join('\n');
}

function csvField(s: string): string {
  return /[",\n\r]/.test(s) || /^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(columns: string[], rows: Row[]): string {
  const lines = [columns.map(csvField).join(',')];
  for (const r of rows) lines.push(columns.map((c) => csvField(cellText(cellOf(r, c)))).join(','));
  return lines.join('\r\n') + '\r\n';
}

/** Columns to show: the result's own order, then any key the rows carry that it did not list. */
export function effectiveColumns(columns: string[] | undefined, rows: Row[]): string[] {
  const out = [...(columns ?? [])];
  const seen = new Set(out);
  const probe = rows.length > 200 ? rows.slice(0, 200) : rows;
  for (const r of probe) {
    for (const k of Object.keys(r)) {
      if (seen.has(k)) continue;
      seen.add(k);
      out.push(k);
    }
  }
  return out;
}
