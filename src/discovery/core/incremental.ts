// Typing inside a description is most of what authors do, and no rule reads a description's text:
// such an edit leaves every finding as it was, only moved. This answers it from the previous
// findings in time proportional to the line, where a full analysis of a 4 MB document takes a second.
import type { Diagnostic } from './diagnostic';

/** One replacement in the text that was analysed: `length` characters at `offset` become `text`. */
export interface TextChange {
  readonly offset: number;
  readonly length: number;
  readonly text: string;
}

const DESCRIPTION_KEY = '"description"';

/** A change that keeps the string a string of the same shape: no quote, backslash or control character. */
function plainText(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 34 || c === 92) return false;
  }
  return true;
}

/**
 * Start of the string value of a `"description"` key holding [from, to) strictly inside, judged from
 * the line alone (JSON strings cannot span lines); -1 when anything on the line is unusual.
 */
function descriptionAt(text: string, from: number, to: number): number {
  const lineStart = text.lastIndexOf('\n', from - 1) + 1;
  let prevStart = -1;
  let prevEnd = -1;
  let stringStart = -1;
  for (let i = lineStart; i < from; i++) {
    const c = text.charCodeAt(i);
    if (stringStart >= 0) {
      if (c === 92) i++;
      else if (c === 34) {
        prevStart = stringStart;
        prevEnd = i + 1;
        stringStart = -1;
      }
    } else if (c === 34) stringStart = i;
    else if (c === 47) return -1; // a comment, or text that is not JSON
  }
  if (stringStart < 0 || prevStart < 0) return -1;
  // No escape sequence may end up split by the edit (a "\u00e9" losing a digit, a "\n" losing its "n").
  for (let i = Math.max(stringStart + 1, from - 6); i < from; i++) if (text.charCodeAt(i) === 92) return -1;
  // The string must close on this line after the edit.
  for (let i = to; ; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 10;
    if (c === 10 || c === 13) return -1;
    if (c === 92) i++;
    else if (c === 34) break;
  }
  // The string is the value of a "description" key: `"description"`, optional blanks, `:`, optional blanks.
  if (text.slice(prevStart, prevEnd) !== DESCRIPTION_KEY) return -1;
  let colon = false;
  for (let i = prevEnd; i < stringStart; i++) {
    const c = text.charCodeAt(i);
    if (c === 58 && !colon) colon = true;
    else if (c !== 32 && c !== 9) return -1;
  }
  return colon ? stringStart : -1;
}

/**
 * The findings of `before` after `change`, without analysing again, when the change only edits the
 * text of a description (nothing any rule reads) of a strict JSON text; undefined when the document must
 * be analysed again.
 * Findings after the edit move by the change in length; a finding whose range holds the edit grows.
 */
export function shiftedDiagnostics(
  before: string,
  change: TextChange,
  previous: readonly Diagnostic[],
  /** Whether `before` was strict JSON (ParsedJson.strict): no comment can hide a line's real context. */
  strict: boolean,
): Diagnostic[] | undefined {
  if (!strict) return undefined;
  const from = change.offset;
  const to = change.offset + change.length;
  if (from <= 0 || to > before.length) return undefined;
  if (!plainText(change.text) || !plainText(before.slice(from, to))) return undefined;
  const at = descriptionAt(before, from, to);
  // A finding about the description value itself (a misplaced key) may quote it: analyse again.
  if (at < 0 || previous.some((d) => d.offset === at)) return undefined;
  const delta = change.text.length - change.length;
  return previous.map((d) => {
    const moved = d.offset >= to ? d.offset + delta : d.offset;
    const length = d.offset < to && d.offset + d.length >= to ? d.length + delta : d.length;
    const first = d.data?.firstOffset;
    const data = typeof first === 'number' && first >= to ? { ...d.data, firstOffset: first + delta } : d.data;
    return moved === d.offset && length === d.length && data === d.data
      ? d
      : { ...d, offset: moved, length, ...(data ? { data } : {}) };
  });
}
