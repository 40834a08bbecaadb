// CSV per RFC 4180: fields with commas, quotes or line breaks are quoted; arrays are joined with "; ".
// A leading =, +, - or @ is kept as data but prefixed with ' so spreadsheets do not run it as a formula.

const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA_START = /^[=+@-]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/** A non-array cell value as text: scalars as themselves, objects as JSON, anything JSON cannot hold as ''. */
export function scalarText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  return JSON.stringify(v) ?? '';
}

/**
 * A number as String() writes it, without V8's number-to-string cache: every String(n) of a number not
 * in it enters it, and the cache (up to 16,384 entries, in old memory) keeps those strings and numbers
 * alive through young collections. An export formats four new numbers a row, so what young collections
 * found alive was mostly that, and V8 grows the young generation from the amount that survives: it
 * reached its 32 MB maximum after ~150,000 rows. JSON.stringify writes the same digits with no cache
 * (and is no slower); it differs only for NaN and ±Infinity, which String keeps.
 */
export function numberText(v: number): string {
  return Number.isFinite(v) ? JSON.stringify(v) : String(v);
}

export function csvField(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return numberText(v);
  let s: string;
  if (typeof v === 'string') {
    s = FORMULA_START.test(v) && !PLAIN_NUMBER.test(v) ? `'${v}` : v;
  } else {
    s = Array.isArray(v) ? v.map((x) => String(x)).join('; ') : scalarText(v);
  }
  return NEEDS_QUOTES.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvLine(values: readonly unknown[]): string {
  return values.map(csvField).join(',') + '\r\n';
}

/**
 * The lines of `rows` (each ending in CRLF), as one string. One array of fields is reused for every row and
 * the lines are joined once: no two arrays and a chain of concatenations per row, which at 10,000 rows a page
 * were most of what an export allocated, long enough to outlive the page's rows in young memory.
 */
export function csvRows(columns: readonly string[], rows: readonly Record<string, unknown>[]): string {
  if (rows.length === 0) return '';
  const fields: string[] = new Array<string>(columns.length);
  const lines: string[] = new Array<string>(rows.length + 1);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    for (let j = 0; j < columns.length; j++) fields[j] = csvField(r[columns[j]]);
    lines[i] = fields.join(',');
  }
  lines[rows.length] = '';
  return lines.join('\r\n');
}

export function toCsv(columns: readonly string[], rows: readonly Record<string, unknown>[]): string {
  return csvLine(columns) + csvRows(columns, rows);
}
