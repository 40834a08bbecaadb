// Client of discovery.apis.list / apis.getRest, and the view's filtering, kept editor-free.
import { defaultFetch, redactText, redactUrl, type HttpFetch } from '../../shared/http';
import type { DirectoryItem, DirectoryList } from '../../shared/wire/discovery';

export type { DirectoryItem };

/** A directory answers in well under a second; a host that does not answer in 30 s is not going to. */
const TIMEOUT_MS = 30_000;

export class DirectoryError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

async function getText(url: string, fetch: HttpFetch, signal?: AbortSignal): Promise<string> {
  let res;
  try {
    res = await fetch(url, {
      signal,
      headers: { accept: 'application/json' },
      timeoutMs: TIMEOUT_MS,
      trace: { feature: 'discovery' },
    });
  } catch (err) {
    throw new DirectoryError(`Cannot reach ${redactUrl(url)}: ${redactText((err as Error).message)}`);
  }
  const body = await res.text();
  if (!res.ok) {
    let detail = res.statusText;
    try {
      const e = JSON.parse(body) as { error?: { message?: string } };
      if (e.error?.message) detail = e.error.message;
    } catch {
      /* not JSON: keep the status text */
    }
    throw new DirectoryError(redactText(`${redactUrl(url)} answered ${res.status}: ${detail}`), res.status);
  }
  return body;
}

export async function fetchDirectory(
  listUrl: string,
  options: { fetch?: HttpFetch; signal?: AbortSignal } = {},
): Promise<DirectoryItem[]> {
  const text = await getText(listUrl, options.fetch ?? defaultFetch, options.signal);
  let body: DirectoryList;
  try {
    body = JSON.parse(text) as DirectoryList;
  } catch {
    throw new DirectoryError(`${redactUrl(listUrl)} did not return JSON.`);
  }
  if (body?.kind !== 'discovery#directoryList')
    throw new DirectoryError(
      `${redactUrl(listUrl)} is not a discovery directory (kind ${JSON.stringify(body?.kind)}).`,
    );
  return (body.items ?? []).filter((i) => typeof i?.name === 'string' && typeof i?.discoveryRestUrl === 'string');
}

/** The description document's text, pretty-printed when it was sent minified. */
export async function fetchDescription(
  item: Pick<DirectoryItem, 'discoveryRestUrl'>,
  options: { fetch?: HttpFetch; signal?: AbortSignal } = {},
): Promise<string> {
  const text = await getText(item.discoveryRestUrl, options.fetch ?? defaultFetch, options.signal);
  if (text.length < 64 * 1024 * 1024 && !text.slice(0, 200).includes('\n')) {
    try {
      return JSON.stringify(JSON.parse(text), null, 2) + '\n';
    } catch {
      return text;
    }
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
