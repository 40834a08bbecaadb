// Completion in query cells: entity sets, options, fields by context, operators, and values from the
// DataStream vocabularies (plus DOIs the user has already seen). Pure: offsets in, items out.
import {
  WATER_ENTITY_SETS,
  WATER_FILTER_FIELDS,
  WATER_REGION_IDS,
  WATER_SELECT_FIELDS,
  type WaterEntitySet,
} from '../../shared/wire/waterData';
import { quoteString } from './filter';
import { looksPercentEncoded } from './mappedText';
import { rankedVocabulary } from './vocabulary';

export type CompletionKind = 'entitySet' | 'option' | 'field' | 'operator' | 'keyword' | 'function' | 'value';

export interface CompletionItem {
  label: string;
  insertText: string;
  kind: CompletionKind;
  detail?: string;
  /** Offsets of the text the item replaces (the word or partial string before the cursor). */
  replaceStart: number;
  replaceEnd: number;
}

export interface CompletionContext {
  /** DOIs seen in results, offered for DOI comparisons. */
  dois?: readonly string[];
}

const OPTION_ITEMS: { label: string; insert: string; detail: string }[] = [
  { label: '$select', insert: '$select=', detail: 'comma-separated fields; fewer fields = faster' },
  { label: '$filter', insert: '$filter=', detail: 'conditions with eq ne lt gt lte gte in, and/or, endswith()' },
  { label: '$top', insert: '$top=', detail: 'rows to fetch (1–10000 per request)' },
  { label: '$count', insert: '$count=true', detail: 'only the number of matching rows' },
  {
    label: '$skiptoken',
    insert: '$skiptoken=Id:',
    detail: 'resume after an Id (the notebook follows nextLink for you)',
  },
];

const OPERATORS: [string, string][] = [
  ['eq', 'equals'],
  ['ne', 'not equal'],
  ['lt', 'less than'],
  ['gt', 'greater than'],
  ['lte', 'less than or equal'],
  ['gte', 'greater than or equal'],
  ['in', "in a list: in ('a', 'b')"],
];

interface Line {
  text: string;
  start: number;
}

function lines(text: string): Line[] {
  const out: Line[] = [];
  let start = 0;
  for (const t of text.split('\n')) {
    out.push({ text: t, start });
    start += t.length + 1;
  }
  return out;
}

const OPTION_LINE = /^\s*&?\s*(\$|%24)?(select|filter|top|skiptoken|count)\s*=/i;

