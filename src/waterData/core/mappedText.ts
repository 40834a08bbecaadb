// Text that remembers where each character came from in the cell, so errors found after
// percent-decoding or joining wrapped lines still point at the right column of the source.

export interface MappedText {
  text: string;
  /** offsets[i] is the source offset of text[i]; offsets[text.length] is the offset just past the end. */
  offsets: number[];
}

export function mapped(source: string, start: number, end = start + source.length): MappedText {
  const offsets: number[] = [];
  for (let i = 0; i < source.length; i++) offsets.push(start + i);
  offsets.push(end);
  return { text: source, offsets };
}

export function emptyMapped(at: number): MappedText {
  return { text: '', offsets: [at] };
}

/** Concatenates pieces; `joiner` characters map onto the start of the following piece. */
export function joinMapped(parts: MappedText[], joiner: string): MappedText {
  if (parts.length === 0) return emptyMapped(0);
  let text = '';
  const offsets: number[] = [];
  parts.forEach((p, i) => {
    if (i > 0 && joiner) {
      text += joiner;
      for (let j = 0; j < joiner.length; j++) offsets.push(p.offsets[0]);
    }
    text += p.text;
    // A loop, not push(...slice): spreading a long piece's offsets as arguments overflows the stack.
    for (let j = 0; j < p.text.length; j++) offsets.push(p.offsets[j]);
  });
  offsets.push(parts[parts.length - 1].offsets[parts[parts.length - 1].text.length]);
  return { text, offsets };
}

export function sliceMapped(m: MappedText, from: number, to = m.text.length): MappedText {
  return { text: m.text.slice(from, to), offsets: m.offsets.slice(from, to + 1) };
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
  let text = '';
  const offsets: number[] = [];
  const src = m.text;
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
        for (let k = i; k < j; k++) offsets.push(m.offsets[k]);
        text += decoded;
        i = j;
        continue;
      }
      // Map each decoded character to the escape where its bytes start.
      let byteIndex = 0;
      for (const ch of decoded) {
        text += ch;
        for (let u = 0; u < ch.length; u++) offsets.push(m.offsets[starts[byteIndex]]);
        byteIndex += Buffer.byteLength(ch, 'utf8');
      }
      i = j;
      continue;
    }
    text += plusIsSpace && c === '+' ? ' ' : c;
    offsets.push(m.offsets[i]);
    i++;
  }
  offsets.push(m.offsets[src.length]);
  return { text, offsets };
}
