// The `q` search language of files.list / children.list (v2 field names), parsed into a small AST
// and evaluated against stored files. Anything the real service would not accept is a
// QuerySyntaxError, which the routes turn into 400 "Invalid query" on parameter `q`.
import type { StoredFile } from './model';
import { isWord, lexer, QuerySyntaxError } from './queryLexer';

export { QuerySyntaxError };

type Value = { kind: 'string'; value: string } | { kind: 'bool'; value: boolean } | { kind: 'number'; value: number };

export type QueryNode =
  // n-ary: a long chain of `and`/`or` is one flat node, so evaluating it never recurses per term.
  | { type: 'and' | 'or'; items: QueryNode[] }
  | { type: 'not'; operand: QueryNode }
  | { type: 'cmp'; field: string; op: string; value: Value }
  | { type: 'in'; value: string; field: string }
  | { type: 'has'; field: string; conditions: { key: string; op: string; value: string }[] };

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

/** Terms each collection accepts: files (and children) or shared drives. */
export type QueryDialect = 'files' | 'drives';
const DRIVE_TERMS = new Set(['name', 'hidden', 'memberCount', 'organizerCount', 'createdDate']);

/** Lower case, without a copy when it already is. */
const lower = (w: string): string => (/[A-Z]/.test(w) ? w.toLowerCase() : w);

/** How deep parentheses and `not` may nest in one query. */
const MAX_QUERY_NESTING = 100;

