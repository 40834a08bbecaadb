// The emulator's own reading of `$filter` — deliberately independent of the client's parser so the
// sandbox judges queries like the service would, not like our editor hopes it does.

export type Lit = string | number | boolean | null;

// and/or hold all their operands in one list, so a chain of thousands of conditions is one flat node
// (recursion over it stays as shallow as the parentheses, which are limited).
export type Expr =
  | { kind: 'and'; items: Expr[] }
  | { kind: 'or'; items: Expr[] }
  | { kind: 'cmp'; field: string; op: 'eq' | 'ne' | 'lt' | 'gt' | 'lte' | 'gte'; value: Lit; quoted: boolean }
  | { kind: 'in'; field: string; values: Lit[] }
  | { kind: 'endswith'; field: string; suffix: string };

export class FilterError extends Error {}

/** Parentheses may nest this deep; the parser recurses per level, so deeper input is refused. */
export const MAX_NESTING = 100;

const isDigit = (k: number): boolean => k >= 48 && k <= 57;
/** A letter or `_`: what a field name starts with (later characters may also be digits and `.`). */
const isWordStart = (k: number): boolean => (k >= 65 && k <= 90) || (k >= 97 && k <= 122) || k === 95;

// Token kinds (typed as numbers: a literal type would stay narrowed across the calls that move the lookahead).
const END: number = 0;
const ID: number = 1;
const STR: number = 2;
const NUM: number = 3;
const OPEN: number = 4;
const CLOSE: number = 5;
const COMMA: number = 6;

/** Comparison words (any case) and the operator each means. */
const OPS: readonly (readonly [string, 'eq' | 'ne' | 'lt' | 'gt' | 'lte' | 'gte'])[] = [
  ['eq', 'eq'],
  ['ne', 'ne'],
  ['lt', 'lt'],
  ['gt', 'gt'],
  ['lte', 'lte'],
  ['gte', 'gte'],
  ['le', 'lte'],
  ['ge', 'gte'],
];

/** Powers of ten that are exact doubles, written out (not computed, so exact whatever pow does). */
const POW10 = [
  1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
  1e21, 1e22,
];

/** Distinct field names kept for sharing (see Parser.name); a filter naming more just slices the rest. */
const MAX_NAMES = 32;

/**
 * Recursive descent with one token of lookahead, read in place: the current token is a kind and a range of
 * the text, and its text is only copied out when the tree keeps it (a field, a string, a number) or an error
 * quotes it. A long filter is mostly its tree; what the parse allocates besides is garbage that the young
 * generation collects while the tree grows, and every collection copies the tree built so far, so the
 * per-byte cost of a long filter rose with its length while each token allocated a token object, a match
 * or substring per keyword and a lower-cased copy per keyword test, and each list grew by doubling.
 * Now keywords are compared in place, lists are built on one scratch stack and copied out at their exact
 * size, and each distinct field name is one string however often it is named.
 */
class Parser {
  /** Scan position: just after the lookahead token. */
  private i = 0;
  private kind = END;
  /** The lookahead token's text range; a string's includes its quotes. */
  private at = 0;
  private end = 0;
  /** The lookahead string token holds a doubled quote. */
  private escaped = false;
  private depth = 0;
  private readonly exprs: Expr[] = [];
  private readonly lits: Lit[] = [];
  private readonly names: string[] = [];
  /** Whether the last literal() was a quoted string. */
  private quoted = false;

  constructor(private readonly s: string) {
    this.next();
  }

  parse(): Expr {
    if (this.kind === END) throw new FilterError('empty $filter');
    const e = this.chain(true);
    if (this.kind !== END) throw new FilterError(`unexpected '${this.text()}' at position ${this.at}`);
    return e;
  }

