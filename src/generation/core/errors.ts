// Turning whatever the service (or the network) said into one error shape the UI and CLI share.
import { durationMs, redactText } from '../../shared/http';
import { RPC_TYPE, type RpcDetail } from '../../shared/wire/generation';

export interface GenerationError {
  /** HTTP status (or the code in a mid-stream error body). */
  code: number;
  /** Canonical status name, e.g. INVALID_ARGUMENT, RESOURCE_EXHAUSTED. */
  status: string;
  message: string;
  details?: RpcDetail[];
  /** ErrorInfo.reason, e.g. API_KEY_INVALID. */
  reason?: string;
  /** RetryInfo.retryDelay in milliseconds. */
  retryDelayMs?: number;
  /** True when a QuotaFailure names a per-day quota: retrying today cannot help. */
  perDayQuota?: boolean;
  /** Where it happened: before any chunk, or after part of the reply arrived. */
  phase?: 'request' | 'stream';
}

const STATUS_BY_HTTP: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  408: 'DEADLINE_EXCEEDED',
  409: 'ALREADY_EXISTS',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  502: 'UNAVAILABLE',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** Reads a google.rpc.Status (`{error:{…}}`) from a parsed value; undefined when it is not one. */
export function fromErrorBody(value: unknown): GenerationError | undefined {
  if (!value || typeof value !== 'object') return undefined;
  // An error body holds `error` alone; a resource that merely has an `error` field (a FAILED file) is not one.
  for (const k in value) if (k !== 'error') return undefined;
  const e = (value as { error?: unknown }).error;
  if (!e || typeof e !== 'object') return undefined;
  const raw = e as { code?: unknown; status?: unknown; message?: unknown; details?: unknown };
  const code = typeof raw.code === 'number' ? raw.code : 500;
  const out: GenerationError = {
    code,
    status: typeof raw.status === 'string' ? raw.status : (STATUS_BY_HTTP[code] ?? 'UNKNOWN'),
    // Messages reach the CLI, the panel and the saved conversation: a quoted URL must not carry a key.
    message: redactText(typeof raw.message === 'string' ? raw.message : JSON.stringify(e)),
  };
  if (Array.isArray(raw.details)) {
    out.details = raw.details as RpcDetail[];
    for (const d of out.details) {
      if (d?.['@type'] === RPC_TYPE.errorInfo && typeof d.reason === 'string') out.reason = d.reason;
      if (d?.['@type'] === RPC_TYPE.retryInfo) out.retryDelayMs = durationMs(d.retryDelay);
      if (d?.['@type'] === RPC_TYPE.quotaFailure && Array.isArray(d.violations)) {
        if ((d.violations as { quotaId?: string }[]).some((v) => /PerDay/i.test(v?.quotaId ?? '')))
          out.perDayQuota = true;
      }
    }
  }
  return out;
}

/** An error from a whole non-2xx body, whatever it contains (JSON, HTML, nothing). */
export function fromHttpBody(status: number, statusText: string, body: string): GenerationError {
  const trimmed = body.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      const e = fromErrorBody(Array.isArray(parsed) ? (parsed as unknown[])[0] : parsed);
      if (e) return e;
    } catch {
      // fall through: report the text itself
    }
  }
  const html = /^<(!doctype|html)/i.test(trimmed);
  return {
    code: status,
    status: STATUS_BY_HTTP[status] ?? 'UNKNOWN',
    message: html
      ? `HTTP ${status} ${statusText}: the server answered with an HTML page, not the API. Check the base URL.`
      : redactText(`HTTP ${status} ${statusText}${trimmed ? `: ${trimmed.slice(0, 300)}` : ''}`),
  };
}

export function streamCorruption(message: string): GenerationError {
  return { code: 500, status: 'DATA_LOSS', message: redactText(message), phase: 'stream' };
}

export function connectionLost(cause: unknown): GenerationError {
  const why = (cause as { code?: string; message?: string })?.code ?? (cause as Error)?.message ?? String(cause);
  return {
    code: 503,
    status: 'UNAVAILABLE',
    message: redactText(`The connection closed before the reply was complete (${why}).`),
  };
}

export function isRetryable(e: GenerationError): boolean {
  if (e.perDayQuota) return false;
  return [408, 429, 500, 502, 503, 504].includes(e.code);
}

/** How the editor's user sets the generation key; the CLI names its own flag and variables instead. */
const EDITOR_SET_KEY = 'API Workbench: Set Generation API Key';

/**
 * What the user should do about an error: one sentence for the panel and the CLI. `setKey` says where
 * this user sets the key (the editor's command by default).
 */
export function errorAdvice(e: GenerationError, setKey = EDITOR_SET_KEY): string {
  if (e.reason === 'API_KEY_INVALID') return `The API key was rejected. Set a valid key (${setKey}).`;
  if (e.code === 403 && /unregistered callers|API Key/i.test(e.message))
    return `No API key was sent. Set one (${setKey}).`;
  if (e.code === 403 && e.reason === 'SERVICE_DISABLED')
    return "Enable the Generative Language API for the key's project, then retry.";
  if (e.code === 404) return 'The model does not exist or does not support this method. Pick one from the model list.';
  if (e.code === 429 && e.perDayQuota)
    return 'The daily quota for this model is used up. Try another model or wait until the quota resets.';
  if (e.code === 429)
    return e.retryDelayMs !== undefined
      ? `Rate limited: retry in ${(e.retryDelayMs / 1000).toFixed(1)} s.`
      : 'Rate limited: wait a little and retry.';
  if (e.code === 400 && e.status === 'FAILED_PRECONDITION')
    return 'The request cannot be served in this state (location, file not ready…). Read the message above.';
  if (e.code === 400) return 'The request was rejected. Fix the setting named in the message and resend.';
  if (e.code === 499) return 'The service cancelled the operation. Resend the prompt.';
  if (e.code >= 500)
    return 'The service failed or is overloaded. The partial reply (if any) is kept; resend to try again.';
  return 'Read the message above; resend when fixed.';
}