export function parseQuery(q: string, dialect: QueryDialect = 'files'): QueryNode {
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
  const termAllowed = (field: string) =>
    dialect === 'drives'
      ? DRIVE_TERMS.has(field)
      : !(field === 'name' || field === 'memberCount' || field === 'organizerCount');

  const parseValue = (field: string): Value => {
    const t = next();
    const spec = termSpec(field)!;
    if (spec.value === 'bool') {
      if (!isWord(t, 'true') && !isWord(t, 'false')) throw new QuerySyntaxError(`${field} compares with true or false`);
      return { kind: 'bool', value: isWord(t, 'true') };
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
      const op = opTok.kind === 'op' ? opTok.text : opTok.kind === 'word' ? lower(opTok.text) : '';
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
  // Operands collect on one stack and each list is copied out at its size (a list grown by push kept room
  // for 17 items per two-item `or`).
  const stack: QueryNode[] = [];
  const chain = (type: 'and' | 'or', operand: () => QueryNode) => (): QueryNode => {
    const first = operand();
    if (!isWord(peek(), type)) return first;
    const base = stack.length;
    stack.push(first);
    while (isWord(peek(), type)) {
      next();
      stack.push(operand());
    }
    const items = stack.slice(base);
    stack.length = base;
    return { type, items };
  };
  const parseAnd = chain('and', parseNot);
  const parseOr = chain('or', parseAnd);
  if (peek().kind === 'end') throw new QuerySyntaxError('empty query');
  const ast = parseOr();
  if (peek().kind !== 'end') throw new QuerySyntaxError(`unexpected '${peek().text}' at ${peek().pos}`);
  return ast;
}

/** What evaluation needs to know beyond the file itself. */
export interface QueryEnv {
  rootId: string;
  meId: string;
  emailOf(userId: string): string;
  /** Title words a `contains` prefix-matches, and the text fullText searches. */
  fullTextOf(file: StoredFile): string;
}

function compare(a: number | string, op: string, b: number | string): boolean {
  switch (op) {
    case '=':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
    default:
      return false;
  }
}

function titleContains(title: string, needle: string): boolean {
  const t = title.toLowerCase();
  const n = needle.toLowerCase();
  if (t.startsWith(n)) return true;
  // Prefix of any word: "Hello World" matches 'Wor' but not 'orld'.
  return t.split(/[\s\-_.,;:()[\]/]+/).some((w) => w.startsWith(n));
}

export function evaluate(node: QueryNode, f: StoredFile, env: QueryEnv): boolean {
  switch (node.type) {
    case 'and':
      return node.items.every((x) => evaluate(x, f, env));
    case 'or':
      return node.items.some((x) => evaluate(x, f, env));
    case 'not':
      return !evaluate(node.operand, f, env);
    case 'in': {
      const v = node.value;
      if (node.field === 'parents') return f.parents.includes(v === 'root' ? env.rootId : v);
      const email = v.toLowerCase();
      const isMe = email === 'me' || email === env.emailOf(env.meId).toLowerCase();
      const matchesUser = (p: { emailAddress?: string; id: string }) =>
        (p.emailAddress ?? '').toLowerCase() === email || (isMe && p.id === env.meId);
      if (node.field === 'owners') return f.permissions.some((p) => p.role === 'owner' && matchesUser(p));
      if (node.field === 'writers')
        return f.permissions.some(
          (p) => ['owner', 'organizer', 'fileOrganizer', 'writer'].includes(p.role) && matchesUser(p),
        );
      return f.permissions.some(matchesUser);
    }
    case 'has': {
      return f.properties.some((p) =>
        node.conditions.every((c) =>
          c.key === 'key' ? p.key === c.value : c.key === 'value' ? p.value === c.value : p.visibility === c.value,
        ),
      );
    }
    case 'cmp': {
      const { field, op, value } = node;
      const str = value.kind === 'string' ? value.value : '';
      switch (field) {
        case 'title':
          return op === 'contains' ? titleContains(f.title, str) : compare(f.title, op, str);
        case 'fullText':
          return env.fullTextOf(f).toLowerCase().includes(str.toLowerCase());
        case 'mimeType':
          return op === 'contains' ? f.mimeType.includes(str) : compare(f.mimeType, op, str);
        case 'modifiedDate':
        case 'lastViewedByMeDate':
        case 'createdDate':
        case 'sharedWithMeDate': {
          const own = f[field];
          if (!own) return op === '!=';
          return compare(Date.parse(own), op, Date.parse(str));
        }
        case 'trashed':
        case 'starred':
        case 'hidden': {
          const b = value.kind === 'bool' && value.value;
          return op === '!=' ? f[field] !== b : f[field] === b;
        }
        case 'sharedWithMe': {
          const shared = f.ownerId !== env.meId && f.permissions.some((p) => p.id === env.meId);
          const b = value.kind === 'bool' && value.value;
          return op === '!=' ? shared !== b : shared === b;
        }
        case 'visibility': {
          const vis = f.permissions.some((p) => p.type === 'anyone' && !p.withLink)
            ? 'anyoneCanFind'
            : f.permissions.some((p) => p.type === 'anyone')
              ? 'anyoneWithLink'
              : f.permissions.some((p) => p.type === 'domain')
                ? 'domainCanFind'
                : 'limited';
          return compare(vis, op, str);
        }
        case 'shortcutDetails.targetId':
          return compare(f.shortcutTargetId ?? '', op, str);
        default:
          return false;
      }
    }
  }
}

/** What drive searches compare against. */
export interface DriveFacts {
  name: string;
  hidden: boolean;
  createdDate: string;
  memberCount: number;
  organizerCount: number;
}

export function evaluateDrive(node: QueryNode, d: DriveFacts): boolean {
  switch (node.type) {
    case 'and':
      return node.items.every((x) => evaluateDrive(x, d));
    case 'or':
      return node.items.some((x) => evaluateDrive(x, d));
    case 'not':
      return !evaluateDrive(node.operand, d);
    case 'cmp': {
      const { field, op, value } = node;
      if (field === 'name') {
        const s = value.kind === 'string' ? value.value : '';
        return op === 'contains' ? titleContains(d.name, s) : compare(d.name, op, s);
      }
      if (field === 'hidden') {
        const b = value.kind === 'bool' && value.value;
        return op === '!=' ? d.hidden !== b : d.hidden === b;
      }
      if (field === 'createdDate')
        return compare(Date.parse(d.createdDate), op, Date.parse(value.kind === 'string' ? value.value : ''));
      if (field === 'memberCount' || field === 'organizerCount')
        return compare(d[field], op, value.kind === 'number' ? value.value : NaN);
      return false;
    }
    default:
      return false;
  }
}