  /** Reads the next token into the lookahead. */
  private next(): void {
    const s = this.s;
    let i = this.i;
    while (i < s.length) {
      const c = s.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
    this.at = i;
    if (i >= s.length) {
      this.kind = END;
      this.i = this.end = s.length;
      return;
    }
    const k = s.charCodeAt(i);
    if (k === 40 /* ( */ || k === 41 /* ) */ || k === 44 /* , */) {
      this.kind = k === 40 ? OPEN : k === 41 ? CLOSE : COMMA;
      this.i = this.end = i + 1;
      return;
    }
    if (k === 39 /* ' */) {
      this.escaped = false;
      let from = i + 1;
      for (;;) {
        const q = s.indexOf("'", from);
        if (q < 0) throw new FilterError(`unterminated string at position ${i}`);
        if (s.charCodeAt(q + 1) !== 39) {
          this.kind = STR;
          this.i = this.end = q + 1;
          return;
        }
        this.escaped = true;
        from = q + 2;
      }
    }
    if (isDigit(k) || (k === 45 /* - */ && isDigit(s.charCodeAt(i + 1)))) {
      i++;
      while (isDigit(s.charCodeAt(i))) i++;
      if (s.charCodeAt(i) === 46 /* . */ && isDigit(s.charCodeAt(i + 1))) {
        i += 2;
        while (isDigit(s.charCodeAt(i))) i++;
      }
      this.kind = NUM;
      this.i = this.end = i;
      return;
    }
    if (!isWordStart(k)) throw new FilterError(`unexpected character '${s[i]}' at position ${i}`);
    i++;
    for (let c = s.charCodeAt(i); isWordStart(c) || isDigit(c) || c === 46; c = s.charCodeAt(++i));
    this.kind = ID;
    this.i = this.end = i;
  }

  /** Consumes the lookahead (the end stays the end). */
  private take(): void {
    if (this.kind !== END) this.next();
  }

  /** The lookahead's text as an error quotes it (a string's without quotes, unescaped). */
  private text(): string {
    const { s, kind, at, end } = this;
    if (kind === END) return '';
    if (kind === STR) return this.escaped ? s.slice(at + 1, end - 1).replaceAll("''", "'") : s.slice(at + 1, end - 1);
    return s.slice(at, end);
  }

  /** The lookahead is the word `w` (lower case) in any case. */
  private isWord(w: string): boolean {
    if (this.kind !== ID || this.end - this.at !== w.length) return false;
    for (let j = 0; j < w.length; j++) if ((this.s.charCodeAt(this.at + j) | 32) !== w.charCodeAt(j)) return false;
    return true;
  }

  /** The lookahead identifier as a field name: the same string for every mention of the same name. */
  private name(): string {
    const { s, at, end, names } = this;
    const len = end - at;
    for (const n of names) if (n.length === len && s.startsWith(n, at)) return n;
    const n = s.slice(at, end);
    if (names.length < MAX_NAMES) names.push(n);
    return n;
  }

  private expect(kind: number, what: string): void {
    const at = this.at;
    const found = this.kind;
    this.take();
    if (found !== kind) throw new FilterError(`expected ${what} at position ${at}`);
  }

  private literal(): Lit {
    const { kind, at } = this;
    let value: Lit;
    this.quoted = kind === STR;
    if (kind === STR || kind === NUM) value = kind === STR ? this.text() : this.number();
    else if (this.isWord('true') || this.isWord('false')) value = this.isWord('true');
    else if (this.isWord('null')) value = null;
    else {
      this.take();
      throw new FilterError(`expected a value at position ${at}`);
    }
    this.take();
    return value;
  }

  /** The lookahead number token's value, as Number() reads its text. */
  private number(): number {
    const { s, at, end } = this;
    const neg = s.charCodeAt(at) === 45;
    let m = 0;
    let digits = 0;
    let decimals = 0;
    for (let j = neg ? at + 1 : at; j < end; j++) {
      const c = s.charCodeAt(j);
      if (c === 46) decimals = end - j - 1;
      else {
        m = m * 10 + (c - 48);
        if (m !== 0) digits++;
      }
    }
    // Up to 15 significant digits and 22 decimals, m and the power of ten are exact doubles, so their
    // quotient is the correctly rounded value: what Number() gives. Longer numbers are left to Number().
    if (digits > 15 || decimals >= POW10.length) return Number(s.slice(at, end));
    const v = decimals === 0 ? m : m / POW10[decimals];
    return neg ? -v : v;
  }

  private primary(): Expr {
    const { kind, at } = this;
    if (kind === OPEN) {
      this.take();
      if (++this.depth > MAX_NESTING)
        throw new FilterError(`parentheses nest deeper than ${MAX_NESTING} levels at position ${at}`);
      const e = this.chain(true);
      this.expect(CLOSE, '")"');
      this.depth--;
      return e;
    }
    if (kind !== ID) {
      this.take();
      throw new FilterError(`expected a field at position ${at}`);
    }
    const isFunction = this.isWord('endswith');
    const field = this.name();
    this.take();
    if (this.kind === OPEN) {
      if (!isFunction) throw new FilterError(`unsupported function ${field}`);
      this.take();
      const isField = this.kind === ID;
      const f = isField ? this.name() : '';
      this.expect(ID, 'a field');
      this.expect(COMMA, '","');
      const arg = this.literal();
      this.expect(CLOSE, '")"');
      if (typeof arg !== 'string') throw new FilterError('endswith needs a quoted text');
      return { kind: 'endswith', field: f, suffix: arg };
    }
    if (this.isWord('in')) {
      this.take();
      this.expect(OPEN, '"("');
      const lits = this.lits;
      const base = lits.length;
      lits.push(this.literal());
      while (this.kind === COMMA) {
        this.take();
        lits.push(this.literal());
      }
      this.expect(CLOSE, '")"');
      const values = lits.slice(base);
      lits.length = base;
      return { kind: 'in', field, values };
    }
    let op: 'eq' | 'ne' | 'lt' | 'gt' | 'lte' | 'gte' | undefined;
    for (const [w, o] of OPS) if (this.isWord(w)) op = o;
    if (!op) {
      const opAt = this.at;
      const opText = this.text();
      this.take();
      throw new FilterError(`unknown operator '${opText}' at position ${opAt}`);
    }
    this.take();
    const value = this.literal();
    return { kind: 'cmp', field, op, value, quoted: this.quoted };
  }

  /** An and-chain of primaries, or an or-chain of and-chains: one node holding them all, or the single item. */
  private chain(or: boolean): Expr {
    const word = or ? 'or' : 'and';
    const first = or ? this.chain(false) : this.primary();
    if (!this.isWord(word)) return first;
    const exprs = this.exprs;
    const base = exprs.length;
    exprs.push(first);
    while (this.isWord(word)) {
      this.take();
      exprs.push(or ? this.chain(false) : this.primary());
    }
    const items = exprs.slice(base);
    exprs.length = base;
    return { kind: word, items };
  }
}

export function parseExpr(s: string): Expr {
  return new Parser(s).parse();
}

export function fieldsOf(e: Expr, out = new Set<string>()): Set<string> {
  if (e.kind === 'and' || e.kind === 'or') {
    for (const x of e.items) fieldsOf(x, out);
  } else {
    out.add(e.field);
  }
  return out;
}

/** Values of a field for the thing being tested; several values mean "matches if any does". */
export type Accessor = (field: string) => readonly (string | number | null)[];

const NUMERIC = new Set([
  'Id',
  'LocationId',
  'Latitude',
  'Longitude',
  'LatitudeNormalized',
  'LongitudeNormalized',
  'ActivityStartYear',
]);

export function isNumericField(field: string): boolean {
  return NUMERIC.has(field);
}

function compare(a: string | number | null, op: string, b: Lit, numeric: boolean): boolean {
  if (a === null || b === null) {
    if (op === 'eq') return a === b;
    if (op === 'ne') return a !== b;
    return false;
  }
  let x: string | number;
  let y: string | number | boolean;
  if (numeric) {
    x = Number(a);
    y = Number(b);
  } else {
    x = String(a);
    y = String(b);
  }
  switch (op) {
    case 'eq':
      return x === y;
    case 'ne':
      return x !== y;
    case 'lt':
      return x < y;
    case 'gt':
      return x > y;
    case 'lte':
      return x <= y;
    case 'gte':
      return x >= y;
    default:
      return false;
  }
}

export function evaluate(e: Expr, get: Accessor): boolean {
  switch (e.kind) {
    case 'and':
      return e.items.every((x) => evaluate(x, get));
    case 'or':
      return e.items.some((x) => evaluate(x, get));
    case 'cmp': {
      const numeric = NUMERIC.has(e.field) || (e.field === 'Id' && typeof e.value === 'number');
      return get(e.field).some((v) => compare(v, e.op, e.value, numeric && typeof v === 'number'));
    }
    case 'in': {
      const numeric = NUMERIC.has(e.field);
      return get(e.field).some((v) => e.values.some((w) => compare(v, 'eq', w, numeric && typeof v === 'number')));
    }
    case 'endswith':
      return get(e.field).some((v) => typeof v === 'string' && v.endsWith(e.suffix));
  }
}
