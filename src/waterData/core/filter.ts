// The `$filter` dialect of the water-quality API: comparisons (eq ne lt gt lte gte, plus OData's ge/le),
// `in (…)` lists, endswith(Field, 'text'), and/or, parentheses. Positions are offsets into the filter text.
import { WATER_OPERATOR_ALIASES } from '../../shared/wire/waterData';
import { ownValue } from '../../shared/wire/ownKeys';

export interface Span {
  start: number;
  end: number;
}

export type Literal =
  | ({ kind: 'string'; value: string } & Span)
  | ({ kind: 'number'; value: number; raw: string } & Span)
  | ({ kind: 'bool'; value: boolean } & Span)
  | ({ kind: 'null' } & Span);

export interface Ident extends Span {
  name: string;
}

export type FilterNode =
  | ({ kind: 'and' | 'or'; left: FilterNode; right: FilterNode } & Span)
  | ({ kind: 'group'; inner: FilterNode } & Span)
  | ({ kind: 'compare'; field: Ident; op: string; opSpan: Span; value: Literal } & Span)
  | ({ kind: 'in'; field: Ident; opSpan: Span; values: Literal[] } & Span)
  | ({ kind: 'call'; fn: Ident; field: Ident; arg: Literal } & Span);

export interface FilterProblem extends Span {
  message: string;
}

export class FilterSyntaxError extends Error {
  constructor(readonly problem: FilterProblem) {
    super(problem.message);
  }
}

type Token =
  | ({ t: 'ident'; text: string } & Span)
  | ({ t: 'string'; value: string } & Span)
  | ({ t: 'number'; raw: string } & Span)
  | ({ t: 'date'; raw: string } & Span)
  | ({ t: '(' | ')' | ',' } & Span)
  | ({ t: 'eof' } & Span);

export const COMPARISON_OPERATORS = ['eq', 'ne', 'lt', 'gt', 'lte', 'gte'];
const FUNCTIONS = ['endswith'];
const RETIRED_FUNCTIONS: Record<string, string> = {
  contains: 'contains() is not offered by the service (listed in 2021, withdrawn); use eq or in',
  startswith: 'startswith() is not offered by the service (listed in 2021, withdrawn); use eq or in',
  startwith: 'startswith() is not offered by the service (listed in 2021, withdrawn); use eq or in',
  substringof: 'substringof() is not offered by the service; use eq, in or endswith',
};

const DATE = /\d{4}-\d{2}-\d{2}(T[0-9:.]+Z?)?/y;
const NUMBER = /-?\d+(\.\d+)?([eE][+-]?\d+)?/y;
const IDENT = /[A-Za-z_][A-Za-z0-9_.]*/y;

/**
 * Parentheses may nest this deep. The parser recurses once per level, so unbounded nesting would
 * overflow the stack; no real filter comes near it. Chains of and/or are loops, not recursion, and
 * have no limit.
 */
export const MAX_FILTER_NESTING = 100;

/**
 * Reads one token at a time, as the parser asks for it: a 1 MB filter never holds all its tokens at once,
 * so the garbage collector has only the tree to keep (a token list grows the live heap with the input and
 * makes every collection slower, which made parsing superlinear).
 */
class Lexer {
  private i = 0;
  constructor(private readonly text: string) {}

  next(): Token {
    const text = this.text;
    let i = this.i;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13 || ((c === 11 || c === 12 || c > 127) && /\s/.test(text[i]))) i++;
      else break;
    }
    this.i = i;
    if (i >= text.length) return { t: 'eof', start: text.length, end: text.length };
    const c = text[i];
    if (c === '(' || c === ')' || c === ',') {
      this.i = i + 1;
      return { t: c, start: i, end: i + 1 };
    }
    if (c === "'") return this.quoted(i);
    if (c === '"') {
      throw new FilterSyntaxError({ start: i, end: i + 1, message: "Use single quotes for values: 'text'" });
    }
    // Sticky expressions match at i without copying the rest of the text (slicing per token is quadratic).
    DATE.lastIndex = i;
    const date = DATE.exec(text);
    if (date) return this.take({ t: 'date', raw: date[0], start: i, end: i + date[0].length });
    NUMBER.lastIndex = i;
    const num = NUMBER.exec(text);
    if (num) return this.take({ t: 'number', raw: num[0], start: i, end: i + num[0].length });
    IDENT.lastIndex = i;
    const ident = IDENT.exec(text);
    if (ident) return this.take({ t: 'ident', text: ident[0], start: i, end: i + ident[0].length });
    throw new FilterSyntaxError({ start: i, end: i + 1, message: `Unexpected character '${c}'` });
  }

  private take(tok: Token): Token {
    this.i = tok.end;
    return tok;
  }

  /** A quoted value from `start`; runs between doubled quotes are sliced, not built a character at a time. */
  private quoted(start: number): Token {
    const text = this.text;
    const pieces: string[] = [];
    let from = start + 1;
    for (;;) {
      const q = text.indexOf("'", from);
      if (q < 0)
        throw new FilterSyntaxError({
          start,
          end: text.length,
          message: "Unterminated string: close it with a single quote (write a quote inside a value as two quotes, '')",
        });
      pieces.push(text.slice(from, q));
      if (text[q + 1] !== "'") {
        this.i = q + 1;
        return { t: 'string', value: pieces.length === 1 ? pieces[0] : pieces.join("'"), start, end: q + 1 };
      }
      from = q + 2;
    }
  }
}

