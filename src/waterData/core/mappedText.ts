// Text that remembers where each character came from in the cell, so errors found after
// percent-decoding or joining wrapped lines still point at the right column of the source.

export interface MappedText {
  text: string;
  /**
   * offsets[i] is the source offset of text[i]; offsets[text.length] is the offset just past the end.
   * A typed array: one flat allocation the garbage collector never scans, and slices are views, not copies
   * (a 1 MB filter is sliced and trimmed several times on its way to the parser).
   */
  offsets: Int32Array;
}

export function mapped(source: string, start: number, end = start + source.length): MappedText {
  const offsets = new Int32Array(source.length + 1);
  for (let i = 0; i < source.length; i++) offsets[i] = start + i;
  offsets[source.length] = end;
  return { text: source, offsets };
}

export function emptyMapped(at: number): MappedText {
  return { text: '', offsets: Int32Array.of(at) };
}

/** Concatenates pieces; `joiner` characters map onto the start of the following piece. */
export function joinMapped(parts: MappedText[], joiner: string): MappedText {
  if (parts.length === 0) return emptyMapped(0);
  if (parts.length === 1) return parts[0];
  let length = 0;
  for (const p of parts) length += p.text.length;
  length += joiner.length * (parts.length - 1);
  const offsets = new Int32Array(length + 1);
  let at = 0;
  parts.forEach((p, i) => {
    if (i > 0) offsets.fill(p.offsets[0], at, (at += joiner.length));
    offsets.set(p.offsets.subarray(0, p.text.length), at);
    at += p.text.length;
  });
  const last = parts[parts.length - 1];
  offsets[length] = last.offsets[last.text.length];
  return { text: parts.map((p) => p.text).join(joiner), offsets };
}

/** text[from, to) with its offsets; the offsets are a view of the original's, not a copy. */
export function sliceMapped(m: MappedText, from: number, to = m.text.length): MappedText {
  return { text: m.text.slice(from, to), offsets: m.offsets.subarray(from, to + 1) };
}

export function trimMapped(m: MappedText): MappedText {
  let a = 0;
  let b = m.text.length;
  while (a < b && /\s/.test(m.text[a])) a++;
  while (b > a && /\s/.test(m.text[b - 1])) b--;
  return sliceMapped(m, a, b);
}

/** Source range of text[from, to). */
export function sourceRange(m: MappedText, from: number, to: number): { start: number; end: number } {
  const f = Math.max(0, Math.min(from, m.text.length));
  const t = Math.max(f, Math.min(to, m.text.length));
  const start = m.offsets[f];
  const end = t > f ? m.offsets[t - 1] + 1 : start;
  return { start, end: Math.max(end, start) };
}

const HEX2 = /^[0-9A-Fa-f]{2}$/;

export function looksPercentEncoded(s: string): boolean {
  return /%[0-9A-Fa-f]{2}/.test(s);
}

/**
 * Percent-decodes UTF-8 sequences; `plusIsSpace` for form-encoded text. A `%` not followed by two hex digits
 * stays literal (a unit like `%` in an unencoded value). Invalid UTF-8 keeps the raw escape.
 */
export function percentDecode(m: MappedText, plusIsSpace: boolean): MappedText {
  const parts: string[] = [];
  const src = m.text;
  // Decoding never lengthens the text, so the source's length bounds the offsets.
  const offsets = new Int32Array(src.length + 1);
  let n = 0;
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === '%' && HEX2.test(src.slice(i + 1, i + 3))) {
      // Gather a run of escapes and decode them together so multi-byte characters survive.
      const bytes: number[] = [];
      const starts: number[] = [];
      let j = i;
      while (src[j] === '%' && HEX2.test(src.slice(j + 1, j + 3))) {
        bytes.push(parseInt(src.slice(j + 1, j + 3), 16));
        starts.push(j);
        j += 3;
      }
      let decoded: string;
      try {
        decoded = new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array(bytes));
      } catch {
        decoded = src.slice(i, j);
        for (let k = i; k < j; k++) offsets[n++] = m.offsets[k];
        parts.push(decoded);
        i = j;
        continue;
      }
      // Map each decoded character to the escape where its bytes start.
      let byteIndex = 0;
      for (const ch of decoded) {
        parts.push(ch);
        for (let u = 0; u < ch.length; u++) offsets[n++] = m.offsets[starts[byteIndex]];
        byteIndex += Buffer.byteLength(ch, 'utf8');
      }
      i = j;
      continue;
    }
    // Runs of plain characters are copied as one slice, not one character at a time.
    let j = i + 1;
    while (j < src.length && src[j] !== '%' && !(plusIsSpace && src[j] === '+')) j++;
    if (plusIsSpace && c === '+') {
      parts.push(' ');
      j = i + 1;
    } else parts.push(src.slice(i, j));
    for (let k = i; k < j; k++) offsets[n++] = m.offsets[k];
    i = j;
  }
  offsets[n] = m.offsets[src.length];
  return { text: parts.join(''), offsets: offsets.subarray(0, n + 1) };
}
