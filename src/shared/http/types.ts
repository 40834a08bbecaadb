// The one fetch signature every core accepts (injectable for tests) and the default implements.
import type { Readable } from 'node:stream';

/** Request bodies we send: text, bytes, or a Node stream (uploads read from disk chunk by chunk). */
export type HttpBody = string | Uint8Array | Readable;

export interface HttpRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: HttpBody;
  signal?: AbortSignal;
  /**
   * How long to wait for the response headers (connect + server think time), in ms; the body may
   * stream for longer. Default: DEFAULT_TIMEOUT_MS.
   */
  timeoutMs?: number;
  /** What the request log shows about this call (who sent it, which retry, what it waited for); never sent. */
  trace?: RequestTrace;
  /**
   * A GET whose answer does not change in this long (ms): the same GET sent again within it takes the kept
   * answer instead of a round trip (the model list, the root folder's metadata). See shareGets.ts.
   */
  reuseMs?: number;
}

/** Which feature a request belongs to, and where it stands among retries: labels for the request log. */
export interface RequestTrace {
  feature: 'discovery' | 'storage' | 'sign-in' | 'generation' | 'waterData';
  /** 0 for the first attempt, n for the n-th retry. */
  attempt?: number;
  /** How long the caller waited before this attempt, and why. */
  wait?: { ms: number; reason: 'backoff' | 'rate-limit' };
}

export interface HttpResponse {
  readonly status: number;
  readonly ok: boolean;
  readonly statusText: string;
  readonly headers: { get(name: string): string | null };
  /** The body as bytes arriving (a Node Readable from the default fetch); null when there is none. */
  readonly body: AsyncIterable<Uint8Array> | null;
  text(): Promise<string>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

export type HttpFetch = (url: string, init?: HttpRequest) => Promise<HttpResponse>;
