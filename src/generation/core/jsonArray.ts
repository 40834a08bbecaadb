// Incremental reader for streamGenerateContent without alt=sse: one JSON array whose elements
// arrive one by one (`[{…}\n,\r\n{…}\n]`). A bare object (a unary body or an error) is accepted too.
// Each character is scanned once: an element spanning chunks is kept as a list of pieces and joined
// once when it closes, so the cost is linear in bytes whatever the chunking.
import type { StreamItem } from './sse';

export class JsonArrayReader {
  private readonly decoder = new TextDecoder('utf-8');
  private depth = 0;
  private inString = false;
  private escaped = false;
  private sawArray = false;
  /** Pieces of the element being read (undefined outside an element). */
  private element: string[] | undefined;
  /** Pieces of stray text being read up to its line end (undefined outside such text). */
  private stray: string[] | undefined;

  constructor(private readonly emit: (item: StreamItem) => void) {}

  push(bytes: Uint8Array): void {
    this.pushText(this.decoder.decode(bytes, { stream: true }));
  }

  pushText(t: string): void {
    let from = 0;
    const n = t.length;
    if (this.stray) {
      const nl = t.indexOf('\n');
      if (nl < 0) {
        this.stray.push(t);
        return;
      }
      this.stray.push(t.slice(0, nl));
      this.flushStray();
      from = nl;
    }
    let elementStart = this.element ? 0 : -1;
    for (let i = from; i < n; i++) {
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
      if (c === 91 && this.depth === 0 && !this.sawArray && !this.element) {
        this.sawArray = true;
        this.depth = 1;
        continue;
      }
      if (c === 123 || c === 91) {
        if (this.depth === base && !this.element) {
          this.element = [];
          elementStart = i;
        }
        this.depth++;
      } else if (c === 125 || c === 93) {
        this.depth--;
        if (this.depth === base && this.element) {
          this.element.push(t.slice(elementStart, i + 1));
          const data = this.element.length === 1 ? this.element[0] : this.element.join('');
          this.element = undefined;
          elementStart = -1;
          this.emit({ kind: 'data', data });
        } else if (this.depth < base) {
          this.depth = 0;
        }
      } else if (this.depth === base && !this.element && c > 32 && c !== 44 /* , */) {
        // Text that is neither JSON structure nor separator: keep it (to its line end) for the caller to report.
        const nl = t.indexOf('\n', i);
        if (nl < 0) {
          this.stray = [t.slice(i)];
          return;
        }
        this.emit({ kind: 'raw', text: t.slice(i, nl) });
        i = nl - 1;
      }
    }
    if (this.element && elementStart >= 0 && elementStart < n) this.element.push(t.slice(elementStart));
  }

  end(): void {
    const tail = this.decoder.decode();
    if (tail) this.pushText(tail);
    this.flushStray();
    if (this.element) {
      const text = this.element.join('');
      if (text.trim()) this.emit({ kind: 'raw', text });
    }
    this.element = undefined;
  }

  private flushStray(): void {
    if (!this.stray) return;
    const text = this.stray.join('');
    this.stray = undefined;
    this.emit({ kind: 'raw', text });
  }
}
