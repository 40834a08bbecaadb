// Reads an OData page body (`{"value": [rows…], "@odata.nextLink": "…"}`) as its bytes arrive. The rows of
// the "value" list come out in batches as soon as they are complete, so an export holds neither a page's
// whole text (3 MB for 10,000 Records rows) nor the objects of all its rows, let alone both while the CSV
// of the page is built: that was ~80 MB of a process's peak, whatever the export's size. Every other
// member of the page is small and is parsed once it ends.
//
// Only the structure is scanned here (strings, nesting, the list's separators); the text of each member
// and each row is parsed by JSON.parse, which also checks it. A chunk is scanned where it lies: only the
// start of a row that the chunk's end cuts is copied, to be joined with the next chunk's bytes. Delimiters are ASCII and UTF-8
// never uses an ASCII byte inside a multi-byte character, so bytes can be cut at a delimiter and decoded.

export type PageBodyProblem = 'not-json' | 'no-value';

export class PageBodyError extends Error {
  constructor(readonly problem: PageBodyProblem) {
    super(problem === 'no-value' ? 'The response has no "value" list.' : 'The response is not JSON.');
    this.name = 'PageBodyError';
  }
}

const START = 0;
const KEY_OR_END = 1; // after `{`: a key or `}`
const KEY_NEXT = 2; // after `,`: a key
const IN_KEY = 3;
const COLON = 4;
const VALUE_START = 5;
const IN_VALUE = 6; // any member but the list
const IN_LIST = 7;
const AFTER_VALUE = 8;
const DONE = 9;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON_BYTE = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_LIST = 0x5b;
const CLOSE_LIST = 0x5d;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

const BOM = [0xef, 0xbb, 0xbf];

type Row = Record<string, unknown>;

export class PageBodyParser {
  private phase = START;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Bytes of the body before the chunk being scanned (a byte-order mark is only at its very start). */
  private offset = 0;
  private bomBytes = 0;
  /**
   * The token being read (a key, a member's value, a row of the list) starts at `tokenStart` of the chunk
   * being scanned, or began in earlier chunks whose bytes of it are `carried` (a row cut by a chunk's end).
   */
  private tokenStart = -1;
  private carried: Buffer[] = [];
  private key = '';
  private listRows = 0;
  private sawList = false;
  private readonly members: Row = {};
  /** A body that is not an object is kept whole, to be judged as a whole as before (it is an error anyway). */
  private whole: Buffer[] | undefined;

  /** Takes the next bytes of the body; returns the rows they completed (often none, or a few hundred). */
  push(chunk: Uint8Array): Row[] {
    const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const rows: Row[] = [];
    if (this.whole) this.whole.push(b);
    else {
      if (this.tokenStart >= 0 || this.carried.length > 0) this.tokenStart = 0;
      this.scan(b, rows);
      // Keep only the bytes of a token this chunk did not finish (a copy: the chunk itself can go).
      if (this.tokenStart >= 0 && this.tokenStart < b.length) this.carried.push(Buffer.from(b.subarray(this.tokenStart)));
    }
    this.offset += b.length;
    return rows;
  }

  /** After the last byte: the page's other members (its next link), or why the body is not a page. */
  end(): Row {
    if (this.whole) {
      let body: unknown;
      try {
        body = JSON.parse(new TextDecoder().decode(Buffer.concat(this.whole)));
      } catch {
        body = undefined;
      }
      throw new PageBodyError(body && typeof body === 'object' ? 'no-value' : 'not-json');
    }
    if (this.phase !== DONE) throw new PageBodyError('not-json');
    if (!this.sawList) throw new PageBodyError('no-value');
    return this.members;
  }

