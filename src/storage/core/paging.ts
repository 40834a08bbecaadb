// Follows `nextPageToken` until the server stops sending one. Pages may be short or even empty
// before the end, so emptiness never ends the loop; a token that repeats does (it would loop forever).

export interface PagedResponse<T> {
  items?: T[];
  nextPageToken?: string;
}

export async function* pages<T, R extends PagedResponse<T>>(
  fetchPage: (pageToken: string | undefined) => Promise<R>,
  signal?: AbortSignal,
): AsyncGenerator<R> {
  let token: string | undefined;
  const seen = new Set<string>();
  for (;;) {
    if (signal?.aborted) return;
    const page = await fetchPage(token);
    yield page;
    const next = page.nextPageToken;
    if (!next || seen.has(next)) return;
    seen.add(next);
    token = next;
  }
}

export async function collectAll<T, R extends PagedResponse<T>>(
  fetchPage: (pageToken: string | undefined) => Promise<R>,
  signal?: AbortSignal,
): Promise<T[]> {
  const out: T[] = [];
  for await (const page of pages<T, R>(fetchPage, signal)) out.push(...(page.items ?? []));
  return out;
}
