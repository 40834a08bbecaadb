// Client of discovery.apis.list / apis.getRest, and the view's filtering, kept editor-free.
import nodeFetch from 'node-fetch';
import type { DirectoryItem, DirectoryList } from '../../shared/wire/discovery';

export type { DirectoryItem };

/** The slice of fetch this client uses; node-fetch by default, injectable for tests. */
export type FetchLike = (url: string, init?: { signal?: AbortSignal; headers?: Record<string, string> }) => Promise<{
  ok: boolean;
  status: number;
  statusText: string;
  text(): Promise<string>;
}>;

const defaultFetch: FetchLike = (url, init) => nodeFetch(url, init as never) as never;

export class DirectoryError extends Error {
  constructor(message: string, readonly status?: number) {
    super(message);
  }
}

async function getText(url: string, fetch: FetchLike, signal?: AbortSignal): Promise<string> {
  let res;
  try {
    res = await fetch(url, { signal, headers: { accept: 'application/json' } });
  } catch (err) {
    throw new DirectoryError(`Cannot reach ${redact(url)}: ${(err as Error).message}`);
  }
  const body = await res.text();
  if (!res.ok) {
    let detail = res.statusText;
    try {
      const e = JSON.parse(body) as { error?: { message?: string } };
      if (e.error?.message) detail = e.error.message;
    } catch { /* not JSON: keep the status text */ }
    throw new DirectoryError(`${redact(url)} answered ${res.status}: ${detail}`, res.status);
  }
  return body;
}

/** URLs may carry an API key in the query; never show it. */
export function redact(url: string): string {
  return url.replace(/([?&](?:key|access_token)=)[^&]*/gi, '$1…');
}

export async function fetchDirectory(listUrl: string, options: { fetch?: FetchLike; signal?: AbortSignal } = {}): Promise<DirectoryItem[]> {
  const text = await getText(listUrl, options.fetch ?? defaultFetch, options.signal);
  let body: DirectoryList;
  try {
    body = JSON.parse(text) as DirectoryList;
  } catch {
    throw new DirectoryError(`${redact(listUrl)} did not return JSON.`);
  }
  if (body?.kind !== 'discovery#directoryList') throw new DirectoryError(`${redact(listUrl)} is not a discovery directory (kind ${JSON.stringify(body?.kind)}).`);
  return (body.items ?? []).filter((i) => typeof i?.name === 'string' && typeof i?.discoveryRestUrl === 'string');
}

/** The description document's text, pretty-printed when it was sent minified. */
export async function fetchDescription(item: Pick<DirectoryItem, 'discoveryRestUrl'>, options: { fetch?: FetchLike; signal?: AbortSignal } = {}): Promise<string> {
  const text = await getText(item.discoveryRestUrl, options.fetch ?? defaultFetch, options.signal);
  if (text.length < 64 * 1024 * 1024 && !text.slice(0, 200).includes('\n')) {
    try { return JSON.stringify(JSON.parse(text), null, 2) + '\n'; } catch { return text; }
  }
  return text;
}

export interface DirectoryFilter {
  preferredOnly: boolean;
  text: string;
}

/** Items matching the filter; the text matches name, title, version, description and labels. */
export function filterDirectory(items: readonly DirectoryItem[], filter: DirectoryFilter): DirectoryItem[] {
  const words = filter.text.toLowerCase().split(/\s+/).filter(Boolean);
  return items.filter((i) => {
    if (filter.preferredOnly && !i.preferred) return false;
    if (!words.length) return true;
    const hay = [i.name, i.title, i.version, i.description, ...(i.labels ?? [])].join(' ').toLowerCase();
    return words.every((w) => hay.includes(w));
  });
}

/** File name for saving an item: name.version.json, like the published documents. */
export function fileNameFor(item: Pick<DirectoryItem, 'name' | 'version'>): string {
  return `${item.name}.${item.version}.json`.replace(/[\\/:*?"<>|]/g, '_');
}