function entitySetOf(text: string): WaterEntitySet | undefined {
  const m = /(?:^|\/)(Metadata|Locations|Observations|Records)\b/.exec(
    text.split('\n').find((l) => l.trim() && !/^\s*(#|\/\/)/.test(l)) ?? '',
  );
  return m ? (m[1] as WaterEntitySet) : undefined;
}

export function completeQuery(text: string, offset: number, ctx: CompletionContext = {}): CompletionItem[] {
  const all = lines(text);
  const lineIndex = all.findIndex((l) => offset >= l.start && offset <= l.start + l.text.length);
  if (lineIndex < 0) return [];
  const line = all[lineIndex];
  const before = line.text.slice(0, offset - line.start);
  if (/^\s*(#|\/\/)/.test(before)) return [];
  const firstContent = all.findIndex((l) => l.text.trim() && !/^\s*(#|\/\/)/.test(l.text));
  const set = entitySetOf(text);

  // The request line, before its "?": entity sets.
  if ((lineIndex === firstContent || firstContent < 0) && !before.includes('?')) {
    const word = /[A-Za-z/]*$/.exec(before)![0];
    return WATER_ENTITY_SETS.map((s) => ({
      label: `/${s}`,
      insertText: `/${s}`,
      kind: 'entitySet' as const,
      replaceStart: offset - word.length,
      replaceEnd: offset,
    }));
  }

  // Find where the current option starts: after the last "?"/"&" on the request line, or its own line.
  let segment: string;
  let segmentStart: number;
  if (lineIndex === firstContent) {
    const cut = Math.max(before.lastIndexOf('?'), lastOptionAmp(before));
    segment = before.slice(cut + 1);
    segmentStart = line.start + cut + 1;
  } else {
    let startLine = lineIndex;
    while (startLine > firstContent + 1 && !OPTION_LINE.test(all[startLine].text)) startLine--;
    if (!OPTION_LINE.test(all[startLine].text) && startLine !== lineIndex) startLine = lineIndex;
    const from = all[startLine].start;
    segment = text.slice(from, offset);
    segmentStart = from;
    const amp = lastOptionAmp(segment);
    if (amp >= 0) {
      segmentStart += amp + 1;
      segment = segment.slice(amp + 1);
    }
  }
  const eq = segment.indexOf('=');
  if (eq < 0) {
    const word = /[$%0-9A-Za-z_]*$/.exec(segment)![0];
    const lead = lineIndex === firstContent ? '' : '';
    return OPTION_ITEMS.map((o) => ({
      label: o.label,
      insertText: lead + o.insert,
      kind: 'option' as const,
      detail: o.detail,
      replaceStart: offset - word.length,
      replaceEnd: offset,
    }));
  }
  const name = segment
    .slice(0, eq)
    .trim()
    .replace(/^&/, '')
    .replace(/^%24/i, '$')
    .replace(/^(?!\$)/, '$')
    .toLowerCase();
  const value = segment.slice(eq + 1);
  if (looksPercentEncoded(value)) return [];
  const valueStart = segmentStart + eq + 1;
  if (!set) return [];
  switch (name) {
    case '$select': {
      const word = /[A-Za-z]*$/.exec(value)![0];
      const used = new Set(value.split(',').map((s) => s.trim()));
      return WATER_SELECT_FIELDS[set]
        .filter((f) => !used.has(f) || f === word)
        .map((f) => ({
          label: f,
          insertText: f,
          kind: 'field' as const,
          replaceStart: offset - word.length,
          replaceEnd: offset,
        }));
    }
    case '$count':
      return ['true', 'false'].map((v) => ({
        label: v,
        insertText: v,
        kind: 'value' as const,
        replaceStart: offset - /[a-z]*$/.exec(value)![0].length,
        replaceEnd: offset,
      }));
    case '$top':
      return ['10', '100', '1000', '10000'].map((v) => ({
        label: v,
        insertText: v,
        kind: 'value' as const,
        replaceStart: offset - /\d*$/.exec(value)![0].length,
        replaceEnd: offset,
      }));
    case '$filter':
      return completeFilter(set, value, valueStart, ctx);
    default:
      return [];
  }
}

function lastOptionAmp(s: string): number {
  let last = -1;
  const re = /&(?=\s*(?:\$|%24)?[A-Za-z_]*\s*(=|$))/g;
  for (const m of s.matchAll(re)) {
    // An & inside a quoted value is data, not a separator.
    const quotes = (s.slice(0, m.index).match(/'/g) ?? []).length;
    if (quotes % 2 === 0) last = m.index!;
  }
  return last;
}

type Tok = { t: 'word' | 'str' | 'num' | 'punct'; v: string; start: number; open?: boolean };

function scan(s: string): Tok[] {
  const out: Tok[] = [];
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
      out.push({ t: 'str', v, start: i, open });
      i = j;
    } else if ('(),'.includes(c)) {
      out.push({ t: 'punct', v: c, start: i++ });
    } else {
      const m = /^[A-Za-z_][A-Za-z0-9_.]*|^-?[0-9][0-9.-]*/.exec(s.slice(i));
      if (!m) {
        i++;
        continue;
      }
      out.push({ t: /^[A-Za-z_]/.test(m[0]) ? 'word' : 'num', v: m[0], start: i });
      i += m[0].length;
    }
  }
  return out;
}

type State =
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

function completeFilter(
  set: WaterEntitySet,
  value: string,
  valueStart: number,
  ctx: CompletionContext,
): CompletionItem[] {
  const toks = scan(value);
  const last = toks[toks.length - 1];
  // The token under the cursor is the prefix being typed, not yet part of the state.
  const typing =
    last &&
    ((last.t === 'str' && last.open) ||
      ((last.t === 'word' || last.t === 'num') && last.start + last.v.length === value.length));
  const settled = typing ? toks.slice(0, -1) : toks;
  let state: State = 'field';
  let field = '';
  const depth: number[] = [];
  for (const k of settled) {
    switch (state) {
      case 'field':
        if (k.v === '(') depth.push(1);
        else if (k.t === 'word' && k.v.toLowerCase() === 'endswith') state = 'fnOpen';
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
        else if (k.v === ')') depth.pop();
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
  const replaceStart = valueStart + (typing ? last.start : value.length);
  const replaceEnd = valueStart + value.length;
  const items = (
    kind: CompletionKind,
    list: readonly { label: string; insert?: string; detail?: string }[],
  ): CompletionItem[] =>
    list.map((x) => ({
      label: x.label,
      insertText: x.insert ?? x.label,
      kind,
      detail: x.detail,
      replaceStart,
      replaceEnd,
    }));
  switch (state) {
    case 'field':
    case 'fnField':
      return [
        ...items(
          'field',
          WATER_FILTER_FIELDS[set].map((f) => ({ label: f })),
        ),
        ...(state === 'field'
          ? items('function', [{ label: 'endswith', insert: "endswith(DOI, '')", detail: 'text ends with' }])
          : []),
      ];
    case 'op':
      return items(
        'operator',
        OPERATORS.map(([label, detail]) => ({ label, detail, insert: label === 'in' ? 'in (' : label })),
      );
    case 'value':
    case 'inValue':
    case 'fnValue':
      return items('value', valuesFor(field, ctx));
    case 'conj':
    case 'inSep':
    case 'fnClose':
      return items(
        'keyword',
        state === 'conj' ? [{ label: 'and' }, { label: 'or' }] : [{ label: state === 'inSep' ? ',' : ')' }],
      );
    default:
      return [];
  }
}

function valuesFor(field: string, ctx: CompletionContext): { label: string; insert: string; detail?: string }[] {
  let list: readonly string[] | undefined;
  if (field === 'DOI') list = ctx.dois ?? [];
  else if (field === 'RegionId') list = WATER_REGION_IDS;
  else if (field === 'ActivityStartYear') {
    const now = new Date().getUTCFullYear();
    list = Array.from({ length: 30 }, (_, i) => String(now - i));
  } else list = rankedVocabulary(field);
  return (list ?? []).map((v) => ({ label: v, insert: quoteString(v) }));
}
