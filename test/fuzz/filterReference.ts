// The emulator's $filter parser as it was before it read tokens in place (commit ce6e313), kept as the
// reference the differential fuzz test compares the current one with: the same tree or the same error for
// every input. One change: an operator word is looked up among OPS's own keys, so `Id constructor 1` is an
// unknown operator here too (the old lookup found Object.prototype.constructor and accepted it).
import { FilterError, MAX_NESTING, type Expr, type Lit } from '../../src/sandbox/waterData/filter';

const isDigit = (k: number): boolean => k >= 48 && k <= 57;
/** A letter or `_`: what a field name starts with (later characters may also be digits and `.`). */
const isWordStart = (k: number): boolean => (k >= 65 && k <= 90) || (k >= 97 && k <= 122) || k === 95;

const OPS: Record<string, 'eq' | 'ne' | 'lt' | 'gt' | 'lte' | 'gte'> = {
  eq: 'eq',
  ne: 'ne',
  lt: 'lt',
  gt: 'gt',
  lte: 'lte',
  gte: 'gte',
  le: 'lte',
  ge: 'gte',
};

interface Tok {
  t: 'id' | 'str' | 'num' | '(' | ')' | ',' | 'end';
  v: string;
  at: number;
}

/**
 * Reads one token per call, as the parser asks: a long filter never holds all its tokens at once, so the
 * live heap is only the tree (a token list makes every collection slower as the input grows: superlinear).
 */
function lexer(s: string): () => Tok {
  let i = 0;
  return () => {
    while (i < s.length) {
      const c = s.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
    if (i >= s.length) return { t: 'end', v: '', at: s.length };
    const c = s[i];
    if (c === '(' || c === ')' || c === ',') return { t: c, v: c, at: i++ };
    if (c === "'") {
      const at = i;
      const pieces: string[] = [];
      let from = i + 1;
      for (;;) {
        const q = s.indexOf("'", from);
        if (q < 0) throw new FilterError(`unterminated string at position ${at}`);
        pieces.push(s.slice(from, q));
        if (s[q + 1] !== "'") {
          i = q + 1;
          return { t: 'str', v: pieces.length === 1 ? pieces[0] : pieces.join("'"), at };
        }
        from = q + 2;
      }
    }
    // Read in place, without a regular expression: a match array per token was most of what a long filter
    // allocated, and that garbage, collected while the tree grows, made the parse superlinear.
    const at = i;
    const k = s.charCodeAt(i);
    if (isDigit(k) || (k === 45 /* - */ && isDigit(s.charCodeAt(i + 1)))) {
      i++;
      while (isDigit(s.charCodeAt(i))) i++;
      if (s.charCodeAt(i) === 46 /* . */ && isDigit(s.charCodeAt(i + 1))) {
        i += 2;
        while (isDigit(s.charCodeAt(i))) i++;
      }
      return { t: 'num', v: s.slice(at, i), at };
    }
    if (!isWordStart(k)) throw new FilterError(`unexpected character '${c}' at position ${i}`);
    i++;
    while (isWordStart(s.charCodeAt(i)) || isDigit(s.charCodeAt(i)) || s.charCodeAt(i) === 46) i++;
    return { t: 'id', v: s.slice(at, i), at };
  };
}

export function referenceParseExpr(s: string): Expr {
  const read = lexer(s);
  /** The one token of lookahead the grammar needs. */
  let ahead = read();
  let depth = 0;
  const peek = () => ahead;
  const take = () => {
    const k = ahead;
    if (k.t !== 'end') ahead = read();
    return k;
  };
  const expect = (t: Tok['t'], what: string) => {
    const k = take();
    if (k.t !== t) throw new FilterError(`expected ${what} at position ${k.at}`);
    return k;
  };
  const word = (k: Tok, w: string) => k.t === 'id' && k.v.toLowerCase() === w;

  const literal = (): { value: Lit; quoted: boolean } => {
    const k = take();
    if (k.t === 'str') return { value: k.v, quoted: true };
    if (k.t === 'num') return { value: Number(k.v), quoted: false };
    if (word(k, 'true') || word(k, 'false')) return { value: k.v.toLowerCase() === 'true', quoted: false };
    if (word(k, 'null')) return { value: null, quoted: false };
    throw new FilterError(`expected a value at position ${k.at}`);
  };

  const primary = (): Expr => {
    const k = take();
    if (k.t === '(') {
      if (++depth > MAX_NESTING)
        throw new FilterError(`parentheses nest deeper than ${MAX_NESTING} levels at position ${k.at}`);
      const e = or();
      expect(')', '")"');
      depth--;
      return e;
    }
    if (k.t !== 'id') throw new FilterError(`expected a field at position ${k.at}`);
    if (peek().t === '(') {
      if (k.v.toLowerCase() !== 'endswith') throw new FilterError(`unsupported function ${k.v}`);
      take();
      const f = expect('id', 'a field');
      expect(',', '","');
      const arg = literal();
      expect(')', '")"');
      if (typeof arg.value !== 'string') throw new FilterError('endswith needs a quoted text');
      return { kind: 'endswith', field: f.v, suffix: arg.value };
    }
    const opTok = take();
    const opWord = opTok.v.toLowerCase();
    if (opTok.t === 'id' && opWord === 'in') {
      expect('(', '"("');
      const values: Lit[] = [literal().value];
      while (peek().t === ',') {
        take();
        values.push(literal().value);
      }
      expect(')', '")"');
      return { kind: 'in', field: k.v, values };
    }
    const op = opTok.t === 'id' && Object.hasOwn(OPS, opWord) ? OPS[opWord] : undefined;
    if (!op) throw new FilterError(`unknown operator '${opTok.v}' at position ${opTok.at}`);
    const lit = literal();
    return { kind: 'cmp', field: k.v, op, value: lit.value, quoted: lit.quoted };
  };

  const and = (): Expr => {
    const first = primary();
    if (!word(peek(), 'and')) return first;
    const items = [first];
    while (word(peek(), 'and')) {
      take();
      items.push(primary());
    }
    return { kind: 'and', items };
  };
  const or = (): Expr => {
    const first = and();
    if (!word(peek(), 'or')) return first;
    const items = [first];
    while (word(peek(), 'or')) {
      take();
      items.push(and());
    }
    return { kind: 'or', items };
  };

  if (peek().t === 'end') throw new FilterError('empty $filter');
  const e = or();
  if (peek().t !== 'end') throw new FilterError(`unexpected '${peek().v}' at position ${peek().at}`);
  return e;
}
