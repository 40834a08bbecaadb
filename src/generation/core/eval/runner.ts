// Runs a prompt file over dataset items × variants: bounded concurrency, the generation client's retries
// (429 and 503 retried with backoff, honouring RetryInfo), every cell handed to `onCell` as it completes (the
// caller saves it), cells already done skipped (resume), and a stop through an AbortSignal.
import { createHash } from 'node:crypto';
import type { GenerateContentResponse } from '../../../shared/wire/generation';
import { streamGenerateContent } from '../client';
import { primaryCandidate, textOf } from '../delta';
import type { ConnectionOptions } from '../http';
import { PromptRenderError, type PromptFile } from '../prompt/promptFile';
import { check, type Assertion, type AssertionResult, type Judge } from './assertions';
import { cellKey } from './cellKey';

export interface Variant {
  /** The name a cell's `variant` carries: the bare model name, or a name given with a config override. */
  name: string;
  model: string;
  config?: Record<string, unknown>;
}

export interface EvalItem {
  index: number;
  input: Record<string, unknown>;
  /** The item's assertions followed by the prompt file's. */
  assertions: Assertion[];
}

export interface CellError {
  code: number;
  status: string;
  message: string;
}

export interface CellResult {
  item: number;
  variant: string;
  /** The model that answered, when the variant's name is not the model (a named variant: `--variant NAME=…`). */
  model?: string;
  output: string;
  finishReason: string | null;
  /** Set when the prompt was blocked (no candidates). */
  blockReason?: string;
  /** Categories rated above NEGLIGIBLE (or blocked) on the reply or the prompt. */
  safety?: { category: string; probability: string; blocked?: boolean }[];
  usage: { promptTokenCount?: number; candidatesTokenCount?: number; totalTokenCount?: number };
  /** Milliseconds from the start of the attempt that answered to its last byte (retry waits excluded). */
  latencyMs: number;
  /** Milliseconds from the start of that attempt to its first chunk; null when none came. */
  ttftMs: number | null;
  /** HTTP attempts the cell took (1 when no retry was needed). */
  attempts: number;
  assertions: AssertionResult[];
  error: CellError | null;
  /** sha256 of the model and request: a resumed run re-runs a cell whose request changed. */
  requestHash: string;
}

export interface RunOptions {
  prompt: PromptFile;
  items: EvalItem[];
  variants: Variant[];
  connection: Pick<ConnectionOptions, 'baseUrl' | 'apiKey' | 'keyInQuery' | 'fetch' | 'retry' | 'sleep' | 'onRetry'>;
  /** Cells in flight at once (default 4). */
  concurrency?: number;
  signal?: AbortSignal;
  /** Cells of an earlier run, by cellKey(): those whose request is unchanged are not run again. */
  done?: ReadonlyMap<string, CellResult>;
  /** Told of every cell as it completes (not of resumed ones); awaited before the cell counts as done. */
  onCell?: (cell: CellResult) => Promise<void> | void;
  judge?: Judge;
  now?: () => number;
}

export interface RunOutcome {
  /** Every cell (resumed ones included), by item then variant order. */
  cells: CellResult[];
  /** The signal stopped the run before every cell was done. */
  cancelled: boolean;
  /** Cells run now (not taken from `done`). */
  ran: number;
}

export { cellKey };

export function requestHash(model: string, request: unknown): string {
  return createHash('sha256').update(JSON.stringify({ model, request })).digest('hex');
}

function safetyOf(r: GenerateContentResponse): CellResult['safety'] {
  const ratings = [...(primaryCandidate(r)?.safetyRatings ?? []), ...(r.promptFeedback?.safetyRatings ?? [])];
  const notable = ratings
    .filter((s) => s.blocked || (s.probability !== 'NEGLIGIBLE' && s.probability !== 'HARM_PROBABILITY_UNSPECIFIED'))
    .map((s) =>
      s.blocked
        ? { category: s.category, probability: s.probability, blocked: true }
        : { category: s.category, probability: s.probability },
    );
  return notable.length ? notable : undefined;
}

