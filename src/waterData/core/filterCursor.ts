// What a $filter expects at a point of its text, read from the tokens before it: a field, an operator, a
// value, `and`/`or`, or a part of `in (…)` / `endswith(…)`. Forgiving where the parser is strict: text being
// typed is seldom a whole expression. Completion asks at the cursor, hover at the token under the pointer.

export interface FilterToken {
  t: 'word' | 'str' | 'num' | 'punct';
  v: string;
  start: number;
  end: number;
  /** A string whose closing quote is missing. */
  open?: boolean;
}

export function scanFilter(s: string): FilterToken[] {
  const out: FilterToken[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === "'") {
      let j = i + 1;
      let v = '';
      let open = true;
      while (j < s.length) {
        if (s[j] === "'" && s[j + 1] === "'") {
          v += "'";
          j += 2;
        } else if (s[j] === "'") {
          open = false;
          j++;
          break;
        } else v += s[j++];
      }
      out.push({ t: 'str', v, start: i, end: j, open });
      i = j;
    } else if ('(),'.includes(c)) {
      out.push({ t: 'punct', v: c, start: i, end: ++i });
    } else {
      const m = /^[A-Za-z_][A-Za-z0-9_.]*|^-?[0-9][0-9.-]*/.exec(s.slice(i, i + 200));
      if (!m) {
        i++;
        continue;
      }
      out.push({ t: /^[A-Za-z_]/.test(m[0]) ? 'word' : 'num', v: m[0], start: i, end: i + m[0].length });
      i += m[0].length;
    }
  }
  return out;
}

export type FilterExpect =
  | 'field'
  | 'op'
  | 'inOpen'
  | 'inValue'
  | 'inSep'
  | 'value'
  | 'conj'
  | 'fnOpen'
  | 'fnField'
  | 'fnComma'
  | 'fnValue'
  | 'fnClose';

/** What comes after `settled`, and the field of the comparison it is in. */
export function filterExpect(settled: readonly FilterToken[]): { expect: FilterExpect; field: string } {
  let state: FilterExpect = 'field';
  let field = '';
  for (const k of settled) {
    switch (state) {
      case 'field':
        if (k.t === 'word' && k.v.toLowerCase() === 'endswith') state = 'fnOpen';
        else if (k.t === 'word') {
          field = k.v;
          state = 'op';
        }
        break;
      case 'op':
        state = k.t === 'word' && k.v.toLowerCase() === 'in' ? 'inOpen' : 'value';
        break;
      case 'inOpen':
        state = k.v === '(' ? 'inValue' : 'conj';
        break;
      case 'inValue':
        state = 'inSep';
        break;
      case 'inSep':
        state = k.v === ',' ? 'inValue' : 'conj';
        break;
      case 'value':
        state = 'conj';
        break;
      case 'conj':
        if (k.t === 'word' && /^(and|or)$/i.test(k.v)) state = 'field';
        break;
      case 'fnOpen':
        state = k.v === '(' ? 'fnField' : 'conj';
        break;
      case 'fnField':
        field = k.v;
        state = 'fnComma';
        break;
      case 'fnComma':
        state = k.v === ',' ? 'fnValue' : 'conj';
        break;
      case 'fnValue':
        state = 'fnClose';
        break;
      case 'fnClose':
        state = 'conj';
        break;
    }
  }
  return { expect: state, field };
}
