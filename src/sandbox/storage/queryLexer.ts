// The tokens of the Drive `q` language, read one per call as the parser asks: a long query never holds all
// its tokens at once, so the live heap is only the tree (a token list made every collection slower as the
// query grew: superlinear). Reading a token allocates only the token and its text: a long query is mostly
// the tree it builds, and everything else it allocated was garbage the young generation collected while the
// tree grew, each collection copying the tree built so far (a 1 MB query cost half again per byte what a
// 100 KB one did while every word and number built a pair of lookup arrays).

export class QuerySyntaxError extends Error {}

export interface Token {
  kind: 'str' | 'word' | 'op' | 'lparen' | 'rparen' | 'lbrace' | 'rbrace' | 'num' | 'end';
  text: string;
  pos: number;
}

const isDigit = (k: number): boolean => k >= 48 && k <= 57;
/** What /[A-Za-z_]/ matches. */
const isWordStart = (k: number): boolean => (k >= 65 && k <= 90) || (k >= 97 && k <= 122) || k === 95;
const WHITE = /\s/;

/** /\s/ for one UTF-16 unit, without the regular expression for ASCII. */
function isSpace(k: number): boolean {
  if (k < 128) return k === 32 || (k >= 9 && k <= 13);
  return WHITE.test(String.fromCharCode(k));
}

const BRACKETS: Partial<Record<string, Token['kind']>> = { '(': 'lparen', ')': 'rparen', '{': 'lbrace', '}': 'rbrace' };

/** Distinct words kept for sharing (see word()); a query with more just slices the rest. */
const MAX_WORDS = 64;

export function lexer(q: string): () => Token {
  let i = 0;
  // A long query repeats a few dozen words (terms, operators, and/or/not): each is one string, not a copy
  // per mention, which also keeps the tree's field names from being a string each.
  const words: string[] = [];
  const word = (start: number, end: number): string => {
    for (const w of words) if (w.length === end - start && q.startsWith(w, start)) return w;
    const w = q.slice(start, end);
    if (words.length < MAX_WORDS) words.push(w);
    return w;
  };
  return () => {
    while (i < q.length && isSpace(q.charCodeAt(i))) i++;
    if (i >= q.length) return { kind: 'end', text: '', pos: q.length };
    const c = q[i];
    const k = q.charCodeAt(i);
    if (c === "'" || c === '"') {
      const start = i++;
      // Runs between escapes are copied as slices: a character at a time made a rope node per character.
      let pieces: string[] | undefined;
      let from = i;
      while (i < q.length && q.charCodeAt(i) !== k) {
        if (q.charCodeAt(i) === 92 /* \ */ && i + 1 < q.length) {
          (pieces ??= []).push(q.slice(from, i), q[i + 1]);
          i += 2;
          from = i;
        } else i++;
      }
      if (i >= q.length) throw new QuerySyntaxError(`unterminated string starting at ${start}`);
      const last = q.slice(from, i++);
      if (!pieces) return { kind: 'str', text: last, pos: start };
      pieces.push(last);
      return { kind: 'str', text: pieces.join(''), pos: start };
    }
    const bracket = BRACKETS[c];
    if (bracket) return { kind: bracket, text: c, pos: i++ };
    if (c === '!' || c === '<' || c === '>' || c === '=') {
      if (c !== '=' && q.charCodeAt(i + 1) === 61 /* = */) {
        i += 2;
        return { kind: 'op', text: c === '!' ? '!=' : c === '<' ? '<=' : '>=', pos: i - 2 };
      }
      if (c === '!') throw new QuerySyntaxError(`unexpected '!' at ${i}`);
      return { kind: 'op', text: c, pos: i++ };
    }
    const pos = i;
    // /-?\d+(\.\d+)?/ then /[A-Za-z_][A-Za-z0-9_.]*/, read in place.
    if (isDigit(k) || (k === 45 /* - */ && isDigit(q.charCodeAt(i + 1)))) {
      i++;
      while (isDigit(q.charCodeAt(i))) i++;
      if (q.charCodeAt(i) === 46 /* . */ && isDigit(q.charCodeAt(i + 1))) {
        i += 2;
        while (isDigit(q.charCodeAt(i))) i++;
      }
      return { kind: 'num', text: q.slice(pos, i), pos };
    }
    if (isWordStart(k)) {
      i++;
      for (let n = q.charCodeAt(i); isWordStart(n) || isDigit(n) || n === 46; n = q.charCodeAt(++i));
      return { kind: 'word', text: word(pos, i), pos };
    }
    throw new QuerySyntaxError(`unexpected character '${c}' at ${i}`);
  };
}

/** `t` is the word `w` (lower case) in any case; no lower-cased copy (every test of a keyword made one). */
export function isWord(t: Token, w: string): boolean {
  if (t.kind !== 'word' || t.text.length !== w.length) return false;
  for (let j = 0; j < w.length; j++) if ((t.text.charCodeAt(j) | 32) !== w.charCodeAt(j)) return false;
  return true;
}
