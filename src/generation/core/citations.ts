// Citation offsets are UTF-8 byte positions into the candidate's text; JavaScript strings index
// UTF-16 units. Mapping them wrongly shifts every citation after the first non-ASCII character.

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

const offset = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

/** Sources (CitationSource[]) come from the wire unchecked: anything but a list of objects maps to nothing, wrong-typed fields are ignored. */
export function mapCitations(text: string, sources: unknown): MappedCitation[] {
  if (!Array.isArray(sources)) return [];
  const out: MappedCitation[] = [];
  for (const s of sources as unknown[]) {
    if (typeof s !== 'object' || s === null || Array.isArray(s)) continue;
    const src = s as Record<string, unknown>;
    const start = byteToCharIndex(text, offset(src.startIndex) ?? 0);
    const endByte = offset(src.endIndex);
    const end = endByte === undefined ? text.length : byteToCharIndex(text, endByte);
    out.push({
      n: out.length + 1,
      uri: str(src.uri),
      license: str(src.license),
      start,
      end: Math.max(start, end),
      text: text.slice(start, Math.max(start, end)),
    });
  }
  return out;
}
