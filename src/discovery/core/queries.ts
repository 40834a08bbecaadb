// The language questions the editor asks about a position, as plain data in and out, so the same
// answer can come from this thread's index or from the analysis worker, which already holds a big
// document's analysis when its findings are shown (building that index here takes 100–300 ms for
// 4 MB, and the first hover after opening waited for it).
import type { Analysis } from './analyze';
import { completionsAt, prepareCompletion, type CompletionResult } from './completion';
import type { Diagnostic } from './diagnostic';
import { quickFixes, type QuickFix } from './fixes';
import { hoverAt, type HoverResult } from './hover';
import type { JsonTree } from './jsonTree';
import { foldingSpans, type FoldingSpan } from './layout';
import { definitionAt, prepareNavigation, referencesAt, type Span } from './navigation';
import { documentSymbols, symbolPositions, type DocumentSymbol } from './symbols';

/** A structural index without its text (the asker has the same text): plain arrays, cheap to send between threads. */
export type TreeArrays = Omit<JsonTree, 'text'>;

/** What the outline and folding of a version are built from, built where the analysis is held. */
export interface Structure {
  tree: TreeArrays;
  symbols: DocumentSymbol[];
  /** Line and column of each symbol's spans (see symbolPositions). */
  positions: Int32Array;
  folding: FoldingSpan[];
}

function structureOf(a: Analysis): Structure | undefined {
  const t = a.parsed.tree;
  if (!t) return undefined;
  // Copies of the used part: a view would carry its whole buffer across threads.
  const tree: TreeArrays = {
    count: t.count,
    kind: t.kind.slice(0, t.count),
    start: t.start.slice(0, t.count),
    end: t.end.slice(0, t.count),
    parent: t.parent.slice(0, t.count),
    keyStart: t.keyStart.slice(0, t.count),
    keyEnd: t.keyEnd.slice(0, t.count),
    firstChild: t.firstChild.slice(0, t.count),
    nextSibling: t.nextSibling.slice(0, t.count),
    childCount: t.childCount.slice(0, t.count),
    maxDepth: t.maxDepth,
    duplicates: t.duplicates,
  };
  const symbols = documentSymbols(t);
  return { tree, symbols, positions: symbolPositions(symbols, t.text), folding: foldingSpans(t) };
}

interface QueryTypes {
  hover: { in: { offset: number }; out: HoverResult | undefined };
  completion: { in: { offset: number }; out: CompletionResult };
  definition: { in: { offset: number }; out: Span | undefined };
  references: { in: { offset: number; includeDeclaration: boolean }; out: Span[] };
  /** The fixes of each finding, in the order given. */
  fixes: { in: { findings: Diagnostic[] }; out: QuickFix[][] };
  /** The structural index, outline and folding of the version. */
  structure: { in: object; out: Structure | undefined };
}

export type QueryKind = keyof QueryTypes;
export type Query<K extends QueryKind = QueryKind> = { what: K } & QueryTypes[K]['in'];
export type Answer<K extends QueryKind> = QueryTypes[K]['out'];

const SOLVERS: { [K in QueryKind]: (a: Analysis, q: Query<K>) => Answer<K> } = {
  hover: (a, q) => hoverAt(a, q.offset),
  completion: (a, q) => completionsAt(a, q.offset),
  definition: (a, q) => definitionAt(a, q.offset),
  references: (a, q) => referencesAt(a, q.offset, q.includeDeclaration),
  fixes: (a, q) => q.findings.map((d) => quickFixes(a, d)),
  structure: (a) => structureOf(a),
};

export function answerQuery<K extends QueryKind>(analysis: Analysis, query: Query<K>): Answer<K> {
  // Navigation's reverse indexes are built once per model, on the first question that needs them.
  if (analysis.model && (query.what === 'definition' || query.what === 'references')) prepareNavigation(analysis.model);
  return (SOLVERS[query.what] as (a: Analysis, q: Query<K>) => Answer<K>)(analysis, query);
}

/**
 * Builds what the first hover, completion or navigation of a model would otherwise build when asked (reverse
 * indexes of 2,800 references, a $ref list of 1,100 schemas for a 4 MB document): for the worker's idle time.
 */
export function prepareAnswers(analysis: Analysis): void {
  if (!analysis.model) return;
  prepareNavigation(analysis.model);
  prepareCompletion(analysis.model);
}
