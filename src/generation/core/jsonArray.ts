import { isAscii } from 'node:buffer';
// Incremental reader for streamGenerateContent without alt=sse: one JSON array whose elements
// arrive one by one (`[{…}\n,\r\n{…}\n]`). A bare object (a unary body or an error) is accepted too.
// It works on bytes, as the SSE reader does: the structure characters are ASCII and never occur inside a
// UTF-8 sequence, so each element is found in the chunk's bytes and decoded once, whole (latin1 when it is
// ASCII). Decoding every chunk to a string first made a two-byte copy of it whenever it held one non-ASCII
// character, and kept that copy alive while its elements were parsed. An element spanning chunks is
// gathered in a growable buffer, so the cost is linear in bytes whatever the chunking.
import type { StreamItem } from './sse';

const QUOTE = 34;
const BACKSLASH = 92;
const LF = 10;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

export class JsonArrayReader {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private sawArray = false;
  /** Inside an element: its bytes so far that came in earlier chunks. */
  private inElement = false;
  /** Inside stray text (anything that is neither structure nor separator), read up to its line end. */
  private inStray = false;
  private pending = Buffer.allocUnsafe(0);
  private pendingBytes = 0;
  private pendingBits = 0;
  /** How many bytes of a UTF-8 byte order mark opened the body so far (3: all; -1: none, or past it). */
  private bom = 0;

  constructor(private readonly emit: (item: StreamItem) => void) {}

  pushText(t: string): void {
    this.push(Buffer.from(t, 'utf8'));
  }

  push(bytes: Uint8Array): void {
    const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const n = buf.length;
    let i = 0;
    // A byte order mark before the body is not text (TextDecoder drops it too), wherever the chunks split it.
    while (this.bom >= 0 && this.bom < 3 && i < n) {
      if (buf[i] !== BOM[this.bom]) {
        const seen = this.bom;
        this.bom = -1;
        if (seen > 0) this.push(BOM.subarray(0, seen));
        break;
      }
      this.bom++;
      i++;
    }
    if (this.bom === 3) this.bom = -1;
    if (this.inStray) {
      const nl = buf.indexOf(LF);
      if (nl < 0) return this.keep(buf, 0, n, -1);
      this.keep(buf, 0, nl, -1);
      this.flushStray();
      i = nl;
    }
    // Where the element being read starts in this chunk (0 when it began in an earlier one), and which of
    // its bytes are set (bit 7: not ASCII).
    let start = this.inElement ? 0 : -1;
    let bits = 0;
    for (; i < n; i++) {
      const c = buf[i];
      bits |= c;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) this.inString = false;
        continue;
      }
      if (c === QUOTE) {
        this.inString = true;
        continue;
      }
      // Depth 0 is outside everything; the array itself is depth 1 when present.
      const base = this.sawArray ? 1 : 0;
      if (c === 91 /* [ */ && this.depth === 0 && !this.sawArray && !this.inElement) {
        this.sawArray = true;
        this.depth = 1;
        continue;
      }
      if (c === 123 /* { */ || c === 91 /* [ */) {
        if (this.depth === base && !this.inElement) {
          this.inElement = true;
          start = i;
          bits = c;
        }
        this.depth++;
      } else if (c === 125 /* } */ || c === 93 /* ] */) {
        this.depth--;
        if (this.depth === base && this.inElement) {
          this.inElement = false;
          this.emit({ kind: 'data', data: this.take(buf, start, i + 1, bits) });
          start = -1;
        } else if (this.depth < base) {
          this.depth = 0;
        }
      } else if (this.depth === base && !this.inElement && c > 32 && c !== 44 /* , */) {
        // Text that is neither JSON structure nor separator: keep it (to its line end) for the caller to report.
        const nl = buf.indexOf(LF, i);
        if (nl < 0) {
          this.inStray = true;
          return this.keep(buf, i, n, -1);
        }
        this.emit({ kind: 'raw', text: buf.toString('utf8', i, nl) });
        i = nl - 1;
      }
    }
    if (this.inElement && start >= 0 && start < n) this.keep(buf, start, n, bits);
  }

  end(): void {
    // A body that was only the start of a byte order mark: those bytes are text after all.
    if (this.bom > 0 && this.bom < 3) {
      const seen = this.bom;
      this.bom = -1;
      this.push(BOM.subarray(0, seen));
    }
    this.flushStray();
    if (this.inElement) {
      const text = this.decodePending();
      if (text.trim()) this.emit({ kind: 'raw', text });
    }
    this.inElement = false;
    this.pendingBytes = 0;
    this.pendingBits = 0;
  }

  /** The element ending at `end`: decoded straight from the chunk, or joined with its earlier bytes. */
  private take(buf: Buffer, start: number, end: number, bits: number): string {
    if (this.pendingBytes === 0) return decode(buf, start, end, bits);
    this.keep(buf, start, end, bits);
    return this.decodePending();
  }

  /** Appends bytes to the pending ones (`bits` -1: not known, checked when decoded). */
  private keep(buf: Buffer, start: number, end: number, bits: number): void {
    const need = this.pendingBytes + (end - start);
    if (need > this.pending.length) {
      const grown = Buffer.allocUnsafe(Math.max(need, this.pending.length * 2, 256));
      this.pending.copy(grown, 0, 0, this.pendingBytes);
      this.pending = grown;
    }
    buf.copy(this.pending, this.pendingBytes, start, end);
    this.pendingBytes = need;
    this.pendingBits |= bits;
  }

  private decodePending(): string {
    const text = decode(this.pending, 0, this.pendingBytes, this.pendingBits);
    this.pendingBytes = 0;
    this.pendingBits = 0;
    // Do not hold on to the memory of one huge element for the rest of the stream.
    if (this.pending.length > 1 << 20) this.pending = Buffer.allocUnsafe(0);
    return text;
  }

  private flushStray(): void {
    if (!this.inStray) return;
    this.inStray = false;
    this.emit({ kind: 'raw', text: this.decodePending() });
  }
}

/** ASCII (bit 7 clear in every byte) decodes as latin1 into a one-byte string; -1 means not known yet. */
function decode(buf: Buffer, start: number, end: number, bits: number): string {
  if (start >= end) return '';
  const ascii = bits === -1 ? isAscii(buf.subarray(start, end)) : (bits & 0x80) === 0;
  return buf.toString(ascii ? 'latin1' : 'utf8', start, end);
}