class Parser {
  private depth = 0;
  /** The one token of lookahead the grammar needs. */
  private ahead: Token;
  constructor(private readonly lexer: Lexer) {
    this.ahead = lexer.next();
  }

  private peek(): Token {
    return this.ahead;
  }
  private next(): Token {
    const tok = this.ahead;
    // Nothing follows the end; reading past it again would only repeat it.
    if (tok.t !== 'eof') this.ahead = this.lexer.next();
    return tok;
  }
  private fail(tok: Token, message: string): never {
    throw new FilterSyntaxError({ start: tok.start, end: Math.max(tok.end, tok.start + 1), message });
  }
  private isWord(tok: Token, word: string): boolean {
    return tok.t === 'ident' && tok.text.toLowerCase() === word;
  }

  parse(): FilterNode {
    if (this.peek().t === 'eof')
      this.fail(this.peek(), "Empty $filter: write a condition such as RegionId eq 'hub.atlantic'");
    const node = this.parseOr();
    const tok = this.peek();
    if (tok.t !== 'eof') {
      if (tok.t === ')') this.fail(tok, 'Unbalanced ")": no "(" opens it');
      this.fail(tok, `Expected "and" or "or" before ${describe(tok)}`);
    }
    return node;
  }

  private parseOr(): FilterNode {
    let left = this.parseAnd();
    while (this.isWord(this.peek(), 'or')) {
      this.next();
      const right = this.parseAnd();
      left = { kind: 'or', left, right, start: left.start, end: right.end };
    }
    return left;
  }

  private parseAnd(): FilterNode {
    let left = this.parsePrimary();
    while (this.isWord(this.peek(), 'and')) {
      this.next();
      const right = this.parsePrimary();
      left = { kind: 'and', left, right, start: left.start, end: right.end };
    }
    return left;
  }

  private parsePrimary(): FilterNode {
    const tok = this.next();
    if (tok.t === '(') {
      if (++this.depth > MAX_FILTER_NESTING)
        this.fail(tok, `Parentheses nest deeper than ${MAX_FILTER_NESTING} levels: simplify the filter`);
      const inner = this.parseOr();
      this.depth--;
      const close = this.next();
      if (close.t !== ')') this.fail(close, `Expected ")" to close the "(" at column ${tok.start + 1}`);
      return { kind: 'group', inner, start: tok.start, end: close.end };
    }
    if (tok.t !== 'ident') this.fail(tok, `Expected a field name, found ${describe(tok)}`);
    const lower = tok.text.toLowerCase();
    if (lower === 'not')
      this.fail(tok, '"not" is not supported by the service: use ne, or list the values you want with in');
    if (this.peek().t === '(') {
      const retired = ownValue(RETIRED_FUNCTIONS, lower);
      if (retired) this.fail(tok, retired);
      if (!FUNCTIONS.includes(lower))
        this.fail(tok, `Unknown function ${tok.text}(): the service offers only endswith(Field, 'text')`);
      this.next();
      const field = this.next();
      if (field.t !== 'ident') this.fail(field, 'Expected a field name as the first argument of endswith');
      const comma = this.next();
      if (comma.t !== ',') this.fail(comma, 'Expected "," between the arguments of endswith');
      const arg = this.parseLiteral();
      const close = this.next();
      if (close.t !== ')') this.fail(close, 'Expected ")" to close endswith(');
      return {
        kind: 'call',
        fn: { name: lower, start: tok.start, end: tok.end },
        field: { name: field.text, start: field.start, end: field.end },
        arg,
        start: tok.start,
        end: close.end,
      };
    }
    const field: Ident = { name: tok.text, start: tok.start, end: tok.end };
    const opTok = this.next();
    if (opTok.t !== 'ident') this.fail(opTok, `Expected an operator (eq, ne, lt, gt, lte, gte, in) after ${tok.text}`);
    const opWord = opTok.text.toLowerCase();
    const opSpan = { start: opTok.start, end: opTok.end };
    if (opWord === 'in') {
      const open = this.next();
      if (open.t !== '(') this.fail(open, "Expected \"(\" after in: in ('a', 'b')");
      const values: Literal[] = [];
      if (this.peek().t === ')') this.fail(this.peek(), 'An in list needs at least one value');
      for (;;) {
        values.push(this.parseLiteral());
        const sep = this.next();
        if (sep.t === ')') return { kind: 'in', field, opSpan, values, start: field.start, end: sep.end };
        if (sep.t !== ',') this.fail(sep, 'Expected "," or ")" in the in list');
      }
    }
    const op = ownValue(WATER_OPERATOR_ALIASES, opWord) ?? opWord;
    if (!COMPARISON_OPERATORS.includes(op)) {
      this.fail(opTok, `Unknown operator "${opTok.text}": use eq, ne, lt, gt, lte, gte or in`);
    }
    const value = this.parseLiteral();
    return { kind: 'compare', field, op, opSpan, value, start: field.start, end: value.end };
  }

