// The generation client: streaming (SSE or JSON array), unary generateContent, models.list and
// countTokens. A stream never throws: every outcome, partial text included, comes back as data.
import type {
  CountTokensRequest,
  CountTokensResponse,
  GenerateContentRequest,
  GenerateContentResponse,
  ListModelsResponse,
  Model,
} from '../../shared/wire/generation';
import { Aggregator, type WireProblem } from './aggregate';
import { hasSnakeKey, normaliseCountTokens, normaliseResponse } from './fieldNames';
import { connectionLost, fromErrorBody, streamCorruption, type GenerationError } from './errors';
import { buildUrl, send, type ConnectionOptions, type ResponseLike } from './http';
import { JsonArrayReader } from './jsonArray';
import { SseReader, type StreamItem } from './sse';

export interface StreamOptions extends ConnectionOptions {
  model: string;
  request: GenerateContentRequest;
  /** 'sse' (default) asks for alt=sse; 'json' reads the streamed JSON array. */
  framing?: 'sse' | 'json';
}

export interface StreamResult {
  /** Everything received, assembled losslessly; partial when the stream failed or was stopped. */
  response: GenerateContentResponse;
  error: GenerationError | null;
  /** The caller's AbortSignal stopped the request. */
  aborted: boolean;
  /** The reply did not reach a finish reason (stopped, cut, failed), so the text may be partial. */
  incomplete: boolean;
  chunks: number;
  attempts: number;
  /** Wire fields of the wrong shape, left out of `response` but kept raw here (see Aggregator). */
  problems: WireProblem[];
}

export type ChunkListener = (chunk: GenerateContentResponse, aggregateSoFar: GenerateContentResponse) => void;

function modelPath(model: string): string {
  // The name's slash is part of the path (models/x), the id itself must not inject more segments.
  const [collection, ...rest] = model.split('/');
  return `/v1beta/${collection}/${encodeURIComponent(rest.join('/'))}`;
}

function finished(r: GenerateContentResponse): boolean {
  if (r.promptFeedback?.blockReason) return true;
  const cands = r.candidates ?? [];
  return cands.length > 0 && cands.every((c) => !!c.finishReason);
}

/** Feeds stream items into an aggregator; returns the first error the body carried, if any. */
export class StreamConsumer {
  readonly aggregator = new Aggregator();
  error: GenerationError | null = null;

  constructor(private readonly onChunk?: ChunkListener) {}

  item = (item: StreamItem): void => {
    if (item.kind === 'raw') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(item.text);
      } catch {
        this.fail(streamCorruption(`Unexpected text in the stream: ${item.text.slice(0, 200)}`));
        return;
      }
      this.value(parsed);
      return;
    }
    this.data(item.data);
  };

  /** The payload of one `data:` event. */
  data = (data: string): void => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      this.fail(streamCorruption(`A stream event is not valid JSON: ${data.slice(0, 200)}`));
      return;
    }
    this.value(parsed);
  };

  private value(v: unknown): void {
    // Only an object with a truthy `error` can be an error body: most events skip its walk over their keys.
    const err = typeof v === 'object' && v !== null && (v as { error?: unknown }).error ? fromErrorBody(v) : undefined;
    if (err) {
      err.phase = 'stream';
      this.fail(err);
      return;
    }
    if (!v || typeof v !== 'object' || Array.isArray(v)) {
      this.fail(
        streamCorruption(`A stream event is not a GenerateContentResponse object: ${JSON.stringify(v).slice(0, 200)}`),
      );
      return;
    }
    const chunk = hasSnakeKey(v) ? normaliseResponse(v) : (v as GenerateContentResponse);
    try {
      this.aggregator.add(chunk);
      this.onChunk?.(chunk, this.aggregator.response);
    } catch (err) {
      // Not expected (the aggregator checks every shape), but a stream must end as data, never as a throw.
      this.fail(streamCorruption(`A stream event could not be read: ${(err as Error)?.message ?? String(err)}`));
    }
  }

  private fail(e: GenerationError): void {
    // The first error explains the outcome; later ones are usually its consequences.
    if (!this.error) this.error = e;
  }
}

async function readBody(res: ResponseLike, framing: 'sse' | 'json', consumer: StreamConsumer): Promise<void> {
  const reader = framing === 'sse' ? new SseReader(consumer.item, consumer.data) : new JsonArrayReader(consumer.item);
  if (res.body) for await (const chunk of res.body) reader.push(chunk);
  reader.end();
}

