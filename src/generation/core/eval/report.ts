// What an evaluation reports: a summary per variant (pass rate, mean and p95 latency, tokens) and overall,
// the JSON document of `eval --format json`, and JUnit XML (one testcase per item, variant and assertion).
import type { CellResult } from './runner';

export interface VariantSummary {
  variant: string;
  cells: number;
  /** Cells whose every assertion passed (and that did not fail). */
  passed: number;
  failed: number;
  errors: number;
  passRate: number;
  meanLatencyMs: number;
  p95LatencyMs: number;
  tokensIn: number;
  tokensOut: number;
}

export interface EvalSummary {
  cells: number;
  assertions: number;
  assertionsPassed: number;
  assertionsFailed: number;
  /** Cells that still failed after retries. */
  errors: number;
  /** Cells not run (the run was stopped). */
  missing: number;
  variants: VariantSummary[];
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

const cellPassed = (c: CellResult) => !c.error && c.assertions.every((a) => a.pass);

export function summarise(cells: CellResult[], variants: string[], expected: number): EvalSummary {
  const per = variants.map((variant): VariantSummary => {
    const mine = cells.filter((c) => c.variant === variant);
    const answered = mine.filter((c) => !c.error);
    const latencies = answered.map((c) => c.latencyMs).sort((a, b) => a - b);
    const passed = mine.filter(cellPassed).length;
    return {
      variant,
      cells: mine.length,
      passed,
      failed: mine.length - passed - (mine.length - answered.length),
      errors: mine.length - answered.length,
      passRate: mine.length ? passed / mine.length : 0,
      meanLatencyMs: latencies.length ? Math.round(latencies.reduce((a, b) => a + b, 0) / latencies.length) : 0,
      p95LatencyMs: Math.round(percentile(latencies, 0.95)),
      tokensIn: answered.reduce((n, c) => n + (c.usage.promptTokenCount ?? 0), 0),
      tokensOut: answered.reduce((n, c) => n + (c.usage.candidatesTokenCount ?? 0), 0),
    };
  });
  const all = cells.flatMap((c) => c.assertions);
  return {
    cells: cells.length,
    assertions: all.length,
    assertionsPassed: all.filter((a) => a.pass).length,
    assertionsFailed: all.filter((a) => !a.pass).length,
    errors: cells.filter((c) => c.error).length,
    missing: Math.max(0, expected - cells.length),
    variants: per,
  };
}

/** A cell as `eval --format json` prints it (and the grid's JSON export). */
export function reportCell(c: CellResult) {
  return {
    item: c.item,
    variant: c.variant,
    output: c.output,
    finishReason: c.finishReason,
    ...(c.blockReason ? { blockReason: c.blockReason } : {}),
    ...(c.safety ? { safety: c.safety } : {}),
    usage: c.usage,
    latencyMs: Math.round(c.latencyMs),
    ttftMs: c.ttftMs === null ? null : Math.round(c.ttftMs),
    attempts: c.attempts,
    assertions: c.assertions,
    error: c.error,
  };
}

/** The document `eval --format json` prints. */
export function jsonReport(cells: CellResult[], summary: EvalSummary): string {
  return (
    JSON.stringify(
      {
        cells: cells.map(reportCell),
        summary,
      },
      null,
      2,
    ) + '\n'
  );
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Escaped for an XML attribute or text; characters XML 1.0 cannot hold at all are dropped. */
function xml(s: string): string {
  return s
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/[&<>"']/g, (c) => XML_ESCAPES[c]);
}

/**
 * JUnit XML: a testsuite per variant, a testcase per item and assertion (`item 3: contains`), or one
 * `item 3: request` testcase for a cell with no assertions; a failed request is an <error> on each.
 */
export function junitReport(promptName: string, cells: CellResult[], summary: EvalSummary): string {
  const suites: string[] = [];
  let tests = 0;
  let failures = 0;
  let errors = 0;
  for (const v of summary.variants) {
    const cases: string[] = [];
    let sTests = 0;
    let sFailures = 0;
    let sErrors = 0;
    let sTime = 0;
    for (const c of cells.filter((x) => x.variant === v.variant)) {
      const time = (c.latencyMs / 1000).toFixed(3);
      sTime += c.latencyMs / 1000;
      const classname = xml(`${promptName}.${v.variant}`);
      const checks = c.assertions.length ? c.assertions : [{ type: 'request', pass: !c.error, reason: undefined }];
      checks.forEach((a, i) => {
        sTests++;
        const name = xml(`item ${c.item}: ${a.type}${c.assertions.length > 1 ? ` #${i + 1}` : ''}`);
        let body = '';
        if (c.error) {
          sErrors++;
          body = `<error message="${xml(`${c.error.code} ${c.error.status}: ${c.error.message}`)}" type="${xml(c.error.status)}"/>`;
        } else if (!a.pass) {
          sFailures++;
          body = `<failure message="${xml(a.reason ?? 'failed')}" type="${xml(a.type)}">${xml(c.output.slice(0, 2000))}</failure>`;
        }
        cases.push(`    <testcase classname="${classname}" name="${name}" time="${time}">${body}</testcase>`);
      });
    }
    tests += sTests;
    failures += sFailures;
    errors += sErrors;
    suites.push(
      `  <testsuite name="${xml(`${promptName} [${v.variant}]`)}" tests="${sTests}" failures="${sFailures}" errors="${sErrors}" skipped="0" time="${sTime.toFixed(3)}">\n${cases.join('\n')}\n  </testsuite>`,
    );
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${xml(`api-workbench eval ${promptName}`)}" tests="${tests}" failures="${failures}" errors="${errors}">\n${suites.join('\n')}\n</testsuites>\n`;
}
