// Citation offsets are UTF-8 byte positions into the candidate's text; JavaScript strings index
// UTF-16 units. Mapping them wrongly shifts every citation after the first non-ASCII character.
import type { CitationSource } from '../../shared/wire/generation';

export interface MappedCitation {
  /** 1-based number shown to the user. */
  n: number;
  uri?: string;
  license?: string;
  /** UTF-16 offsets into the text (end exclusive). */
  start: number;
  end: number;
  /** The cited passage. */
  text: string;
}

/** UTF-16 index for every UTF-8 byte offset that falls on a character boundary. */
export function byteToCharIndex(text: string, byteOffset: number): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    if (bytes >= byteOffset) return i;
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return text.length;
}

export function mapCitations(text: string, sources: readonly CitationSource[] | undefined): MappedCitation[] {
  return (sources ?? []).map((s, i) => {
    const start = byteToCharIndex(text, s.startIndex ?? 0);
    const end = s.endIndex === undefined ? text.length : byteToCharIndex(text, s.endIndex);
    return { n: i + 1, uri: s.uri, license: s.license || undefined, start, end: Math.max(start, end), text: text.slice(start, Math.max(start, end)) };
  });
}