  private scan(b: Buffer, rows: Row[]): void {
    const n = b.length;
    let i = 0;
    while (i < n) {
      if (this.phase === IN_LIST) {
        i = this.scanList(b, rows, i);
        continue;
      }
      const c = b[i];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) {
          this.inString = false;
          if (this.phase === IN_KEY) {
            this.key = this.parseToken(b, i + 1) as string;
            this.phase = COLON;
          }
        }
        i++;
        continue;
      }
      switch (this.phase) {
        case START:
          if (this.bomBytes === this.offset + i && this.bomBytes < BOM.length && c === BOM[this.bomBytes]) {
            this.bomBytes++;
            i++;
          } else if (this.bomBytes > 0 && this.bomBytes < BOM.length) {
            this.fallBack([Buffer.from(BOM.slice(0, this.bomBytes)), b.subarray(i)]);
            return;
          } else if (isSpace(c)) i++;
          else if (c === OPEN_OBJECT) {
            this.depth = 1;
            this.phase = KEY_OR_END;
            i++;
          } else {
            this.fallBack([b.subarray(i)]);
            return;
          }
          break;
        case KEY_OR_END:
        case KEY_NEXT:
          if (isSpace(c)) i++;
          else if (c === QUOTE) {
            this.tokenStart = i;
            this.inString = true;
            this.phase = IN_KEY;
            i++;
          } else if (c === CLOSE_OBJECT && this.phase === KEY_OR_END) {
            this.phase = DONE;
            i++;
          } else throw new PageBodyError('not-json');
          break;
        case COLON:
          if (isSpace(c)) i++;
          else if (c === COLON_BYTE) {
            this.phase = VALUE_START;
            i++;
          } else throw new PageBodyError('not-json');
          break;
        case VALUE_START:
          if (isSpace(c)) i++;
          else if (c === OPEN_LIST && this.key === 'value' && !this.sawList) {
            this.sawList = true;
            this.phase = IN_LIST;
            this.depth = 2;
            this.tokenStart = i + 1;
            i++;
          } else {
            this.phase = IN_VALUE;
            this.tokenStart = i;
          }
          break;
        case IN_VALUE:
          if (c === QUOTE) this.inString = true;
          else if (c === OPEN_OBJECT || c === OPEN_LIST) this.depth++;
          else if ((c === CLOSE_OBJECT || c === CLOSE_LIST) && this.depth > 1) this.depth--;
          else if (this.depth === 1 && (c === COMMA || c === CLOSE_OBJECT)) {
            this.members[this.key] = this.parseToken(b, i);
            this.phase = c === COMMA ? KEY_NEXT : DONE;
          } else if (c === CLOSE_LIST) throw new PageBodyError('not-json');
          i++;
          break;
        case AFTER_VALUE:
          if (isSpace(c)) i++;
          else if (c === COMMA || c === CLOSE_OBJECT) {
            this.phase = c === COMMA ? KEY_NEXT : DONE;
            i++;
          } else throw new PageBodyError('not-json');
          break;
        default:
          // DONE: only white space may follow the object.
          if (!isSpace(c)) throw new PageBodyError('not-json');
          i++;
      }
    }
  }

  /** The hot loop: the list's bytes up to its end or the chunk's; each row is parsed as soon as it ends. */
  private scanList(b: Buffer, rows: Row[], from: number): number {
    const n = b.length;
    let depth = this.depth;
    let inString = this.inString;
    let escaped = this.escaped;
    for (let i = from; i < n; i++) {
      const c = b[i];
      if (inString) {
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
        else if (c === QUOTE) inString = false;
      } else if (c === QUOTE) inString = true;
      else if (c === OPEN_OBJECT || c === OPEN_LIST) depth++;
      else if (c === COMMA) {
        if (depth === 2) {
          rows.push(this.parseToken(b, i) as Row);
          this.listRows++;
          this.tokenStart = i + 1;
        }
      } else if (c === CLOSE_OBJECT || c === CLOSE_LIST) {
        if (depth > 2) depth--;
        else if (c === CLOSE_OBJECT) throw new PageBodyError('not-json');
        else {
          // `[]` has no row; `[…,]` (an empty last row) is not JSON, which parsing it says.
          if (this.listRows > 0 || !this.tokenIsBlank(b, i)) {
            rows.push(this.parseToken(b, i) as Row);
            this.listRows++;
          } else this.dropToken();
          this.depth = 1;
          this.inString = false;
          this.escaped = false;
          this.phase = AFTER_VALUE;
          return i + 1;
        }
      }
    }
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    return n;
  }

  private fallBack(parts: Buffer[]): void {
    this.whole = parts;
    this.dropToken();
  }

  /** The token's text up to `end` of chunk `b`, parsed as JSON; the token is then closed. */
  private parseToken(b: Buffer, end: number): unknown {
    const text =
      this.carried.length === 0
        ? b.toString('utf8', this.tokenStart, end)
        : Buffer.concat([...this.carried, b.subarray(0, end)]).toString('utf8');
    this.dropToken();
    try {
      return JSON.parse(text);
    } catch {
      throw new PageBodyError('not-json');
    }
  }

  private tokenIsBlank(b: Buffer, end: number): boolean {
    for (const part of this.carried) for (const c of part) if (!isSpace(c)) return false;
    for (let k = Math.max(0, this.tokenStart); k < end; k++) if (!isSpace(b[k])) return false;
    return true;
  }

  private dropToken(): void {
    this.tokenStart = -1;
    if (this.carried.length) this.carried = [];
  }
}
