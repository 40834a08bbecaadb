// The fixes a query-cell diagnostic describes, as text replacements of the cell: quoting an unquoted
// text value or date ("Quote text values: 'pH'"), and taking the suggested vocabulary value or RegionId.
import { quoteString } from './filter';
import type { QueryDiagnostic } from './query';

export interface QueryFix {
  title: string;
  /** The cell text [start, end) to replace. */
  start: number;
  end: number;
  newText: string;
}

const QUOTE = /^Quote (?:text values|dates): /;
const SUGGESTION = /(?:did you mean|; use) '((?:[^']|'')*)'\??$/;

export function queryFixes(cellText: string, d: QueryDiagnostic): QueryFix[] {
  const { start, end } = d;
  if (start < 0 || end <= start || end > cellText.length) return [];
  const raw = cellText.slice(start, end);
  if (QUOTE.test(d.message)) {
    if (raw.startsWith("'")) return [];
    const newText = quoteString(raw);
    return [{ title: `Quote as text: ${newText}`, start, end, newText }];
  }
  const m = SUGGESTION.exec(d.message);
  // Only where the span is the quoted value itself (not, say, a field name).
  if (m && raw.startsWith("'")) {
    const newText = `'${m[1]}'`;
    return [{ title: `Change to ${newText}`, start, end, newText }];
  }
  return [];
}
