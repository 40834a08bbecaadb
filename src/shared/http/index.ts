// The shared HTTP layer (editor-free): one fetch type, the guarded default fetch, redirects by
// policy, timeouts, one abortable sleep, one backoff, one redaction, credential-origin binding.
export type { HttpBody, HttpFetch, HttpRequest, HttpResponse } from './types';
export { DEFAULT_TIMEOUT_MS, TimeoutError, defaultFetch, guardFetch } from './fetch';
export { MAX_REDIRECTS, RedirectError, isRedirect, nextHop, sameOrigin } from './redirects';
export { CREDENTIAL_HEADERS, CREDENTIAL_PARAMS, REDACTED, redactError, redactHeaders, redactText, redactUrl } from './redact';
export { abortError, isAbortError, sleep } from './sleep';
export { backoffDelay, durationMs, retryAfterMs, type Backoff } from './backoff';
export { allowOrigin, decideCredential, originOf, parseCredential, serializeCredential, type BoundCredential, type CredentialDecision } from './credentialOrigin';
