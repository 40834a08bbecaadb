// The shared HTTP layer (editor-free): one fetch type, the guarded default fetch, redirects by
// policy, timeouts, one abortable sleep, one backoff, one redaction, credential-origin binding.
export type { HttpBody, HttpFetch, HttpRequest, HttpResponse, RequestTrace } from './types';
export { observeFetch, onRequest, type RequestEvent, type RequestListener } from './observe';
export { TimeoutError, defaultFetch, guardFetch } from './fetch';
export { RedirectError, nextHop } from './redirects';
export { redactError, redactHeaders, redactText, redactUrl } from './redact';
export { abortError, isAbortError, sleep } from './sleep';
export { describeNetworkError, isUnreachable } from './network';
export { backoffDelay, durationMs, retryAfterMs, type Backoff } from './backoff';
export {
  allowOrigin,
  decideCredential,
  originOf,
  parseCredential,
  sameOrigin,
  serializeCredential,
  type BoundCredential,
} from './credentialOrigin';
