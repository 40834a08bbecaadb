// The request log's model, editor-free: the newest calls first, capped, one entry per call updated as its
// events arrive, and the words the log shows for each (one line, and a details page).
import type { RequestEvent } from './observe';

/** Calls kept: enough for a session's paging and retries, small enough to hold in memory. */
export const REQUEST_LOG_CAP = 500;

const FEATURE_NAMES: Record<RequestEvent['feature'], string> = {
  discovery: 'Discovery',
  storage: 'Storage',
  'sign-in': 'Sign-in',
  generation: 'Generation',
  waterData: 'Water data',
  other: 'Other',
};

export function featureName(feature: RequestEvent['feature']): string {
  return FEATURE_NAMES[feature];
}

export class RequestLogModel {
  /** Newest first. */
  private entries: RequestEvent[] = [];
  private readonly listeners = new Set<(changed: RequestEvent | undefined) => void>();

  constructor(readonly cap: number = REQUEST_LOG_CAP) {}

  get items(): readonly RequestEvent[] {
    return this.entries;
  }

  get(id: number): RequestEvent | undefined {
    return this.entries.find((e) => e.id === id);
  }

  /** Records an event: a new call goes on top (the oldest falls off past the cap), a later event replaces its call's entry. */
  add(event: RequestEvent): void {
    const i = this.entries.findIndex((e) => e.id === event.id);
    if (i >= 0) this.entries[i] = event;
    else {
      this.entries.unshift(event);
      if (this.entries.length > this.cap) this.entries.length = this.cap;
    }
    this.fire(event);
  }

  clear(): void {
    this.entries = [];
    this.fire(undefined);
  }

  /** Puts older calls (a saved log, newest first) below the ones logged so far, up to the cap. */
  restore(older: readonly RequestEvent[]): void {
    const known = new Set(this.entries.map((e) => e.id));
    this.entries.push(...older.filter((e) => !known.has(e.id)).slice(0, Math.max(0, this.cap - this.entries.length)));
    this.fire(undefined);
  }

  /** Tells `listener` about every change (the entry changed, or undefined when cleared); returns the unsubscribe. */
  onChange(listener: (changed: RequestEvent | undefined) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private fire(changed: RequestEvent | undefined): void {
    for (const l of [...this.listeners]) l(changed);
  }
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** "200 OK", "failed", or "…" while the body streams. */
export function statusText(e: RequestEvent): string {
  if (e.status === undefined) return 'failed';
  return `${e.status}${e.statusText ? ` ${e.statusText}` : ''}`;
}

/** What came before this attempt: "retry 2 after 1.20 s backoff", "waited 480 ms (rate limit)". */
export function retryText(e: RequestEvent): string | undefined {
  const parts: string[] = [];
  if (e.retries > 0) parts.push(`retry ${e.retries}`);
  if (e.wait)
    parts.push(`waited ${formatDuration(e.wait.ms)} (${e.wait.reason === 'rate-limit' ? 'rate limit' : 'backoff'})`);
  return parts.length ? parts.join(', ') : undefined;
}

/** The status, size, time, retries and waits, error: "200 OK · 1.2 KB · 35 ms". */
export function summary(e: RequestEvent): string {
  return [statusText(e), ...facts(e)].join(' · ');
}

/** The facts after the status: size, time, retries and waits, error. */
function facts(e: RequestEvent): string[] {
  const parts: string[] = [];
  if (e.responseBytes !== undefined) parts.push(formatBytes(e.responseBytes));
  parts.push(e.phase === 'headers' ? `${formatDuration(e.durationMs)} to headers` : formatDuration(e.durationMs));
  const retry = retryText(e);
  if (retry) parts.push(retry);
  if (e.error) parts.push(e.error);
  return parts;
}

/**
 * A Request Log row's label: status and method first, then the path, as REST clients' history lists put
 * their status and method badges before the URL. The side bar cuts a row off at its right edge, so what
 * must stay readable comes first; the path is what may be cut (the tooltip and details show it whole).
 */
export function rowLabel(e: RequestEvent): string {
  return `${e.status ?? 'failed'} ${e.method} ${shortPath(e.url)}`;
}

/** The row's description: what the label leaves out; the reason phrase only when something went wrong. */
export function rowDescription(e: RequestEvent): string {
  const reason = e.status !== undefined && e.status >= 400 && e.statusText ? [e.statusText] : [];
  return [...reason, ...facts(e)].join(' · ');
}

/**
 * A path segment that is an id (a file's, a message's): long, letters and digits with `-` or `_` only, a
 * digit among them. Its ends tell rows apart; the middle only widens the row. Words (`streamGenerateContent`,
 * `gemini-2.5-flash:…`) stay whole.
 */
const ID_SEGMENT = /^(?=.*\d)[A-Za-z0-9_-]{20,}$/;

/**
 * The URL's path without host or query (`?…` when there was one), ids shortened to their ends:
 * `/store/v2/files/1NQX…tbnL?…`. The host is the same for most calls.
 */
export function shortPath(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  const path = u.pathname
    .split('/')
    .map((seg) => (ID_SEGMENT.test(seg) ? `${seg.slice(0, 4)}…${seg.slice(-4)}` : seg))
    .join('/');
  return `${path}${u.search ? '?…' : ''}`;
}

/**
 * The details page's name (its editor tab): the method and the short path, `GET store∕v2∕files∕root`. The
 * path's slashes are division slashes (U+2215), which look the same, so the name stays one segment of the
 * page's URI and the tab shows all of it rather than its last segment.
 */
export function detailsTitle(e: RequestEvent): string {
  const path = shortPath(e.url).replace(/^\//, '').replace(/\//g, '\u2215');
  return `${e.method} ${path || 'request'}`;
}

/** One line of the output channel: "[Storage] GET https://…/files → 200 OK · 1.2 KB · 35 ms". */
export function logLine(e: RequestEvent): string {
  return `[${featureName(e.feature)}] ${e.method} ${e.url} → ${summary(e)}`;
}

/** The details page: the request and the response with their (redacted) headers. */
export function detailsText(e: RequestEvent): string {
  const lines = [
    `${e.method} ${e.url}`,
    `Feature: ${featureName(e.feature)}`,
    `Started: ${new Date(e.startedAt).toISOString()}`,
    `Result: ${summary(e)}`,
    '',
    '--- Request headers (credentials redacted) ---',
    ...headerLines(e.requestHeaders),
  ];
  if (e.requestBody) {
    lines.push('', '--- Request body ---');
    if (e.requestBody.note) lines.push(`(${e.requestBody.note})`);
    if (e.requestBody.text !== undefined) lines.push(e.requestBody.text);
  }
  if (e.responseHeaders) {
    lines.push('', `--- Response: ${statusText(e)} ---`, ...headerLines(e.responseHeaders));
  }
  if (e.error) lines.push('', '--- Error ---', e.error);
  return lines.join('\n') + '\n';
}

function headerLines(headers: Readonly<Record<string, string>>): string[] {
  const names = Object.keys(headers);
  return names.length ? names.map((n) => `${n}: ${headers[n]}`) : ['(none)'];
}
