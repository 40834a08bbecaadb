// Explains an error body in the google.rpc shape ({"error": {code, message, status, details}}): what the
// status means for the caller, and the details a person needs (bad fields, quota, retry delay, help links).
import { isObj } from '../model';
import { ownValue } from '../../../shared/wire/ownKeys';

export interface RpcErrorExplanation {
  code: number | undefined;
  status: string | undefined;
  message: string;
  /** What the status means and what to do about it. */
  meaning: string | undefined;
  /** One line per detail the server gave. */
  details: string[];
}

const MEANINGS: Record<string, string> = {
  INVALID_ARGUMENT:
    'The request is malformed: a parameter or body field has a wrong value. Fix the request; retrying as is will fail again.',
  FAILED_PRECONDITION: 'The request is valid but the resource is not in a state that allows it.',
  OUT_OF_RANGE: 'A value is outside the valid range (for example a page past the end).',
  UNAUTHENTICATED: 'No valid credential was sent: the token or key is missing, expired or invalid.',
  PERMISSION_DENIED: 'The credential is valid but lacks permission (a scope, a role, or the API is not enabled).',
  NOT_FOUND: 'The resource does not exist, or the caller may not know it exists.',
  ALREADY_EXISTS: 'A resource with that name or id already exists.',
  ABORTED: 'A concurrency conflict (for example an etag mismatch): read again and retry.',
  RESOURCE_EXHAUSTED: 'A quota or rate limit is exhausted: wait and retry with backoff.',
  CANCELLED: 'The request was cancelled, usually by the caller.',
  DATA_LOSS: 'Unrecoverable data loss or corruption.',
  UNKNOWN: 'An unknown server error.',
  INTERNAL: 'An internal server error: retry later.',
  NOT_IMPLEMENTED: 'The method is not implemented or not enabled for this service.',
  UNAVAILABLE: 'The service is unavailable right now: retry with backoff.',
  DEADLINE_EXCEEDED: 'The server did not finish in time: retry, possibly with a smaller request.',
};

/** The canonical status of an HTTP code, for errors in the older shape that carry no `status` (Drive v2). */
const STATUS_OF_HTTP: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  412: 'FAILED_PRECONDITION',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'NOT_IMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function detailLines(d: unknown): string[] {
  if (!isObj(d)) return [];
  const type = (str(d['@type']) ?? '').replace(/^type\.googleapis\.com\//, '');
  switch (type) {
    case 'google.rpc.BadRequest':
      return (Array.isArray(d.fieldViolations) ? d.fieldViolations : [])
        .filter(isObj)
        .map((v) => `Field ${str(v.field) ?? '?'}: ${str(v.description) ?? str(v.reason) ?? ''}`);
    case 'google.rpc.ErrorInfo': {
      const meta = isObj(d.metadata)
        ? Object.entries(d.metadata)
            .map(([k, v]) => `${k}=${String(v)}`)
            .join(', ')
        : '';
      return [`Reason ${str(d.reason) ?? '?'}${str(d.domain) ? ` (${str(d.domain)})` : ''}${meta ? `: ${meta}` : ''}`];
    }
    case 'google.rpc.RetryInfo':
      return [`Retry after ${str(d.retryDelay) ?? '?'}`];
    case 'google.rpc.QuotaFailure':
      return (Array.isArray(d.violations) ? d.violations : [])
        .filter(isObj)
        .map((v) => `Quota ${str(v.subject) ?? ''}: ${str(v.description) ?? ''}`.trim());
    case 'google.rpc.PreconditionFailure':
      return (Array.isArray(d.violations) ? d.violations : [])
        .filter(isObj)
        .map((v) => `Precondition ${str(v.type) ?? ''} ${str(v.subject) ?? ''}: ${str(v.description) ?? ''}`.trim());
    case 'google.rpc.Help':
      return (Array.isArray(d.links) ? d.links : [])
        .filter(isObj)
        .map((l) => `Help: ${str(l.description) ?? ''} ${str(l.url) ?? ''}`.trim());
    case 'google.rpc.LocalizedMessage':
      return [`${str(d.locale) ?? ''}: ${str(d.message) ?? ''}`];
    case 'google.rpc.ResourceInfo':
      return [`Resource ${str(d.resourceType) ?? ''} ${str(d.resourceName) ?? ''}: ${str(d.description) ?? ''}`.trim()];
    case 'google.rpc.DebugInfo':
      return [`Debug: ${str(d.detail) ?? ''}`];
    default:
      return type ? [`${type}`] : [];
  }
}

/** The explanation of a response body, or undefined when it is not a google.rpc error. */
export function explainRpcError(body: string): RpcErrorExplanation | undefined {
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch {
    return undefined;
  }
  const e = isObj(v) && isObj(v.error) ? v.error : undefined;
  if (!e || (typeof e.code !== 'number' && typeof e.status !== 'string' && typeof e.message !== 'string'))
    return undefined;
  const code = typeof e.code === 'number' ? e.code : undefined;
  const status = str(e.status) ?? (code !== undefined ? STATUS_OF_HTTP[code] : undefined);
  const details = (Array.isArray(e.details) ? e.details : []).flatMap(detailLines);
  // The older JSON shape lists {domain, reason, message} under "errors".
  if (Array.isArray(e.errors))
    for (const x of e.errors.filter(isObj))
      details.push(
        `Reason ${str(x.reason) ?? '?'}${str(x.domain) ? ` (${str(x.domain)})` : ''}: ${str(x.message) ?? ''}`,
      );
  return {
    code,
    status,
    message: str(e.message) ?? '',
    meaning: status ? ownValue(MEANINGS, status) : undefined,
    details: details.slice(0, 50),
  };
}
