// The storage emulator's `q` parser as it was before its lexer read words and numbers in place (commit
// 2c65dbd), kept as the reference the differential fuzz test compares the current one with.
import { QuerySyntaxError, type QueryDialect, type QueryNode } from '../../src/sandbox/storage/query';

type Value = { kind: 'string'; value: string } | { kind: 'bool'; value: boolean } | { kind: 'number'; value: number };

interface Token {
  kind: 'str' | 'word' | 'op' | 'lparen' | 'rparen' | 'lbrace' | 'rbrace' | 'num' | 'end';
  text: string;
  pos: number;
}

// Sticky: they match at lastIndex without copying the rest of the query (a slice per token was quadratic).
const NUMBER = /-?\d+(\.\d+)?/y;
const WORD = /[A-Za-z_][A-Za-z0-9_.]*/y;

/** Where a match of the sticky `re` starting at `i` ends, or -1. */
function matchEnd(re: RegExp, q: string, i: number): number {
  re.lastIndex = i;
  return re.test(q) ? re.lastIndex : -1;
}

const BRACKETS = new Map<string, Token['kind']>([
  ['(', 'lparen'],
  [')', 'rparen'],
  ['{', 'lbrace'],
  ['}', 'rbrace'],
]);

/**
 * Reads one token per call, as the parser asks: a long query never holds all its tokens at once, so the live
 * heap is only the tree (a token list made every collection slower as the query grew: superlinear).
 */
function lexer(q: string): () => Token {
  let i = 0;
  return () => {
    while (i < q.length && /\s/.test(q[i])) i++;
    if (i >= q.length) return { kind: 'end', text: '', pos: q.length };
    const c = q[i];
    let end: number;
    if (c === "'" || c === '"') {
      const start = i++;
      // Runs between escapes are copied as slices: a character at a time made a rope node per character.
      const pieces: string[] = [];
      let from = i;
      while (i < q.length && q[i] !== c) {
        if (q[i] === '\\' && i + 1 < q.length) {
          pieces.push(q.slice(from, i), q[i + 1]);
          i += 2;
          from = i;
        } else i++;
      }
      if (i >= q.length) throw new QuerySyntaxError(`unterminated string starting at ${start}`);
      pieces.push(q.slice(from, i));
      i++;
      return { kind: 'str', text: pieces.length === 1 ? pieces[0] : pieces.join(''), pos: start };
    }
    const bracket = BRACKETS.get(c);
    if (bracket) return { kind: bracket, text: c, pos: i++ };
    if (c === '!' || c === '<' || c === '>' || c === '=') {
      const two = q.slice(i, i + 2);
      if (two === '!=' || two === '<=' || two === '>=') {
        i += 2;
        return { kind: 'op', text: two, pos: i - 2 };
      }
      if (c === '!') throw new QuerySyntaxError(`unexpected '!' at ${i}`);
      return { kind: 'op', text: c, pos: i++ };
    }
    for (const [kind, re] of [
      ['num', NUMBER],
      ['word', WORD],
    ] as const) {
      if ((end = matchEnd(re, q, i)) !== -1) {
        const pos = i;
        i = end;
        return { kind, text: q.slice(pos, end), pos };
      }
    }
    throw new QuerySyntaxError(`unexpected character '${c}' at ${i}`);
  };
}

/** Which operators each v2 term accepts, and what kind of value it compares with. */
const TERMS: Record<string, { ops: string[]; value: 'string' | 'bool' | 'date' | 'number' }> = {
  title: { ops: ['contains', '=', '!='], value: 'string' },
  fullText: { ops: ['contains'], value: 'string' },
  mimeType: { ops: ['contains', '=', '!='], value: 'string' },
  modifiedDate: { ops: ['<=', '<', '=', '!=', '>', '>='], value: 'date' },
  lastViewedByMeDate: { ops: ['<=', '<', '=', '!=', '>', '>='], value: 'date' },
  createdDate: { ops: ['<=', '<', '=', '!=', '>', '>='], value: 'date' },
  sharedWithMeDate: { ops: ['<=', '<', '=', '!=', '>', '>='], value: 'date' },
  trashed: { ops: ['=', '!='], value: 'bool' },
  starred: { ops: ['=', '!='], value: 'bool' },
  hidden: { ops: ['=', '!='], value: 'bool' },
  sharedWithMe: { ops: ['=', '!='], value: 'bool' },
  visibility: { ops: ['=', '!='], value: 'string' },
  'shortcutDetails.targetId': { ops: ['=', '!='], value: 'string' },
  // Shared-drive search terms (drives.list).
  name: { ops: ['contains', '=', '!='], value: 'string' },
  memberCount: { ops: ['<=', '<', '=', '!=', '>', '>='], value: 'number' },
  organizerCount: { ops: ['<=', '<', '=', '!=', '>', '>='], value: 'number' },
};
/** Search terms come from outside input: only the table's own entries count (not `constructor`). */
function termSpec(field: string): (typeof TERMS)[string] | undefined {
  return Object.prototype.hasOwnProperty.call(TERMS, field) ? TERMS[field] : undefined;
}
const IN_TERMS = new Set(['parents', 'owners', 'writers', 'readers']);
const CMP_OPS = new Set(['=', '!=', '<', '<=', '>', '>=', 'contains']);

const DRIVE_TERMS = new Set(['name', 'hidden', 'memberCount', 'organizerCount', 'createdDate']);

