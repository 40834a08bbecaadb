// The request log kept across a window reload: the newest finished calls (already redacted where they were
// made), and when the user last cleared the log. Editor-free: the adapter stores the value in workspaceState.
import type { RequestEvent, RequestPhase } from './observe';
import type { RequestLogModel } from './requestLog';

/** Calls kept across a reload: the last few hundred, newest first. */
export const REQUEST_LOG_KEPT = 300;
/** And at most this many characters of JSON, whatever the bodies' sizes. */
export const REQUEST_LOG_KEPT_CHARS = 1_000_000;

export interface SavedRequestLog {
  entries: RequestEvent[];
  /** When the log was last cleared (ms since the epoch). */
  clearedAt?: number;
}

/** What to store: finished calls only (one still streaming at a reload never finishes). */
export function savedLog(model: RequestLogModel, clearedAt?: number): SavedRequestLog {
  const entries: RequestEvent[] = [];
  let chars = 0;
  for (const e of model.items) {
    if (e.phase === 'headers') continue;
    chars += JSON.stringify(e).length;
    if (entries.length === REQUEST_LOG_KEPT || chars > REQUEST_LOG_KEPT_CHARS) break;
    entries.push(e);
  }
  return clearedAt === undefined ? { entries } : { entries, clearedAt };
}

/**
 * Puts a saved log back under the calls logged since (it is older than all of them). Restored calls get
 * ids below zero: the id counter starts again at 1 in a new window. A value that is not a saved log, or
 * an entry that is not a call, is left out; returns when the log was cleared, if it says.
 */
export function restoreLog(model: RequestLogModel, value: unknown): { clearedAt?: number; restored: number } {
  if (!isRecord(value)) return { restored: 0 };
  const clearedAt =
    typeof value.clearedAt === 'number' && Number.isFinite(value.clearedAt) ? value.clearedAt : undefined;
  const entries = Array.isArray(value.entries) ? value.entries.filter(isRequestEvent) : [];
  const kept = entries.slice(0, REQUEST_LOG_KEPT).map((e, i) => ({ ...e, id: -(i + 1) }));
  model.restore(kept);
  return { clearedAt, restored: kept.length };
}

const PHASES: readonly RequestPhase[] = ['headers', 'done', 'failed'];
const FEATURES: readonly RequestEvent['feature'][] = [
  'discovery',
  'storage',
  'sign-in',
  'generation',
  'waterData',
  'other',
];

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function isStringMap(x: unknown): boolean {
  return isRecord(x) && Object.values(x).every((v) => typeof v === 'string');
}

const optional = (x: unknown, type: 'string' | 'number') => x === undefined || typeof x === type;

function isRequestEvent(x: unknown): x is RequestEvent {
  if (!isRecord(x)) return false;
  const body = x.requestBody;
  const wait = x.wait;
  return (
    typeof x.id === 'number' &&
    PHASES.includes(x.phase as RequestPhase) &&
    x.phase !== 'headers' &&
    FEATURES.includes(x.feature as RequestEvent['feature']) &&
    typeof x.method === 'string' &&
    typeof x.url === 'string' &&
    isStringMap(x.requestHeaders) &&
    typeof x.startedAt === 'number' &&
    typeof x.durationMs === 'number' &&
    typeof x.retries === 'number' &&
    optional(x.status, 'number') &&
    optional(x.statusText, 'string') &&
    optional(x.responseBytes, 'number') &&
    optional(x.error, 'string') &&
    (x.responseHeaders === undefined || isStringMap(x.responseHeaders)) &&
    (body === undefined ||
      (isRecord(body) &&
        optional(body.text, 'string') &&
        optional(body.note, 'string') &&
        optional(body.contentType, 'string'))) &&
    (wait === undefined ||
      (isRecord(wait) && typeof wait.ms === 'number' && (wait.reason === 'backoff' || wait.reason === 'rate-limit')))
  );
}
