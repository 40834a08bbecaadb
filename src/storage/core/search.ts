// The storage view's search: what the user typed becomes a files.list `q` clause. Titles match by
// `title contains` (word prefixes, as Drive does); "Search in contents" uses `fullText contains`, which
// also matches titles, descriptions and indexed text. The text is a quoted string literal in the query,
// so quotes and backslashes in it are escaped (client.ts `quote`) and can never end the literal.
import { quote } from './client';

export type SearchMode = 'title' | 'fullText';

export interface Search {
  text: string;
  mode: SearchMode;
}

/** The `q` of a search, trashed files excluded; undefined for blank text (nothing to search for). */
export function searchQuery(search: Search): string | undefined {
  const text = search.text.trim();
  if (!text) return undefined;
  return `${search.mode === 'fullText' ? 'fullText' : 'title'} contains ${quote(text)} and trashed = false`;
}

/** What the search root reads: `Search: "text"` (and that contents are searched, when they are). */
export function searchLabel(search: Search): string {
  return `Search: "${search.text.trim()}"${search.mode === 'fullText' ? ' in contents' : ''}`;
}