async function runCell(
  opts: RunOptions,
  item: EvalItem,
  variant: Variant,
): Promise<{ cell: CellResult } | { aborted: true }> {
  const now = opts.now ?? (() => performance.now());
  const base = {
    item: item.index,
    variant: variant.name,
    ...(variant.name !== variant.model ? { model: variant.model } : {}),
  };
  let rendered;
  try {
    rendered = await opts.prompt.render(item.input, { model: variant.model, config: variant.config });
  } catch (err) {
    if (!(err instanceof PromptRenderError)) throw err;
    return {
      cell: {
        ...base,
        output: '',
        finishReason: null,
        usage: {},
        latencyMs: 0,
        ttftMs: null,
        attempts: 0,
        assertions: [],
        error: { code: 0, status: 'INVALID_PROMPT', message: err.message },
        requestHash: '',
      },
    };
  }
  const hash = requestHash(rendered.model, rendered.request);
  let attemptStart = now();
  let firstChunk: number | null = null;
  const result = await streamGenerateContent(
    {
      ...opts.connection,
      model: `models/${rendered.model}`,
      request: rendered.request,
      signal: opts.signal,
      onRetry: (info) => {
        opts.connection.onRetry?.(info);
        // The next attempt starts after the wait: latency is the answering attempt's own.
        attemptStart = now() + info.delayMs;
      },
    },
    () => {
      if (firstChunk === null) firstChunk = now();
    },
  );
  const end = now();
  if (result.aborted) return { aborted: true };
  const r = result.response;
  const candidate = primaryCandidate(r);
  const output = textOf(candidate).text;
  const latencyMs = Math.max(0, end - attemptStart);
  const cell: CellResult = {
    ...base,
    output,
    finishReason: candidate?.finishReason ?? null,
    usage: {
      promptTokenCount: r.usageMetadata?.promptTokenCount,
      candidatesTokenCount: r.usageMetadata?.candidatesTokenCount,
      totalTokenCount: r.usageMetadata?.totalTokenCount,
    },
    latencyMs,
    ttftMs: firstChunk === null ? null : Math.max(0, (firstChunk as number) - attemptStart),
    attempts: result.attempts,
    assertions: [],
    error: result.error
      ? { code: result.error.code, status: result.error.status, message: result.error.message }
      : null,
    requestHash: hash,
  };
  if (r.promptFeedback?.blockReason) cell.blockReason = r.promptFeedback.blockReason;
  const safety = safetyOf(r);
  if (safety) cell.safety = safety;
  if (cell.error) {
    cell.assertions = item.assertions.map((a) => ({
      type: a.type,
      pass: false,
      reason: 'no reply (the request failed)',
    }));
    return { cell };
  }
  for (const a of item.assertions) {
    if (opts.signal?.aborted) return { aborted: true };
    cell.assertions.push(await check(a, { output, latencyMs, input: item.input }, opts.judge, opts.signal));
  }
  if (opts.signal?.aborted) return { aborted: true };
  return { cell };
}

export async function runEval(opts: RunOptions): Promise<RunOutcome> {
  const results = new Map<string, CellResult>();
  const queue: { item: EvalItem; variant: Variant }[] = [];
  for (const item of opts.items) {
    for (const variant of opts.variants) {
      const key = cellKey(item.index, variant.name);
      const earlier = opts.done?.get(key);
      if (earlier && !earlier.error && (await unchanged(opts, item, variant, earlier)))
        results.set(key, await recheck(opts, item, earlier));
      else queue.push({ item, variant });
    }
  }
  let ran = 0;
  let next = 0;
  const worker = async () => {
    while (next < queue.length && !opts.signal?.aborted) {
      const { item, variant } = queue[next++];
      const r = await runCell(opts, item, variant);
      if ('aborted' in r) return;
      await opts.onCell?.(r.cell);
      results.set(cellKey(item.index, variant.name), r.cell);
      ran++;
    }
  };
  const n = Math.max(1, Math.min(opts.concurrency ?? 4, queue.length || 1));
  await Promise.all(Array.from({ length: n }, worker));
  const cells: CellResult[] = [];
  for (const item of opts.items)
    for (const variant of opts.variants) {
      const c = results.get(cellKey(item.index, variant.name));
      if (c) cells.push(c);
    }
  return { cells, cancelled: cells.length < opts.items.length * opts.variants.length, ran };
}

/** An earlier cell still stands when the request it sent is the one this run would send. */
async function unchanged(opts: RunOptions, item: EvalItem, variant: Variant, earlier: CellResult): Promise<boolean> {
  try {
    const r = await opts.prompt.render(item.input, { model: variant.model, config: variant.config });
    return requestHash(r.model, r.request) === earlier.requestHash;
  } catch {
    return false;
  }
}

/**
 * A resumed cell's output is checked again against today's assertions (they may have changed since); only a
 * judge's verdict on the same assertion is kept, since asking again would be a request for a finished cell.
 */
async function recheck(opts: RunOptions, item: EvalItem, earlier: CellResult): Promise<CellResult> {
  const assertions: AssertionResult[] = [];
  for (const [i, a] of item.assertions.entries()) {
    const before = earlier.assertions[i];
    if (a.type === 'model-graded' && before?.type === 'model-graded') assertions.push(before);
    else
      assertions.push(
        await check(
          a,
          { output: earlier.output, latencyMs: earlier.latencyMs, input: item.input },
          opts.judge,
          opts.signal,
        ),
      );
  }
  return { ...earlier, assertions };
}
