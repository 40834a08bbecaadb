// Reads an OData page body (`{"value": [rows…], "@odata.nextLink": "…"}`) as its bytes arrive. The rows of
// the "value" list come out in batches as soon as they are complete, so an export holds neither a page's
// whole text (3 MB for 10,000 Records rows) nor the objects of all its rows, let alone both while the CSV
// of the page is built: that was most of an export's peak memory, whatever its size. Every other member
// of the page is small and is parsed once it ends.
//
// The list is read the quick way: everything up to the last `}` followed by `,` in the next piece of bytes
// is parsed as one list by JSON.parse. Such a cut can fall inside a row (a string holding "},"), but then
// what comes before it is not a list of whole values and JSON.parse refuses it: the text before a cut
// inside a string ends in that string, and before a cut inside a row the row's first bracket is not yet
// closed. Only then, and for what surrounds the list, are the bytes read one by one (strings, nesting,
// separators). Delimiters are ASCII, and UTF-8 never uses an ASCII byte inside a multi-byte character,
// so bytes can be cut at a delimiter and decoded.

import {
  BACKSLASH,
  BOM,
  CLOSE_LIST,
  CLOSE_OBJECT,
  COLON_BYTE,
  COMMA,
  isSpace,
  lastRowEnd,
  OPEN_LIST,
  OPEN_OBJECT,
  QUOTE,
  PageBodyError,
} from './pageBodyBytes';

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

// Rows are parsed as a list whose brackets are added as bytes: in a string, `[` + rows + `]` would be
// copied once more when JSON.parse flattens it.
const LIST_OPEN = Buffer.from('[');
const LIST_CLOSE = Buffer.from(']');
/**
 * Bytes of the list read at once the quick way (~50 rows; a socket read is up to 64 KiB, and a whole body
 * may come as one chunk). What is alive while they are parsed and written, their text and rows, is what
 * young collections find alive, and V8 grows the young generation by that: 64 KiB pieces made it grow
 * twice as soon, with twice the old-space promotions, and no less CPU.
 */
const PIECE_BYTES = 16 * 1024;
/** Rows read at once byte by byte. */
const EXACT_ROWS = 256;

type Row = Record<string, unknown>;

export class PageBodyParser {
  private phase = START;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Bytes of the body before the chunk being read (a byte-order mark is only at its very start). */
  private offset = 0;
  private bomBytes = 0;
  /** The chunk being read, and where. */
  private chunk: Buffer | undefined;
  private at = 0;
  /**
   * Reading the list byte by byte (the quick way's cut was not a row's end, or a row outgrew two pieces),
   * until the end of a chunk in which a row ended: a row that spans chunks is read on where it stopped, as
   * re-reading it from its start at each chunk would cost its length squared.
   */
  private exact = false;
  private rowEnded = false;
  /**
   * The token being read (a key, a member's value, the list's next rows) starts at `tokenStart` of the
   * chunk, after its bytes in earlier chunks, `carried` (copies: a chunk itself is not kept).
   */
  private tokenStart = -1;
  private carried: Buffer[] = [];
  private carriedBytes = 0;
  private key = '';
  private listRows = 0;
  private sawList = false;
  private readonly members: Row = {};
  /** The rows the last scan completed. */
  private out: Row[] = [];
  /** A body that is not an object is kept whole, to be judged as a whole as before (it is an error anyway). */
  private whole: Buffer[] | undefined;

