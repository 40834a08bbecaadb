// Typing inside a description is most of what authors do, and no rule reads a description's text:
// such an edit leaves every finding as it was, only moved. This answers it from the previous
// findings in time proportional to the line, where a full analysis of a 4 MB document takes a second.
import type { Analysis } from './analyze';
import type { Diagnostic } from './diagnostic';
import { kindAt, NodeKind, type JsonTree } from './jsonTree';
import { keyNodeAtOffset, nodeAtOffset, pathOf } from './jsonTreeLookup';
import { isObj } from './model';

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
 * Start of the description string that `change` edits, when the change only edits the text of a
 * description (nothing any rule reads) of a strict JSON text; -1 when the document must be read again.
 */
export function descriptionEditAt(
  before: string,
  change: TextChange,
  /** Whether `before` was strict JSON (ParsedJson.strict): no comment can hide a line's real context. */
  strict: boolean,
): number {
  if (!strict) return -1;
  const from = change.offset;
  const to = change.offset + change.length;
  if (from <= 0 || to > before.length) return -1;
  if (!plainText(change.text) || !plainText(before.slice(from, to))) return -1;
  return descriptionAt(before, from, to);
}

/** `text` with `change` applied. */
export function applyChange(text: string, change: TextChange): string {
  return text.slice(0, change.offset) + change.text + text.slice(change.offset + change.length);
}

/**
 * The findings of `before` after `change`, without analysing again, when the change only edits the
 * text of a description; undefined when the document must be analysed again.
 * Findings after the edit move by the change in length; a finding whose range holds the edit grows.
 */
export function shiftedDiagnostics(
  before: string,
  change: TextChange,
  previous: readonly Diagnostic[],
  strict: boolean,
): Diagnostic[] | undefined {
  const at = descriptionEditAt(before, change, strict);
  // A finding about the description value itself (a misplaced key) may quote it: analyse again.
  if (at < 0 || previous.some((d) => d.offset === at)) return undefined;
  const to = change.offset + change.length;
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

function shiftOffsets(a: Int32Array, at: number, delta: number): Int32Array {
  const out = new Int32Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i] >= at ? a[i] + delta : a[i];
  return out;
}

/**
 * The index (structure, value and model, no findings) of the text after a description-only edit,
 * derived from the previous one in time linear in the node count, without parsing: the structure
 * moves, the one string changes in the parsed value the model points into. Undefined when the
 * document must be indexed again. The previous index's value is updated in place: it is superseded.
 */
export function shiftedIndex(before: Analysis, change: TextChange): Analysis | undefined {
  const { parsed } = before;
  const tree = parsed.tree;
  if (!tree || !before.model || tree.duplicates.length > 0) return undefined;
  const at = descriptionEditAt(parsed.text, change, parsed.strict);
  if (at < 0) return undefined;
  const node = nodeAtOffset(tree, at);
  if (node <= 0 || tree.start[node] !== at) return undefined;
  const path = pathOf(tree, node);
  // Scope descriptions are copied into the model; everything else is read from the value.
  if (path[0] === 'auth') return undefined;
  let holder: unknown = parsed.value;
  for (const step of path.slice(0, -1))
    holder = isObj(holder) || Array.isArray(holder) ? (holder as never)[step] : undefined;
  const key = path[path.length - 1];
  if (!isObj(holder) || typeof key !== 'string' || typeof holder[key] !== 'string') return undefined;
  const text = applyChange(parsed.text, change);
  const to = change.offset + change.length;
  const delta = change.text.length - change.length;
  const shifted: JsonTree = {
    ...tree,
    text,
    start: shiftOffsets(tree.start, to, delta),
    end: shiftOffsets(tree.end, to, delta),
    keyStart: shiftOffsets(tree.keyStart, to, delta),
    keyEnd: shiftOffsets(tree.keyEnd, to, delta),
  };
  holder[key] = JSON.parse(text.slice(shifted.start[node], shifted.end[node])) as string;
  return { parsed: { ...parsed, text, tree: shifted }, model: before.model, diagnostics: [] };
}

/** Spaces and tabs only (no line break: in a `//` comment one would turn the rest of the line into code). */
function blanks(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 32 && c !== 9) return false;
  }
  return true;
}

/** Characters that end a number or literal token (or are blank): an edit beside one joins or splits no token. */
function separator(c: number): boolean {
  return (
    c === 32 ||
    c === 9 ||
    c === 10 ||
    c === 13 ||
    c === 34 ||
    c === 44 ||
    c === 58 ||
    c === 91 ||
    c === 93 ||
    c === 123 ||
    c === 125
  );
}

/**
 * The structural index after an edit that moves tokens without changing any: plain text inside a
 * string value, or blanks beside a separator (not inside a key: keys decide duplicates). What the
 * outline and folding read after each keystroke in a 4 MB document, in time linear in the node
 * count instead of a scan of the text. Undefined when the text must be indexed again.
 */
export function shiftedTree(tree: JsonTree, change: TextChange): JsonTree | undefined {
  const text = tree.text;
  const from = change.offset;
  const to = change.offset + change.length;
  if (from <= 0 || to >= text.length) return undefined;
  const removed = text.slice(from, to);
  // A backslash before the edit could come to escape (or stop escaping) a quote.
  if (text.charCodeAt(from - 1) === 92) return undefined;
  if (keyNodeAtOffset(tree, from) >= 0 || keyNodeAtOffset(tree, to) >= 0) return undefined;
  const n = nodeAtOffset(tree, from);
  const inString =
    n >= 0 &&
    kindAt(tree, n) === NodeKind.String &&
    tree.start[n] < from &&
    to < tree.end[n] &&
    text.charCodeAt(tree.end[n] - 1) === 34;
  const fits = inString
    ? plainText(change.text) && plainText(removed)
    : blanks(change.text) &&
      blanks(removed) &&
      (separator(text.charCodeAt(from - 1)) || separator(text.charCodeAt(to)));
  if (!fits) return undefined;
  const delta = change.text.length - change.length;
  return {
    ...tree,
    text: applyChange(text, change),
    start: shiftOffsets(tree.start, to, delta),
    keyStart: shiftOffsets(tree.keyStart, to, delta),
    // Exclusive ends: a token ending where text is inserted keeps its end.
    end: shiftOffsets(tree.end, from + 1, delta),
    keyEnd: shiftOffsets(tree.keyEnd, from + 1, delta),
  };
}
