// A stored credential is bound to the origins the user chose to send it to. Endpoint settings can come
// from a workspace (.vscode/settings.json), so before a credential goes anywhere we decide here, with
// no editor involved, whether to send it, to ask the user first, or that there is nothing to send.

/** What SecretStorage holds for a service: the value and the origins it may be sent to. */
export interface BoundCredential {
  value: string;
  /** Origins (scheme://host:port) the user approved; empty for a value stored before binding existed. */
  origins: string[];
}

export type CredentialDecision =
  | { kind: 'none' }
  | { kind: 'send'; value: string }
  /** Legacy value, endpoint chosen by the user's own settings: send, and bind it to this origin from now on. */
  | { kind: 'bind'; value: string; origin: string }
  | { kind: 'ask'; value: string; origin: string; boundTo: string[] };

const FORMAT = 1;

/** The origin a credential is bound to: scheme, host and port (a path or query never matters). */
export function originOf(url: string): string {
  return new URL(url).origin;
}

/**
 * Whether two URLs share scheme, host and port. False when either is missing, unparsable or has an
 * opaque origin (`data:`, `file:`): a credential is only ever bound to a real network origin.
 */
export function sameOrigin(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  try {
    const origin = originOf(a);
    return origin !== 'null' && origin === originOf(b);
  } catch {
    return false;
  }
}

export function serializeCredential(c: BoundCredential): string {
  return JSON.stringify({ format: FORMAT, value: c.value, origins: [...new Set(c.origins)] });
}

/** Reads what SecretStorage holds; a bare string (stored before binding existed) is a credential bound nowhere yet. */
export function parseCredential(raw: string | undefined): BoundCredential | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (raw.startsWith('{')) {
    try {
      const v = JSON.parse(raw) as { format?: unknown; value?: unknown; origins?: unknown };
      if (v.format === FORMAT && typeof v.value === 'string') {
        const origins = Array.isArray(v.origins) ? v.origins.filter((o): o is string => typeof o === 'string') : [];
        return { value: v.value, origins };
      }
    } catch {
      // not our record: a value that happens to start with "{" is kept as a bare value
    }
  }
  return { value: raw, origins: [] };
}

/**
 * Whether `stored` may go to `targetUrl`. `fromUserSettings` is true when the endpoint in effect comes
 * from the user's own (global) settings rather than a workspace or folder: only then may a legacy,
 * unbound value be bound silently, since the user already sent it there before binding existed.
 */
export function decideCredential(
  stored: BoundCredential | undefined,
  targetUrl: string,
  fromUserSettings: boolean,
): CredentialDecision {
  if (!stored) return { kind: 'none' };
  const origin = originOf(targetUrl);
  if (stored.origins.includes(origin)) return { kind: 'send', value: stored.value };
  if (stored.origins.length === 0 && fromUserSettings) return { kind: 'bind', value: stored.value, origin };
  return { kind: 'ask', value: stored.value, origin, boundTo: stored.origins };
}

/** The record after the user answered "Always for this origin". */
export function allowOrigin(stored: BoundCredential, origin: string): BoundCredential {
  return { value: stored.value, origins: [...new Set([...stored.origins, origin])] };
}
