// What a discovery document keeps from VS Code's built-in JSON support once it has its own
// language id: formatting (comments and trailing commas survive, as in JSONC) and folding.
import { format } from 'jsonc-parser/lib/esm/main.js';
import type { TextEdit } from './edits';
import { kindAt, NodeKind, type JsonTree } from './jsonTree';
import { LineIndex } from './lineIndex';

export interface FormatOptions {
  tabSize: number;
  insertSpaces: boolean;
  /** Line break to use; the document's own. */
  eol: string;
}

/** Edits that lay out the text (or just `range` of it) with the editor's indentation. */
export function formatEdits(
  text: string,
  options: FormatOptions,
  range?: { offset: number; length: number },
): TextEdit[] {
  return format(text, range, {
    tabSize: options.tabSize,
    insertSpaces: options.insertSpaces,
    eol: options.eol,
    keepLines: false,
  }).map((e) => ({ offset: e.offset, length: e.length, newText: e.content }));
}

export interface FoldingSpan {
  /** 0-based line of the opening bracket. */
  startLine: number;
  /** 0-based line of the closing bracket. */
  endLine: number;
}

/**
 * VS Code keeps at most this many folding regions (`editor.foldingMaximumRegions`), dropping the
 * deepest levels first; anything past it is computed, sent and thrown away.
 */
export const FOLDING_LIMIT = 5000;

/**
 * Objects and arrays that span more than one line, outermost first. Past `limit`, the deepest
 * levels are left out (as the editor would), so the outer structure always folds.
 */
export function foldingSpans(tree: JsonTree, limit = FOLDING_LIMIT): FoldingSpan[] {
  const lines = new LineIndex(tree.text);
  const spans: FoldingSpan[] = [];
  const levels: number[] = [];
  // Nodes come in document order, so a parent's level is known before its children's.
  const level = new Int32Array(tree.count);
  const perLevel: number[] = [];
  for (let n = 0; n < tree.count; n++) {
    const p = tree.parent[n];
    level[n] = p < 0 ? 0 : level[p] + 1;
    const kind = kindAt(tree, n);
    if (kind !== NodeKind.Object && kind !== NodeKind.Array) continue;
    const startLine = lines.positionAt(tree.start[n]).line - 1;
    const endLine = lines.positionAt(tree.end[n] - 1).line - 1;
    if (endLine <= startLine) continue;
    spans.push({ startLine, endLine });
    levels.push(level[n]);
    perLevel[level[n]] = (perLevel[level[n]] ?? 0) + 1;
  }
  if (spans.length <= limit) return spans;
  // The deepest level that fits whole; of the next level, the first ones in document order.
  let room = limit;
  let whole = 0;
  while (whole < perLevel.length && (perLevel[whole] ?? 0) <= room) room -= perLevel[whole++] ?? 0;
  const out: FoldingSpan[] = [];
  for (let i = 0; i < spans.length; i++) {
    if (levels[i] < whole) out.push(spans[i]);
    else if (levels[i] === whole && room > 0) {
      out.push(spans[i]);
      room--;
    }
  }
  return out;
}