/** How deep parentheses and `not` may nest in one query. */
const MAX_QUERY_NESTING = 100;

export function referenceParseQuery(q: string, dialect: QueryDialect = 'files'): QueryNode {
  const read = lexer(q);
  /** The one token of lookahead the grammar needs. */
  let ahead = read();
  const peek = () => ahead;
  const next = () => {
    const t = ahead;
    if (t.kind === 'end') throw new QuerySyntaxError('unexpected end of query');
    ahead = read();
    return t;
  };
  // Parentheses and `not` are parsed (and evaluated) recursively: their depth is bounded, so a long run of
  // either is a clear 400 instead of a stack overflow.
  let depth = 0;
  const enter = () => {
    if (++depth > MAX_QUERY_NESTING)
      throw new QuerySyntaxError(`parentheses and 'not' nest deeper than ${MAX_QUERY_NESTING} levels`);
  };
  const isWord = (t: Token | undefined, w: string) => t?.kind === 'word' && t.text.toLowerCase() === w;
  const termAllowed = (field: string) =>
    dialect === 'drives'
      ? DRIVE_TERMS.has(field)
      : !(field === 'name' || field === 'memberCount' || field === 'organizerCount');

  const parseValue = (field: string): Value => {
    const t = next();
    const spec = termSpec(field)!;
    if (spec.value === 'bool') {
      if (t.kind !== 'word' || !/^(true|false)$/i.test(t.text))
        throw new QuerySyntaxError(`${field} compares with true or false`);
      return { kind: 'bool', value: t.text.toLowerCase() === 'true' };
    }
    if (spec.value === 'number') {
      if (t.kind !== 'num') throw new QuerySyntaxError(`${field} compares with a number`);
      return { kind: 'number', value: Number(t.text) };
    }
    if (t.kind !== 'str') throw new QuerySyntaxError(`${field} compares with a quoted string`);
    if (spec.value === 'date' && Number.isNaN(Date.parse(t.text)))
      throw new QuerySyntaxError(`'${t.text}' is not an RFC 3339 date`);
    return { kind: 'string', value: t.text };
  };

  const parseHas = (field: string): QueryNode => {
    if (next().kind !== 'lbrace') throw new QuerySyntaxError(`expected '{' after has`);
    const conditions: { key: string; op: string; value: string }[] = [];
    for (;;) {
      const k = next();
      if (k.kind !== 'word' || !['key', 'value', 'visibility'].includes(k.text))
        throw new QuerySyntaxError('properties has {…} takes key, value and visibility');
      const op = next();
      if (op.text !== '=') throw new QuerySyntaxError(`only '=' inside has {…}`);
      const v = next();
      if (v.kind !== 'str') throw new QuerySyntaxError('has {…} values are quoted strings');
      conditions.push({ key: k.text, op: '=', value: v.text });
      const t = next();
      if (t.kind === 'rbrace') break;
      if (!isWord(t, 'and')) throw new QuerySyntaxError(`expected 'and' or '}' in has {…}`);
    }
    return { type: 'has', field, conditions };
  };

  const parsePrimary = (): QueryNode => {
    const t = next();
    if (t.kind === 'lparen') {
      enter();
      const inner = parseOr();
      if (next().kind !== 'rparen') throw new QuerySyntaxError('missing )');
      depth--;
      return inner;
    }
    if (t.kind === 'str') {
      if (!isWord(next(), 'in')) throw new QuerySyntaxError(`expected 'in' after '${t.text}'`);
      const f = next();
      if (f.kind !== 'word' || !IN_TERMS.has(f.text) || dialect !== 'files')
        throw new QuerySyntaxError(`'in' works with parents, owners, writers or readers`);
      return { type: 'in', value: t.text, field: f.text };
    }
    if (t.kind === 'word') {
      const field = t.text;
      const opTok = next();
      const op = opTok.kind === 'op' ? opTok.text : opTok.kind === 'word' ? opTok.text.toLowerCase() : '';
      if (field === 'properties' || field === 'appProperties') {
        if (op !== 'has' || dialect !== 'files') throw new QuerySyntaxError(`${field} only supports 'has'`);
        return parseHas(field);
      }
      const spec = termSpec(field);
      if (!spec || !termAllowed(field)) throw new QuerySyntaxError(`unknown search term ${field}`);
      if (!CMP_OPS.has(op) || !spec.ops.includes(op))
        throw new QuerySyntaxError(`operator ${op || opTok.text} is not valid for ${field}`);
      return { type: 'cmp', field, op, value: parseValue(field) };
    }
    throw new QuerySyntaxError(`unexpected '${t.text}' at ${t.pos}`);
  };
  const parseNot = (): QueryNode => {
    if (isWord(peek(), 'not')) {
      next();
      enter();
      const operand = parseNot();
      depth--;
      return { type: 'not', operand };
    }
    return parsePrimary();
  };
  const chain = (type: 'and' | 'or', operand: () => QueryNode) => (): QueryNode => {
    const first = operand();
    if (!isWord(peek(), type)) return first;
    const items = [first];
    while (isWord(peek(), type)) {
      next();
      items.push(operand());
    }
    return { type, items };
  };
  const parseAnd = chain('and', parseNot);
  const parseOr = chain('or', parseAnd);
  if (peek().kind === 'end') throw new QuerySyntaxError('empty query');
  const ast = parseOr();
  if (peek().kind !== 'end') throw new QuerySyntaxError(`unexpected '${peek().text}' at ${peek().pos}`);
  return ast;
}
