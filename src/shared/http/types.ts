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