  private parseLiteral(): Literal {
    const tok = this.next();
    switch (tok.t) {
      case 'string':
        return { kind: 'string', value: tok.value, start: tok.start, end: tok.end };
      case 'number':
        return { kind: 'number', value: Number(tok.raw), raw: tok.raw, start: tok.start, end: tok.end };
      case 'date':
        return this.fail(tok, `Quote dates: '${tok.raw}'`);
      case 'ident': {
        const w = tok.text.toLowerCase();
        if (w === 'true' || w === 'false') return { kind: 'bool', value: w === 'true', start: tok.start, end: tok.end };
        if (w === 'null') return { kind: 'null', start: tok.start, end: tok.end };
        return this.fail(tok, `Quote text values: '${tok.text}'`);
      }
      default:
        return this.fail(tok, `Expected a value, found ${describe(tok)}`);
    }
  }
}

function describe(tok: Token): string {
  switch (tok.t) {
    case 'eof':
      return 'the end of the filter';
    case 'ident':
      return `"${tok.text}"`;
    case 'string':
      return `the text '${tok.value}'`;
    case 'number':
    case 'date':
      return tok.raw;
    default:
      return `"${tok.t}"`;
  }
}

export function parseFilter(text: string): FilterNode {
  return new Parser(new Lexer(text)).parse();
}

export function quoteString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

function formatLiteral(l: Literal): string {
  switch (l.kind) {
    case 'string':
      return quoteString(l.value);
    case 'number':
      return l.raw;
    case 'bool':
      return String(l.value);
    case 'null':
      return 'null';
  }
}

/**
 * Canonical text of a filter: operator spellings normalised (ge → gte), quotes re-escaped, spacing uniform.
 * Iterative: a chain of thousands of and/or is a tree that deep, which recursion would overflow.
 */
export function formatFilter(root: FilterNode): string {
  const out: string[] = [];
  // A stack of nodes to print and literal text between them.
  const stack: (FilterNode | string)[] = [root];
  while (stack.length) {
    const item = stack.pop()!;
    if (typeof item === 'string') {
      out.push(item);
      continue;
    }
    switch (item.kind) {
      case 'and':
      case 'or':
        stack.push(item.right, ` ${item.kind} `, item.left);
        break;
      case 'group':
        stack.push(')', item.inner, '(');
        break;
      case 'compare':
        out.push(`${item.field.name} ${item.op} ${formatLiteral(item.value)}`);
        break;
      case 'in':
        out.push(`${item.field.name} in (${item.values.map(formatLiteral).join(', ')})`);
        break;
      case 'call':
        out.push(`${item.fn.name}(${item.field.name}, ${formatLiteral(item.arg)})`);
        break;
    }
  }
  return out.join('');
}

/** Every node, parents before children, left before right; iterative (linear whatever the tree's depth). */
export function* walkFilter(root: FilterNode): Generator<FilterNode> {
  const stack: FilterNode[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    yield node;
    if (node.kind === 'and' || node.kind === 'or') stack.push(node.right, node.left);
    else if (node.kind === 'group') stack.push(node.inner);
  }
}

/** Fields a filter names anywhere, e.g. to decide whether it already narrows by location. */
export function filterFields(node: FilterNode): Set<string> {
  const out = new Set<string>();
  for (const n of walkFilter(node))
    if (n.kind === 'compare' || n.kind === 'in' || n.kind === 'call') out.add(n.field.name);
  return out;
}
