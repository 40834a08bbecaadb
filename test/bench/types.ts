/**
 * One benchmark figure. Speed is only ever reported as a ratio against a peer or a limit
 * measured in the same run, never as an absolute pass/fail time.
 */
export interface BenchResult {
  /** e.g. "discovery: validate aiplatform.v1beta1 vs vscode-json-languageservice" */
  name: string;
  /** ours ÷ peer (or ÷ limit); what the goal is stated in. */
  ratio: number;
  /** Human-readable goal, e.g. "<= 0.5". */
  goal: string;
  /** Whether the ratio meets the goal. */
  met: boolean;
  /** Raw figures behind the ratio, e.g. { oursMs: 41.2, peerMs: 120.5 }. */
  detail: Record<string, number | string>;
}

/** Each file test/bench/<feature>.bench.ts default-exports one of these. */
export type BenchSuite = () => Promise<BenchResult[]>;
