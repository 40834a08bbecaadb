// Sends a Try it request through the shared HTTP layer and shapes the answer for display: status,
// headers, time to the last byte, the body pretty-printed when it is JSON, and a google.rpc explanation.
import { defaultFetch, redactText, redactUrl, type HttpFetch } from '../../../shared/http';
import type { TryRequest } from './request';
import { explainRpcError, type RpcErrorExplanation } from './rpcError';

/** Bodies past this are cut for display (the editor still gets the whole text). */
const DISPLAY_LIMIT = 256 * 1024;

export interface TryResponse {
  /** The URL called, credentials redacted. */
  url: string;
  method: string;
  status: number;
  statusText: string;
  headers: [string, string][];
  timeMs: number;
  contentType: string;
  /** The body for display: pretty JSON when it parses, cut at DISPLAY_LIMIT. */
  body: string;
  truncated: boolean;
  error?: RpcErrorExplanation;
}

export interface TryOutcome {
  response?: TryResponse;
  /** The whole body text, for "Open response in editor". */
  fullBody?: string;
  /** Network failure, timeout, refused redirect: a message, redacted. */
  failure?: string;
}

interface IterableHeaders {
  forEach(cb: (value: string, name: string) => void): void;
}

function headerList(h: unknown): [string, string][] {
  const out: [string, string][] = [];
  if (typeof h === 'object' && h !== null && typeof (h as IterableHeaders).forEach === 'function')
    (h as IterableHeaders).forEach((value, name) => out.push([name, value]));
  return out.sort((a, b) => a[0].localeCompare(b[0]));
}

function pretty(text: string, contentType: string): string {
  if (!/json/i.test(contentType) && !/^\s*[[{]/.test(text)) return text;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export async function sendTryRequest(
  req: TryRequest,
  fetch: HttpFetch = defaultFetch,
  timeoutMs = 60_000,
): Promise<TryOutcome> {
  const t0 = performance.now();
  try {
    const res = await fetch(req.url, { method: req.method, headers: req.headers, body: req.body, timeoutMs });
    const text = await res.text();
    const timeMs = Math.round(performance.now() - t0);
    const contentType = res.headers.get('content-type') ?? '';
    const shown = pretty(text, contentType);
    const error = res.status >= 400 ? explainRpcError(text) : undefined;
    return {
      fullBody: shown,
      response: {
        url: redactUrl(req.url),
        method: req.method,
        status: res.status,
        statusText: res.statusText,
        headers: headerList(res.headers),
        timeMs,
        contentType,
        body: shown.length > DISPLAY_LIMIT ? shown.slice(0, DISPLAY_LIMIT) : shown,
        truncated: shown.length > DISPLAY_LIMIT,
        ...(error ? { error } : {}),
      },
    };
  } catch (err) {
    return { failure: redactText(err instanceof Error ? err.message : String(err)) };
  }
}
