// google.rpc.Status error bodies as the real service sends them (pretty-printed, 2-space indent).
import type { ServerResponse } from 'node:http';
import { RPC_TYPE, type ErrorBody, type RpcDetail } from '../../shared/wire/generation';

const SERVICE = 'generativelanguage.googleapis.com';

export function rpcError(code: number, status: string, message: string, details?: RpcDetail[]): ErrorBody {
  return { error: details?.length ? { code, message, status, details } : { code, message, status } };
}

/** Serialises an error body byte-for-byte like the service: indented JSON, trailing newline. */
export function errorText(body: ErrorBody): string {
  return JSON.stringify(body, null, 2) + '\n';
}

/**
 * The service labels some error bodies `text/event-stream` when the request asked for SSE;
 * we reproduce that so clients cannot rely on the content type.
 */
export function sendError(
  res: ServerResponse,
  body: ErrorBody,
  sse = false,
  headers: Record<string, string> = {},
): void {
  const text = errorText(body);
  res.writeHead(body.error.code, {
    'content-type': sse ? 'text/event-stream' : 'application/json; charset=UTF-8',
    'content-length': String(Buffer.byteLength(text)),
    vary: 'Origin, X-Origin, Referer',
    ...headers,
  });
  res.end(text);
}

export function missingKey(): ErrorBody {
  return rpcError(
    403,
    'PERMISSION_DENIED',
    "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
  );
}

export function invalidKey(): ErrorBody {
  const message = 'API key not valid. Please pass a valid API key.';
  return rpcError(400, 'INVALID_ARGUMENT', message, [
    {
      '@type': RPC_TYPE.errorInfo,
      reason: 'API_KEY_INVALID',
      domain: 'googleapis.com',
      metadata: { service: SERVICE },
    },
    { '@type': RPC_TYPE.localizedMessage, locale: 'en-US', message },
  ]);
}

export function invalidArgument(messages: string[]): ErrorBody {
  return rpcError(400, 'INVALID_ARGUMENT', messages.map((m) => `* ${m}`).join('\n') + '\n');
}

export function invalidJson(detail: string): ErrorBody {
  return rpcError(400, 'INVALID_ARGUMENT', `Invalid JSON payload received. ${detail}`, [
    { '@type': RPC_TYPE.badRequest, fieldViolations: [{ description: `Invalid JSON payload received. ${detail}` }] },
  ]);
}

export function unknownField(name: string): ErrorBody {
  const description = `Invalid JSON payload received. Unknown name "${name}": Cannot find field.`;
  return rpcError(400, 'INVALID_ARGUMENT', description, [
    { '@type': RPC_TYPE.badRequest, fieldViolations: [{ description }] },
  ]);
}

export function modelNotFound(model: string, method: string): ErrorBody {
  return rpcError(
    404,
    'NOT_FOUND',
    `${model} is not found for API version v1beta, or is not supported for ${method}. Call ListModels to see the list of available models and their supported methods.`,
  );
}

export function notFound(message: string): ErrorBody {
  return rpcError(404, 'NOT_FOUND', message);
}

/** Per-minute rate limit: retryable after `retrySeconds`. */
export function rateLimited(model: string, retrySeconds: number): ErrorBody {
  const delay = `${retrySeconds}s`;
  return rpcError(
    429,
    'RESOURCE_EXHAUSTED',
    `You exceeded your current quota, please check your plan and billing details. Please retry in ${delay}.`,
    [
      {
        '@type': RPC_TYPE.quotaFailure,
        violations: [
          {
            quotaMetric: `${SERVICE}/generate_content_free_tier_requests`,
            quotaId: 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier',
            quotaDimensions: { location: 'global', model: model.replace(/^models\//, '') },
            quotaValue: '10',
          },
        ],
      },
      {
        '@type': RPC_TYPE.help,
        links: [
          {
            description: 'Learn more about Gemini API quotas',
            url: 'https://ai.google.dev/gemini-api/docs/rate-limits',
          },
        ],
      },
      { '@type': RPC_TYPE.retryInfo, retryDelay: delay },
    ],
  );
}

/** Per-day quota: the body still carries RetryInfo, but a retry today cannot succeed. */
export function dailyQuotaExhausted(model: string): ErrorBody {
  return rpcError(
    429,
    'RESOURCE_EXHAUSTED',
    'You exceeded your current quota, please check your plan and billing details. Please retry in 47.88s.',
    [
      {
        '@type': RPC_TYPE.quotaFailure,
        violations: [
          {
            quotaMetric: `${SERVICE}/generate_content_free_tier_requests`,
            quotaId: 'GenerateRequestsPerDayPerProjectPerModel-FreeTier',
            quotaDimensions: { location: 'global', model: model.replace(/^models\//, '') },
            quotaValue: '250',
          },
        ],
      },
      { '@type': RPC_TYPE.retryInfo, retryDelay: '47.88s' },
    ],
  );
}

export function unavailable(): ErrorBody {
  return rpcError(503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.');
}

export function internal(): ErrorBody {
  return rpcError(
    500,
    'INTERNAL',
    'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
  );
}

export function failedPrecondition(message: string): ErrorBody {
  return rpcError(400, 'FAILED_PRECONDITION', message);
}
