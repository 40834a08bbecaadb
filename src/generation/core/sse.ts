import { isAscii } from 'node:buffer';
// Incremental reader for the service's SSE bodies, working on bytes: lines are cut at LF bytes
// (which never occur inside a UTF-8 sequence), so a code point split across network chunks is
// whole again before it is decoded, and ASCII lines take the fast latin1 path. It accepts bytes split anywhere (inside a
// line, a CRLF pair or a UTF-8 character), CRLF or LF framing, a last event without its blank
// line, and the raw pretty-printed JSON error the service appends mid-stream without `data:`.

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

export class SseReader {
  /** Bytes of a line whose LF has not arrived yet. */
  private pending: Buffer | undefined;
  private data: string[] = [];
  private raw: string[] | undefined;
  private braces: BraceCounter | undefined;

  constructor(private readonly emit: (item: StreamItem) => void) {}

  push(bytes: Uint8Array): void {
    const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let start = 0;
    let nl = buf.indexOf(LF, 0);
    if (this.pending) {
      if (nl === -1) {
        this.pending = Buffer.concat([this.pending, buf]);
        return;
      }
      // Only the line that straddles the chunk boundary is copied, never the whole chunk.
      const line = Buffer.concat([this.pending, buf.subarray(0, nl)]);
      this.pending = undefined;
      this.lineBytes(line, 0, line.length > 0 && line[line.length - 1] === CR ? line.length - 1 : line.length);
      start = nl + 1;
      nl = buf.indexOf(LF, start);
    }
    while (nl !== -1) {
      this.lineBytes(buf, start, nl > start && buf[nl - 1] === CR ? nl - 1 : nl);
      start = nl + 1;
      nl = buf.indexOf(LF, start);
    }
    // Copy the tail so the (large) network chunk it came from can be collected.
    if (start < buf.length) this.pending = Buffer.from(buf.subarray(start));
  }

  pushText(text: string): void {
    this.push(Buffer.from(text, 'utf8'));
  }

  /** Call once at end of body: flushes a partial line, a pending event and any raw text. */
  end(): void {
    const tail = this.pending;
    this.pending = undefined;
    if (tail?.length) this.lineBytes(tail, 0, tail[tail.length - 1] === CR ? tail.length - 1 : tail.length);
    this.dispatch();
    this.flushRaw();
  }

  private lineBytes(buf: Buffer, start: number, end: number): void {
    if (
      !this.raw && end - start >= 5 &&
      buf[start] === 0x64 && buf[start + 1] === 0x61 && buf[start + 2] === 0x74 && buf[start + 3] === 0x61 && buf[start + 4] === 0x3a
    ) {
      // data: — the one field this API sends; one optional space follows the colon.
      const from = buf[start + 5] === 0x20 ? start + 6 : start + 5;
      this.data.push(decode(buf, from, end));
      return;
    }
    this.line(decode(buf, start, end));
  }

  private line(line: string): void {
    if (this.raw) {
      this.raw.push(line);
      this.braces!.feed(line);
      if (this.braces!.closed) this.flushRaw();
      return;
    }
    if (line.length === 0) {
      this.dispatch();
      return;
    }
    if (line.startsWith('data:')) {
      this.data.push(line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5));
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
    if (this.data.length === 0) return;
    const data = this.data.length === 1 ? this.data[0] : this.data.join('\n');
    this.data = [];
    this.emit({ kind: 'data', data });
  }

  private flushRaw(): void {
    if (!this.raw) return;
    const text = this.raw.join('\n');
    this.raw = undefined;
    this.braces = undefined;
    if (text.trim().length) this.emit({ kind: 'raw', text });
  }
}

const LF = 0x0a;
const CR = 0x0d;

/** ASCII (most JSON events) decodes as latin1, several times faster than UTF-8 and into a one-byte string. */
function decode(buf: Buffer, start: number, end: number): string {
  if (start >= end) return '';
  return isAscii(buf.subarray(start, end)) ? buf.toString('latin1', start, end) : buf.toString('utf8', start, end);
}