export async function streamGenerateContent(opts: StreamOptions, onChunk?: ChunkListener): Promise<StreamResult> {
  const framing = opts.framing ?? 'sse';
  const url = buildUrl(opts, `${modelPath(opts.model)}:streamGenerateContent`, {
    alt: framing === 'sse' ? 'sse' : undefined,
  });
  const consumer = new StreamConsumer(onChunk);
  const result = (error: GenerationError | null, aborted: boolean, attempts: number): StreamResult => {
    const response = consumer.aggregator.response;
    return {
      response,
      error,
      aborted,
      incomplete: aborted || !!error || !finished(response),
      chunks: consumer.aggregator.chunks,
      attempts,
      problems: consumer.aggregator.problems,
    };
  };

  const outcome = await send(opts, 'POST', url, JSON.stringify(opts.request));
  if (outcome.kind === 'aborted') return result(null, true, outcome.attempts);
  if (outcome.kind === 'error') return result(outcome.error, false, outcome.attempts);
  try {
    await readBody(outcome.response, framing, consumer);
  } catch (err) {
    if (opts.signal?.aborted || (err as { name?: string })?.name === 'AbortError')
      return result(consumer.error, true, outcome.attempts);
    const lost = connectionLost(err);
    lost.phase = 'stream';
    return result(consumer.error ?? lost, false, outcome.attempts);
  }
  if (opts.signal?.aborted) return result(consumer.error, true, outcome.attempts);
  return result(consumer.error, false, outcome.attempts);
}

export interface UnaryResult {
  response: GenerateContentResponse | null;
  error: GenerationError | null;
  aborted: boolean;
  attempts: number;
}

async function jsonCall<T>(
  opts: ConnectionOptions,
  method: string,
  url: string,
  body?: unknown,
): Promise<{ value: T | null; error: GenerationError | null; aborted: boolean; attempts: number }> {
  const outcome = await send(opts, method, url, body === undefined ? undefined : JSON.stringify(body));
  if (outcome.kind === 'aborted') return { value: null, error: null, aborted: true, attempts: outcome.attempts };
  if (outcome.kind === 'error')
    return { value: null, error: outcome.error, aborted: false, attempts: outcome.attempts };
  let text: string;
  try {
    text = await outcome.response.text();
  } catch (err) {
    if (opts.signal?.aborted) return { value: null, error: null, aborted: true, attempts: outcome.attempts };
    return { value: null, error: connectionLost(err), aborted: false, attempts: outcome.attempts };
  }
  let parsed: unknown;
  try {
    parsed = text.trim() ? JSON.parse(text) : {};
  } catch {
    return {
      value: null,
      error: streamCorruption(`The response is not JSON: ${text.slice(0, 200)}`),
      aborted: false,
      attempts: outcome.attempts,
    };
  }
  const err = fromErrorBody(parsed);
  if (err) return { value: null, error: err, aborted: false, attempts: outcome.attempts };
  return { value: parsed as T, error: null, aborted: false, attempts: outcome.attempts };
}

export async function generateContent(opts: StreamOptions): Promise<UnaryResult> {
  const url = buildUrl(opts, `${modelPath(opts.model)}:generateContent`);
  const r = await jsonCall<GenerateContentResponse>(opts, 'POST', url, opts.request);
  return { response: r.value && normaliseResponse(r.value), error: r.error, aborted: r.aborted, attempts: r.attempts };
}

export async function countTokens(
  opts: ConnectionOptions & { model: string; request: CountTokensRequest },
): Promise<{ value: CountTokensResponse | null; error: GenerationError | null }> {
  const r = await jsonCall<CountTokensResponse>(
    opts,
    'POST',
    buildUrl(opts, `${modelPath(opts.model)}:countTokens`),
    opts.request,
  );
  return { value: r.value && normaliseCountTokens(r.value), error: r.error };
}

/** How long a model list is reused: it changes with the service's releases, not while a user works. */
const MODEL_LIST_REUSE_MS = 10 * 60_000;

/**
 * All models (every page), optionally only those that can generate content. The list is reused for a few
 * minutes (every chat surface, the side bar's and each editor's, asks for it when it opens).
 */
export async function listModels(
  opts: ConnectionOptions & { generateOnly?: boolean; pageSize?: number },
): Promise<{ models: Model[]; error: GenerationError | null }> {
  opts = { reuseMs: MODEL_LIST_REUSE_MS, ...opts };
  const models: Model[] = [];
  let pageToken: string | undefined;
  for (let page = 0; page < 100; page++) {
    const url = buildUrl(opts, '/v1beta/models', { pageSize: String(opts.pageSize ?? 100), pageToken });
    const r = await jsonCall<ListModelsResponse>(opts, 'GET', url);
    if (!r.value) return { models, error: r.error };
    models.push(...(r.value.models ?? []));
    pageToken = r.value.nextPageToken;
    if (!pageToken) break;
  }
  return {
    models: opts.generateOnly
      ? models.filter((m) => m.supportedGenerationMethods?.includes('generateContent'))
      : models,
    error: null,
  };
}

export { jsonCall };
