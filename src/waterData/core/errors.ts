// What went wrong with a request, in terms a user can act on.

export type WaterErrorKind =
  | 'key-missing'
  | 'key-invalid'
  | 'rate-limited'
  | 'timeout'
  | 'too-large'
  | 'bad-request'
  | 'not-found'
  | 'server'
  | 'network'
  | 'cancelled'
  | 'invalid-response';

export class WaterApiError extends Error {
  constructor(
    readonly kind: WaterErrorKind,
    message: string,
    readonly advice: string,
    readonly status?: number,
    readonly url?: string,
  ) {
    super(message);
    this.name = 'WaterApiError';
  }

  /** True when the user should be offered the "Set API key" action. */
  get keyProblem(): boolean {
    return this.kind === 'key-missing' || this.kind === 'key-invalid';
  }
}

/** The server's own words from either error shape ({message} or {errors:[{detail}]}). */
export function serverMessage(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const b = body as { message?: unknown; errors?: unknown };
  if (Array.isArray(b.errors)) {
    const errors: unknown[] = b.errors;
    const parts = errors
      .map((e) =>
        e && typeof e === 'object'
          ? ((e as { detail?: unknown; title?: unknown; message?: unknown }).detail ??
            (e as { message?: unknown }).message ??
            (e as { title?: unknown }).title)
          : e,
      )
      .filter((x) => typeof x === 'string' && x);
    if (parts.length) return parts.join('; ');
  }
  if (typeof b.message === 'string' && b.message) return b.message;
  return undefined;
}
