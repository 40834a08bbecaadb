import { isAscii } from 'node:buffer';
// Incremental reader for the service's SSE bodies, working on bytes: line ends (CR, LF or CRLF) are
// found in the Uint8Array itself (those bytes never occur inside a UTF-8 sequence), so a code point
// split across network chunks is whole again before it is decoded, and each line is decoded exactly
// once. A line that spans chunks is copied into one growable buffer and decoded once when its end
// arrives, so the cost is linear in bytes whatever the chunking (16-byte chunks cost what 64 KiB chunks
// cost per byte). It accepts bytes split anywhere (inside a line, a CRLF pair or a UTF-8 character),
// CRLF, LF or CR framing, a last event without its blank line, and the raw pretty-printed JSON error the
// service appends mid-stream without `data:`.

export type StreamItem =
  /** The payload of one `data:` event (lines joined with \n, as SSE specifies). */
  | { kind: 'data'; data: string }
  /** Text outside any event: a raw JSON error block, or whatever an unexpected body held (HTML…). */
  | { kind: 'raw'; text: string };

/** Tracks JSON nesting across lines so a multi-line raw object is emitted once it closes. */
class BraceCounter {
  depth = 0;
  opened = false;
  private inString = false;
  private escaped = false;

  feed(text: string): void {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 92 /* \ */) this.escaped = true;
        else if (c === 34 /* " */) this.inString = false;
      } else if (c === 34) this.inString = true;
      else if (c === 123 /* { */ || c === 91 /* [ */) {
        this.depth++;
        this.opened = true;
      } else if (c === 125 /* } */ || c === 93 /* ] */) this.depth--;
    }
  }

  get closed(): boolean {
    return this.opened && this.depth <= 0 && !this.inString;
  }
}

const LF = 0x0a;
const CR = 0x0d;

export class SseReader {
  /** Bytes of a line whose end has not arrived yet: a growable buffer, so appending is amortised O(1) per byte. */
  private pending = Buffer.allocUnsafe(0);
  private pendingBytes = 0;
  /** Every pending byte is ASCII (tracked while copying, so the joined line needs no check of its own). */
  private pendingAscii = true;
  /** The previous chunk ended with CR: an LF opening this chunk belongs to that CRLF pair. */
  private afterCR = false;
  /** The `data:` lines of the event being read: the first alone (most events have one), the rest in a list. */
  private data: string | undefined;
  private moreData: string[] | undefined;
  private raw: string[] | undefined;
  private braces: BraceCounter | undefined;

  /**
   * `onData`, when given, takes each event's payload in place of a `data` item: an object per event was garbage
   * on every event, and garbage is dear while the aggregate's text survives each young collection.
   */
  constructor(
    private readonly emit: (item: StreamItem) => void,
    private readonly onData?: (data: string) => void,
  ) {}

  push(bytes: Uint8Array): void {
    const n = bytes.length;
    let start = 0;
    if (this.afterCR && n > 0) {
      this.afterCR = false;
      if (bytes[0] === LF) start = 1;
    }
    // Small chunks (16-byte network reads) go byte by byte into the pending line, scanning and copying in one
    // pass: a native call per chunk or a second pass over its bytes cost more than the bytes themselves (and
    // they need no Buffer view: a fifth of the time per 16-byte chunk was making sure of one).
    if (n - start < 256) {
      this.pushSmall(bytes, start, n);
      return;
    }
    const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    // One native check of a whole large chunk spares its lines any check of their own: an all-ASCII chunk's
    // lines take the fast latin1 path, any other chunk's lines are decoded as UTF-8 straight away (a Buffer
    // view and a check per line cost more than UTF-8 decoding of the ASCII lines among them).
    const ascii = isAscii(buf);
    // In big chunks the next CR and LF are each looked up natively and reused until the scan passes them,
    // so a chunk without CR is searched for CR once, not once per line.
    let cr = buf.indexOf(CR, start);
    let lf = buf.indexOf(LF, start);
    while (start < n) {
      if (cr !== -1 && cr < start) cr = buf.indexOf(CR, start);
      if (lf !== -1 && lf < start) lf = buf.indexOf(LF, start);
      const end = cr !== -1 && (lf === -1 || cr < lf) ? cr : lf;
      if (end === -1) break;
      let next = end + 1;
      if (buf[end] === CR) {
        if (next < n) {
          if (buf[next] === LF) next++;
        } else this.afterCR = true;
      }
      if (this.pendingBytes > 0) {
        // Only the line that straddles chunk boundaries is copied, never the whole chunk.
        this.append(buf, start, end, ascii);
        this.flushPending();
      } else {
        this.lineBytes(buf, start, end, ascii);
      }
      // A blank line (the end of each event) is seen here without searching for it.
      if (next < n && (buf[next] === LF || buf[next] === CR)) {
        if (buf[next++] === CR) {
          if (next < n) {
            if (buf[next] === LF) next++;
          } else this.afterCR = true;
        }
        this.line('');
      }
      start = next;
    }
    // Copy the tail so the (large) network chunk it came from can be collected.
    if (start < n) this.append(buf, start, n, ascii);
  }

