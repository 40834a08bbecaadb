// The language questions the editor asks about a position, as plain data in and out, so the same
// answer can come from this thread's index or from the analysis worker, which already holds a big
// document's analysis when its findings are shown (building that index here takes 100–300 ms for
// 4 MB, and the first hover after opening waited for it).
import type { Analysis } from './analyze';
import { completionsAt, type CompletionResult } from './completion';
import type { Diagnostic } from './diagnostic';
import { quickFixes, type QuickFix } from './fixes';
import { hoverAt, type HoverResult } from './hover';
import { definitionAt, prepareNavigation, referencesAt, type Span } from './navigation';

interface QueryTypes {
  hover: { in: { offset: number }; out: HoverResult | undefined };
  completion: { in: { offset: number }; out: CompletionResult };
  definition: { in: { offset: number }; out: Span | undefined };
  references: { in: { offset: number; includeDeclaration: boolean }; out: Span[] };
  /** The fixes of each finding, in the order given. */
  fixes: { in: { findings: Diagnostic[] }; out: QuickFix[][] };
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
};

export function answerQuery<K extends QueryKind>(analysis: Analysis, query: Query<K>): Answer<K> {
  // Navigation's reverse indexes are built once per model, on the first question that needs them.
  if (analysis.model && (query.what === 'definition' || query.what === 'references')) prepareNavigation(analysis.model);
  return (SOLVERS[query.what] as (a: Analysis, q: Query<K>) => Answer<K>)(analysis, query);
}