  /** Takes the next bytes of the body, whose rows `take` then gives; the previous chunk must be used up. */
  push(chunk: Uint8Array): void {
    const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.whole) this.whole.push(b);
    else {
      if (this.tokenStart >= 0 || this.carried.length > 0) this.tokenStart = 0;
      this.chunk = b;
      this.at = 0;
      this.rowEnded = false;
    }
  }

  /** The next rows the pushed bytes complete (a few hundred at most); none once the chunk is used up. */
  take(): Row[] {
    for (let b = this.chunk; b; b = this.chunk) {
      let rows: Row[] | undefined;
      if (this.phase === IN_LIST && !this.exact) rows = this.quickRows(b);
      else {
        this.at = this.scan(b, this.at, EXACT_ROWS);
        rows = this.out;
        this.out = [];
      }
      if (this.chunk === b && this.at >= b.length) this.finishChunk(b);
      if (rows && rows.length > 0) return rows;
    }
    return [];
  }

  /** After the last byte: the rows still held (the list's last), and the page's other members. */
  end(): { rows: Row[]; members: Row } {
    if (this.whole) {
      let body: unknown;
      try {
        body = JSON.parse(new TextDecoder().decode(Buffer.concat(this.whole)));
      } catch {
        body = undefined;
      }
      throw new PageBodyError(body && typeof body === 'object' ? 'no-value' : 'not-json');
    }
    if (this.phase === IN_LIST) {
      // No row end was found after the last rows: they, the list's end and the members after it were kept.
      // After rows they follow a separator, which the `null` stands for: `[…,]` is still refused.
      const tail = Buffer.concat(this.carried).toString('utf8');
      let rest: Row;
      try {
        rest = JSON.parse(`{"value":[${this.listRows > 0 ? 'null,' : ''}${tail}`) as Row;
      } catch {
        throw new PageBodyError('not-json');
      }
      const { value, ...after } = rest;
      if (!Array.isArray(value)) throw new PageBodyError('no-value');
      return { rows: (this.listRows > 0 ? value.slice(1) : value) as Row[], members: { ...this.members, ...after } };
    }
    if (this.phase !== DONE) throw new PageBodyError('not-json');
    if (!this.sawList) throw new PageBodyError('no-value');
    return { rows: [], members: this.members };
  }

  /**
   * The quick way: the rows up to the last row end in the next piece, parsed at once. Undefined when the
   * piece has no row end (it is kept for the next) or the cut was not one (the chunk is then read exactly).
   */
  private quickRows(b: Buffer): Row[] | undefined {
    const to = Math.min(b.length, this.at + PIECE_BYTES);
    const cut = lastRowEnd(b, this.tokenStart, to);
    if (cut < 0) {
      // A row longer than two pieces (or sent in tiny chunks) is read exactly: the quick way would keep
      // parsing it again from its start.
      if (this.carriedBytes + to - this.tokenStart > 2 * PIECE_BYTES) return this.readExactly(b);
      this.carried.push(Buffer.from(b.subarray(this.tokenStart, to)));
      this.carriedBytes += to - this.tokenStart;
      this.tokenStart = to;
      this.at = to;
      return undefined;
    }
    let rows: unknown;
    try {
      rows = JSON.parse(
        Buffer.concat([LIST_OPEN, ...this.carried, b.subarray(this.tokenStart, cut), LIST_CLOSE]).toString(),
      );
    } catch {
      rows = undefined;
    }
    if (!Array.isArray(rows)) return this.readExactly(b);
    this.dropToken();
    this.tokenStart = cut + 1;
    this.at = cut + 1;
    this.listRows += rows.length;
    return rows as Row[];
  }

  /** From the last row end on, which the quick way always starts at, with the bytes of the token. */
  private readExactly(b: Buffer): undefined {
    this.chunk = Buffer.concat([...this.carried, b.subarray(this.tokenStart)]);
    this.dropToken();
    this.tokenStart = this.at = 0;
    this.depth = 2;
    this.inString = this.escaped = false;
    this.exact = true;
    this.rowEnded = false;
    return undefined;
  }

  /** Keeps the bytes of a token the chunk did not finish. */
  private finishChunk(b: Buffer): void {
    if (this.tokenStart >= 0 && this.tokenStart < b.length) {
      this.carried.push(Buffer.from(b.subarray(this.tokenStart)));
      this.carriedBytes += b.length - this.tokenStart;
    }
    this.offset += b.length;
    this.chunk = undefined;
    if (this.rowEnded || this.phase !== IN_LIST) this.exact = false;
  }

  /** Reads `b` from `from` until its end or `limit` rows; returns where it stopped. */
  private scan(b: Buffer, from: number, limit: number): number {
    const n = b.length;
    let i = from;
    while (i < n) {
      if (this.phase === IN_LIST) {
        if (!this.exact) return i;
        i = this.scanList(b, i, limit);
        if (this.out.length > 0) return i;
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
          } else if (this.bomBytes > 0 && this.bomBytes < BOM.length) throw new PageBodyError('not-json');
          else if (isSpace(c)) i++;
          else if (c === OPEN_OBJECT) {
            this.depth = 1;
            this.phase = KEY_OR_END;
            i++;
          } else {
            this.whole = [Buffer.from(BOM.slice(0, this.bomBytes)), b.subarray(i)]; // decoded as a whole, as before
            this.dropToken();
            return n;
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
            // The list is read the quick way from here.
            return i + 1;
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
    return n;
  }

  /**
   * The hot loop: the list's bytes up to its end, the chunk's, or the `limit`-th row. It only finds where
   * rows end; the rows found are then parsed as one list, which is quicker than one parse per row.
   */
  private scanList(b: Buffer, from: number, limit: number): number {
    const n = b.length;
    let depth = this.depth;
    let inString = this.inString;
    let escaped = this.escaped;
    let commas = 0;
    let lastComma = -1;
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
          commas++;
          lastComma = i;
          if (commas >= limit) {
            this.rowsUpTo(b, i, commas);
            this.depth = depth;
            this.inString = this.escaped = false;
            return i + 1;
          }
        }
      } else if (c === CLOSE_OBJECT || c === CLOSE_LIST) {
        if (depth > 2) depth--;
        else if (c === CLOSE_OBJECT) throw new PageBodyError('not-json');
        else {
          // `[]` has no row; in `[…,]` the empty last row is not JSON, which parsing the rows says.
          if (commas > 0 || this.listRows > 0 || !this.tokenIsBlank(b, i)) this.rowsUpTo(b, i, commas + 1);
          this.dropToken();
          this.depth = 1;
          this.inString = this.escaped = false;
          this.phase = AFTER_VALUE;
          return i + 1;
        }
      }
    }
    // Every row before the chunk's last separator is complete; the next is carried to the next chunk.
    if (lastComma >= 0) this.rowsUpTo(b, lastComma, commas);
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    return n;
  }

  /** Parses the token's rows, up to `end` of chunk `b`, into `out`; there must be `count` of them. */
  private rowsUpTo(b: Buffer, end: number, count: number): void {
    const rows = this.parseToken(b, end, true);
    this.tokenStart = end + 1;
    // `[,` parses as no row where the separator says there is one.
    if (!Array.isArray(rows) || rows.length !== count) throw new PageBodyError('not-json');
    this.out = rows as Row[];
    this.listRows += count;
    this.rowEnded = true;
  }

  /** The token's text up to `end` of chunk `b` (in brackets: its rows), parsed; the token is then closed. */
  private parseToken(b: Buffer, end: number, rows = false): unknown {
    const text = this.tokenText(b, end);
    this.dropToken();
    try {
      return JSON.parse(rows ? `[${text}]` : text);
    } catch {
      throw new PageBodyError('not-json');
    }
  }

  /** The token's text up to `end` of chunk `b`. */
  private tokenText(b: Buffer, end: number): string {
    return this.carried.length === 0
      ? b.toString('utf8', this.tokenStart, end)
      : Buffer.concat([...this.carried, b.subarray(this.tokenStart, end)]).toString('utf8');
  }

  private tokenIsBlank(b: Buffer, end: number): boolean {
    for (const part of this.carried) for (const c of part) if (!isSpace(c)) return false;
    for (let k = Math.max(0, this.tokenStart); k < end; k++) if (!isSpace(b[k])) return false;
    return true;
  }

  private dropToken(): void {
    this.tokenStart = -1;
    if (this.carried.length) this.carried = [];
    this.carriedBytes = 0;
  }
}
