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

/** Every object and array that spans more than one line, outermost first. */
export function foldingSpans(tree: JsonTree, limit = 50_000): FoldingSpan[] {
  const lines = new LineIndex(tree.text);
  const out: FoldingSpan[] = [];
  for (let n = 0; n < tree.count && out.length < limit; n++) {
    const kind = kindAt(tree, n);
    if (kind !== NodeKind.Object && kind !== NodeKind.Array) continue;
    const startLine = lines.positionAt(tree.start[n]).line - 1;
    const endLine = lines.positionAt(tree.end[n] - 1).line - 1;
    if (endLine > startLine) out.push({ startLine, endLine });
  }
  return out;
}
