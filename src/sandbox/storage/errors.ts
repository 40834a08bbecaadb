// Errors in the v1 error format the real service uses: a top-level code and message plus an
// `errors[]` list whose `reason` is what clients branch on.
import type { ErrorBody, ErrorItem } from '../../shared/wire/storage';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly item: ErrorItem,
    readonly headers: Record<string, string> = {},
  ) {
    super(item.message);
  }

  body(): ErrorBody {
    return { error: { errors: [this.item], code: this.status, message: this.item.message } };
  }
}

export function authError(): ApiError {
  return new ApiError(
    401,
    {
      domain: 'global',
      reason: 'authError',
      message: 'Invalid Credentials',
      locationType: 'header',
      location: 'Authorization',
    },
    { 'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"' },
  );
}

export function notFound(
  what:
    | 'File'
    | 'Comment'
    | 'Reply'
    | 'Permission'
    | 'Property'
    | 'Revision'
    | 'Shared drive'
    | 'App'
    | 'Change'
    | 'Parent'
    | 'Child'
    | 'Label',
  id: string,
): ApiError {
  return new ApiError(404, {
    domain: 'global',
    reason: 'notFound',
    message: `${what} not found: ${id}.`,
    locationType: what === 'File' ? 'parameter' : undefined,
    location: what === 'File' ? 'fileId' : undefined,
  });
}

export function badRequest(message: string, location?: string, reason = 'badRequest'): ApiError {
  return new ApiError(400, {
    domain: 'global',
    reason,
    message,
    ...(location ? { locationType: 'parameter', location } : {}),
  });
}

export function required(location: string): ApiError {
  return new ApiError(400, {
    domain: 'global',
    reason: 'required',
    message: `Required parameter: ${location}`,
    locationType: 'parameter',
    location,
  });
}

export function forbidden(reason: string, message: string, domain = 'global'): ApiError {
  return new ApiError(403, { domain, reason, message });
}

export function preconditionFailed(): ApiError {
  return new ApiError(412, {
    domain: 'global',
    reason: 'conditionNotMet',
    message: 'Precondition Failed',
    locationType: 'header',
    location: 'If-Match',
  });
}

export function rateLimited(status: 403 | 429): ApiError {
  return status === 403
    ? new ApiError(
        403,
        { domain: 'usageLimits', reason: 'userRateLimitExceeded', message: 'User Rate Limit Exceeded' },
        { 'retry-after': '1' },
      )
    : new ApiError(
        429,
        { domain: 'usageLimits', reason: 'rateLimitExceeded', message: 'Rate Limit Exceeded' },
        { 'retry-after': '1' },
      );
}

export function backendError(status = 503): ApiError {
  return new ApiError(status, {
    domain: 'global',
    reason: status === 500 ? 'internalError' : 'backendError',
    message: status === 500 ? 'Internal Error' : 'Backend Error',
  });
}

export function methodNotAllowed(): ApiError {
  return new ApiError(405, { domain: 'global', reason: 'httpMethodNotAllowed', message: 'Method Not Allowed' });
}
