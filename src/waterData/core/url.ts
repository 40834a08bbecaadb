// Request URLs: every name and value percent-encoded (the service answers an unencoded `$` with 400), and
// next-page links re-based onto the configured endpoint so the API key only ever goes where the user chose.
import type { WaterEntitySet } from '../../shared/wire/waterData';
import { formatFilter } from './filter';
import type { ParsedQuery } from './query';

export interface WaterRequest {
  entitySet: WaterEntitySet;
  select?: string[];
  /** Canonical filter text (see formatFilter). */
  filter?: string;
  top?: number;
  count?: boolean;
  skiptoken?: string;
}

/** encodeURIComponent leaves !'()* alone; the service wants everything reserved encoded. */
export function strictEncode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

export function toRequest(q: ParsedQuery): WaterRequest {
  if (!q.entitySet) throw new Error('Query has no valid entity set');
  const r: WaterRequest = { entitySet: q.entitySet };
  if (q.select) r.select = q.select.map((f) => f.name);
  if (q.filter?.ast) r.filter = formatFilter(q.filter.ast);
  if (q.top !== undefined) r.top = q.top;
  if (q.count) r.count = true;
  if (q.skiptoken) r.skiptoken = q.skiptoken;
  return r;
}

export function buildUrl(baseUrl: string, r: WaterRequest): string {
  const parts: string[] = [];
  if (r.select?.length) parts.push(`${strictEncode('$select')}=${strictEncode(r.select.join(','))}`);
  if (r.filter) parts.push(`${strictEncode('$filter')}=${strictEncode(r.filter)}`);
  if (r.top !== undefined) parts.push(`${strictEncode('$top')}=${strictEncode(String(r.top))}`);
  if (r.skiptoken) parts.push(`${strictEncode('$skiptoken')}=${strictEncode(r.skiptoken)}`);
  if (r.count) parts.push(`${strictEncode('$count')}=true`);
  const base = baseUrl.replace(/\/+$/, '');
  return `${base}/${r.entitySet}${parts.length ? '?' + parts.join('&') : ''}`;
}

/** The URL with its query re-encoded strictly: documented nextLinks carry a raw `$`. */
export function reencodeQuery(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const hash = url.indexOf('#', q);
  const query = url.slice(q + 1, hash < 0 ? undefined : hash);
  const parts = query
    .split('&')
    .filter(Boolean)
    .map((p) => {
      const eq = p.indexOf('=');
      const name = safeDecode(eq < 0 ? p : p.slice(0, eq));
      const value = eq < 0 ? undefined : safeDecode(p.slice(eq + 1));
      return value === undefined ? strictEncode(name) : `${strictEncode(name)}=${strictEncode(value)}`;
    });
  return `${url.slice(0, q)}?${parts.join('&')}`;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * A server's next link, made safe to follow: same entity-set path, moved onto `baseUrl` if it names another
 * host (a proxy or a documented placeholder host), query strictly encoded. Undefined when it is not a link
 * to one of the entity sets.
 */
export function followableNextLink(baseUrl: string, next: string): string | undefined {
  let u: URL;
  try {
    u = new URL(next, baseUrl.replace(/\/+$/, '') + '/');
  } catch {
    return undefined;
  }
  const m = /\/(Metadata|Locations|Observations|Records)\/?$/.exec(u.pathname);
  if (!m) return undefined;
  const raw = next.includes('?') ? next.slice(next.indexOf('?')) : '';
  return reencodeQuery(`${baseUrl.replace(/\/+$/, '')}/${m[1]}${raw}`);
}