  /** Copies bytes into the pending line up to each line end, and hands over each line as it ends. */
  private pushSmall(buf: Uint8Array, i: number, n: number): void {
    if (this.pendingBytes + n - i > this.pending.length) this.reserve(n - i);
    let into = this.pending;
    let j = this.pendingBytes;
    let bits = 0;
    while (i < n) {
      const b = buf[i];
      if (b !== LF && b !== CR) {
        bits |= into[j++] = b;
        i++;
        continue;
      }
      i++;
      if (b === CR) {
        if (i < n) {
          if (buf[i] === LF) i++;
        } else this.afterCR = true;
      }
      this.pendingBytes = j;
      if (bits & 0x80) this.pendingAscii = false;
      bits = 0;
      this.flushPending();
      j = 0;
      this.reserve(n - i);
      into = this.pending;
    }
    this.pendingBytes = j;
    if (bits & 0x80) this.pendingAscii = false;
  }

  /** Hands the pending bytes over as one line (an empty one too: it ends an event). */
  private flushPending(): void {
    const line = this.pending;
    const length = this.pendingBytes;
    const ascii = this.pendingAscii;
    this.pendingBytes = 0;
    this.pendingAscii = true;
    this.lineBytes(line, 0, length, ascii);
    // Do not hold on to the memory of one huge line for the rest of the stream.
    if (this.pending.length > 1 << 20) this.pending = Buffer.allocUnsafe(0);
  }

  /** Room for `more` bytes after the pending ones: a growable buffer, so appending is amortised O(1) per byte. */
  private reserve(more: number): void {
    const need = this.pendingBytes + more;
    if (need <= this.pending.length) return;
    const grown = Buffer.allocUnsafe(Math.max(need, this.pending.length * 2, 256));
    this.pending.copy(grown, 0, 0, this.pendingBytes);
    this.pending = grown;
  }

  /** `ascii`: the bytes come from an all-ASCII chunk. */
  private append(buf: Buffer, start: number, end: number, ascii: boolean): void {
    this.reserve(end - start);
    const need = this.pendingBytes + (end - start);
    const into = this.pending;
    // A few bytes are cheaper to copy in JS than through a native call (16-byte network chunks).
    if (end - start <= 64) {
      let bits = 0;
      for (let i = start, j = this.pendingBytes; i < end; i++, j++) bits |= into[j] = buf[i];
      if (bits & 0x80) this.pendingAscii = false;
    } else {
      buf.copy(into, this.pendingBytes, start, end);
      // Bytes of a chunk that was not all ASCII are decoded as UTF-8, which is right for ASCII too.
      if (!ascii) this.pendingAscii = false;
    }
    this.pendingBytes = need;
  }

  pushText(text: string): void {
    this.push(Buffer.from(text, 'utf8'));
  }

  /** Call once at end of body: flushes a partial line, a pending event and any raw text. */
  end(): void {
    if (this.pendingBytes > 0) this.flushPending();
    this.afterCR = false;
    this.dispatch();
    this.flushRaw();
  }

  /** `ascii`: the caller knows these bytes are ASCII (otherwise they are decoded as UTF-8). */
  private lineBytes(buf: Buffer, start: number, end: number, ascii: boolean): void {
    if (
      !this.raw &&
      end - start >= 5 &&
      buf[start] === 0x64 &&
      buf[start + 1] === 0x61 &&
      buf[start + 2] === 0x74 &&
      buf[start + 3] === 0x61 &&
      buf[start + 4] === 0x3a
    ) {
      // data: — the one field this API sends; one optional space follows the colon.
      const from = buf[start + 5] === 0x20 ? start + 6 : start + 5;
      const text = decode(buf, from, end, ascii);
      if (this.data === undefined) this.data = text;
      else (this.moreData ??= []).push(text);
      return;
    }
    this.line(decode(buf, start, end, ascii));
  }

  private line(line: string): void {
    if (this.raw && this.braces) {
      this.raw.push(line);
      this.braces.feed(line);
      if (this.braces.closed) this.flushRaw();
      return;
    }
    if (line.length === 0) {
      this.dispatch();
      return;
    }
    // Comments and the other SSE fields carry nothing for this API.
    if (line.charCodeAt(0) === 58 /* : */ || /^(event|id|retry)(:|$)/.test(line)) return;
    this.dispatch();
    this.raw = [line];
    this.braces = new BraceCounter();
    this.braces.feed(line);
    if (this.braces.closed) this.flushRaw();
  }

  private dispatch(): void {
    if (this.data === undefined) return;
    const data = this.moreData ? [this.data, ...this.moreData].join('\n') : this.data;
    this.data = this.moreData = undefined;
    if (this.onData) this.onData(data);
    else this.emit({ kind: 'data', data });
  }

  private flushRaw(): void {
    if (!this.raw) return;
    const text = this.raw.join('\n');
    this.raw = undefined;
    this.braces = undefined;
    if (text.trim().length) this.emit({ kind: 'raw', text });
  }
}

/** Known-ASCII bytes decode as latin1, several times faster than UTF-8 and into the same one-byte string. */
function decode(buf: Buffer, start: number, end: number, ascii: boolean): string {
  if (start >= end) return '';
  return buf.toString(ascii ? 'latin1' : 'utf8', start, end);
}
