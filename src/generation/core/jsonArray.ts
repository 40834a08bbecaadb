// Incremental reader for streamGenerateContent without alt=sse: one JSON array whose elements
// arrive one by one (`[{…}\n,\r\n{…}\n]`). A bare object (a unary body or an error) is accepted too.
import type { StreamItem } from './sse';

export class JsonArrayReader {
  private readonly decoder = new TextDecoder('utf-8');
  private text = '';
  /** Scan position in `text`; everything before `elementStart` (or `pos` at depth 0) is consumed. */
  private pos = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private elementStart = -1;
  private sawArray = false;

  constructor(private readonly emit: (item: StreamItem) => void) {}

  push(bytes: Uint8Array): void {
    this.pushText(this.decoder.decode(bytes, { stream: true }));
  }

  pushText(chunk: string): void {
    this.text += chunk;
    const t = this.text;
    let i = this.pos;
    for (; i < t.length; i++) {
      const c = t.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 92) this.escaped = true;
        else if (c === 34) this.inString = false;
        continue;
      }
      if (c === 34) {
        this.inString = true;
        continue;
      }
      // Depth 0 is outside everything; the array itself is depth 1 when present.
      const base = this.sawArray ? 1 : 0;
      if (c === 91 && this.depth === 0 && !this.sawArray && this.elementStart < 0) {
        this.sawArray = true;
        this.depth = 1;
        continue;
      }
      if (c === 123 || c === 91) {
        if (this.depth === base) this.elementStart = i;
        this.depth++;
      } else if (c === 125 || c === 93) {
        this.depth--;
        if (this.depth === base && this.elementStart >= 0) {
          this.emit({ kind: 'data', data: t.slice(this.elementStart, i + 1) });
          this.elementStart = -1;
        } else if (this.depth < base) {
          this.depth = 0;
        }
      } else if (this.depth === base && this.elementStart < 0 && c > 32 && c !== 44 /* , */) {
        // Text that is neither JSON structure nor separator: keep it for the caller to report.
        const end = t.indexOf('\n', i);
        const stop = end < 0 ? t.length : end;
        this.emit({ kind: 'raw', text: t.slice(i, stop) });
        i = stop - 1;
      }
    }
    // Keep only what an unfinished element still needs.
    if (this.elementStart >= 0) {
      this.text = t.slice(this.elementStart);
      this.pos = i - this.elementStart;
      this.elementStart = 0;
    } else {
      this.text = '';
      this.pos = 0;
    }
  }

  end(): void {
    const tail = this.decoder.decode();
    if (tail) this.pushText(tail);
    if (this.elementStart >= 0 && this.text.trim()) this.emit({ kind: 'raw', text: this.text.slice(this.elementStart) });
    this.text = '';
    this.elementStart = -1;
  }
}
