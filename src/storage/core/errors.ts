// Maps the service's v1 error body `{error:{errors:[{domain,reason,message}],code,message}}` to an
// Error users can act on, and classifies what a client should do next (retry, sign in, reload).
import { describeNetworkError, isUnreachable, redactError, redactText, retryAfterMs } from '../../shared/http';
import type { ErrorBody, ErrorItem } from '../../shared/wire/storage';
import { ownValue } from '../../shared/wire/ownKeys';

export type ErrorAction = 'retry' | 'signIn' | 'reload' | 'none';

const RETRYABLE_REASONS = new Set([
  'rateLimitExceeded',
  'userRateLimitExceeded',
  'backendError',
  'transientError',
  'internalError',
  'sharingRateLimitExceeded',
]);

/** Short, plain explanations keyed by reason; the server's own message is kept as detail. */
const FRIENDLY: Record<string, string> = {
  authError: 'Your sign-in is no longer valid. Sign in to the storage service again.',
  required: 'A required value is missing.',
  notFound: 'The item no longer exists, or you no longer have access to it.',
  insufficientFilePermissions: 'You do not have permission to change this item.',
  insufficientPermissions: 'The access you granted does not cover this operation.',
  appNotAuthorizedToFile: 'This app has not been given access to this item.',
  domainPolicy: 'Your organisation does not allow this.',
  forbidden: 'The service refused this operation.',
  rateLimitExceeded: 'The service is busy (rate limit reached). Try again in a moment.',
  userRateLimitExceeded: 'Too many requests in a short time. Try again in a moment.',
  sharingRateLimitExceeded: 'Too many sharing changes in a short time. Try again later.',
  dailyLimitExceeded: 'The daily request quota is used up. Try again tomorrow.',
  storageQuotaExceeded: 'Your storage is full. Free some space or empty the trash.',
  quotaExceeded: 'A storage quota is used up.',
  downloadQuotaExceeded: 'This file has been downloaded too often. Try again later.',
  numChildrenInNonRootLimitExceeded: 'The folder is full (500,000 items).',
  fileNotDownloadable: 'This is a workspace document: export it to a format instead of downloading it.',
  exportSizeLimitExceeded: 'The document is too large to export (10 MB limit).',
  cannotDownloadAbusiveFile: 'This file was flagged as harmful and cannot be downloaded.',
  conditionNotMet: 'The item changed on the server since you loaded it.',
  invalid: 'A value in the request is not valid.',
  invalidParameter: 'A parameter in the request is not valid.',
  badRequest: 'The service could not process the request.',
  backendError: 'The service had a temporary problem.',
  internalError: 'The service had an internal problem.',
  transientError: 'The service had a temporary problem.',
  teamDrivesSupportRequired: 'This item is in a shared drive; the request must allow shared drives.',
  cannotDeleteNonEmptyDrive: 'The shared drive still contains items; remove them first.',
};

export class StorageError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    readonly domain: string,
    /** The server's message, verbatim. */
    readonly serverMessage: string,
    readonly location?: string,
    /** Seconds from a Retry-After header, when the server sent one. */
    readonly retryAfterSeconds?: number,
  ) {
    // Servers quote request URLs in messages; a resumable session URL or a key must not reach a log.
    super(redactText(describe(status, reason, serverMessage, location)));
    this.name = 'StorageError';
  }

  get action(): ErrorAction {
    if (this.status === 401) return 'signIn';
    if (this.status === 412) return 'reload';
    if (isRetryable(this.status, this.reason)) return 'retry';
    return 'none';
  }

  get retryable(): boolean {
    return this.action === 'retry';
  }

  get isNotFound(): boolean {
    return this.status === 404;
  }

  get isConflict(): boolean {
    return this.status === 412 || this.reason === 'conditionNotMet';
  }
}

export function isRetryable(status: number, reason: string | undefined): boolean {
  if (status === 429 || status >= 500) return true;
  return status === 403 && !!reason && RETRYABLE_REASONS.has(reason);
}

function describe(status: number, reason: string, serverMessage: string, location?: string): string {
  const friendly =
    ownValue(FRIENDLY, reason) ??
    (status === 412 ? FRIENDLY.conditionNotMet : status >= 500 ? FRIENDLY.backendError : undefined);
  const where =
    location &&
    (reason === 'invalid' || reason === 'invalidParameter' || reason === 'required' || reason === 'badRequest')
      ? ` (${location})`
      : '';
  const detail = serverMessage && serverMessage !== friendly ? `: ${serverMessage}` : '';
  return friendly
    ? `${friendly}${where} [${status}${detail}]`
    : `Storage request failed (${status}${reason ? ` ${reason}` : ''})${where}${detail}`;
}

/** Builds a StorageError from a response's status, body text and Retry-After header. */
export function errorFromResponse(status: number, bodyText: string, retryAfter?: string | null): StorageError {
  let item: ErrorItem | undefined;
  let message: string;
  try {
    const parsed = JSON.parse(bodyText) as Partial<ErrorBody> & { error?: { status?: string } };
    item = parsed.error?.errors?.[0];
    message = parsed.error?.message ?? item?.message ?? '';
  } catch {
    message = bodyText.slice(0, 200).trim();
  }
  const reason =
    item?.reason ??
    (status === 412 ? 'conditionNotMet' : status === 404 ? 'notFound' : status === 401 ? 'authError' : '');
  const wait = retryAfterMs(retryAfter);
  return new StorageError(
    status,
    reason,
    item?.domain ?? 'global',
    item?.message ?? message,
    item?.location,
    wait === undefined ? undefined : wait / 1000,
  );
}

/**
 * A failure below HTTP (refused connection, reset, DNS). The message is one line naming the host and the
 * reason, never the request's path or query (the full, redacted error stays in `cause`).
 */
export class NetworkError extends Error {
  override readonly cause: Error;
  /** The system error code (ECONNREFUSED, ENOTFOUND…), when there is one. */
  readonly code: string | undefined;
  /** Nothing answers at that address (refused, unknown host): retrying with long waits is pointless. */
  readonly unreachable: boolean;
  constructor(cause: unknown, url = '') {
    const clean = redactError(cause);
    super(`Could not reach the storage service at ${describeNetworkError(clean, url)}`);
    this.cause = clean;
    this.code = (clean as Error & { code?: string }).code;
    this.unreachable = isUnreachable(clean);
    this.name = 'NetworkError';
  }
}
