// Completion in query cells: entity sets, options, fields by context, operators, and values from the
// DataStream vocabularies (plus DOIs the user has already seen). Pure: offsets in, items out.
import {
  WATER_ENTITY_SETS,
  WATER_FILTER_FIELDS,
  WATER_REGION_IDS,
  WATER_SELECT_FIELDS,
  type WaterEntitySet,
} from '../../shared/wire/waterData';
import { queryContextAt, type QueryPlace } from './cursor';
import { quoteString } from './filter';
import { filterExpect, scanFilter } from './filterCursor';
import { rankedVocabulary } from './vocabulary';

export type CompletionKind = 'entitySet' | 'option' | 'field' | 'operator' | 'keyword' | 'function' | 'value';

export interface CompletionItem {
  label: string;
  insertText: string;
  kind: CompletionKind;
  detail?: string;
  /** What the typed text is matched against, when not the label (a bare or `%24` option name). */
  filterText?: string;
  /** Offsets of the text the item replaces (the word or partial string before the cursor). */
  replaceStart: number;
  replaceEnd: number;
  /** Accepting it leaves the cursor where a value is wanted: ask for completion again there. */
  suggestAfter?: boolean;
}

export interface CompletionContext {
  /** DOIs seen in results, offered for DOI comparisons. */
  dois?: readonly string[];
}

/** The options, with the start of a value written after a new one's `=`. */
const OPTION_ITEMS: { label: string; value: string; detail: string }[] = [
  { label: '$select', value: '', detail: 'comma-separated fields; fewer fields = faster' },
  { label: '$filter', value: '', detail: 'conditions with eq ne lt gt lte gte in, and/or, endswith()' },
  { label: '$top', value: '', detail: 'rows to fetch (1–10000 per request)' },
  { label: '$count', value: 'true', detail: 'only the number of matching rows' },
  { label: '$skiptoken', value: 'Id:', detail: 'resume after an Id (the notebook follows nextLink for you)' },
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

export function completeQuery(text: string, offset: number, ctx: CompletionContext = {}): CompletionItem[] {
  const { place, entitySet: set } = queryContextAt(text, offset);
  switch (place.kind) {
    case 'none':
      return [];
    case 'entitySet':
      return WATER_ENTITY_SETS.map((s) => ({
        label: `/${s}`,
        insertText: `/${s}`,
        kind: 'entitySet' as const,
        replaceStart: place.start,
        replaceEnd: offset,
      }));
    case 'optionName':
      return optionItems(text.slice(place.start, offset), place);
    case 'value':
      return place.encoded || !set ? [] : valueItems(set, place.option, place.before, place.valueStart, ctx);
  }
}

/**
 * The options, written as the line's form needs: `$select=` in the URL form, `$select = ` (or `=` when the cell's
 * option lines are written so) on a line of its own, only the name when an `=` follows already. What was typed
 * decides `$`, `%24` or a bare name.
 */
function optionItems(typed: string, place: Extract<QueryPlace, { kind: 'optionName' }>): CompletionItem[] {
  const encoded = /^%24/i.test(typed);
  const bare = typed !== '' && !/^(\$|%)/.test(typed);
  return OPTION_ITEMS.map((o) => {
    const name = o.label.slice(1);
    const written = `${encoded ? '%24' : '$'}${name}`;
    return {
      label: o.label,
      insertText: place.hasValue ? written : `${written}${place.spacing}${o.value}`,
      filterText: bare ? name : encoded ? written : undefined,
      kind: 'option' as const,
      detail: o.detail,
      replaceStart: place.start,
      replaceEnd: place.end,
      suggestAfter: !place.hasValue && o.value === '',
    };
  });
}

function valueItems(
  set: WaterEntitySet,
  option: string,
  value: string,
  valueStart: number,
  ctx: CompletionContext,
): CompletionItem[] {
  const end = valueStart + value.length;
  switch (option) {
    case '$select': {
      const word = /[A-Za-z]*$/.exec(value)![0];
      const used = new Set(value.split(',').map((s) => s.trim()));
      return WATER_SELECT_FIELDS[set]
        .filter((f) => !used.has(f) || f === word)
        .map((f) => ({
          label: f,
          insertText: f,
          kind: 'field' as const,
          replaceStart: end - word.length,
          replaceEnd: end,
        }));
    }
    case '$count':
      return ['true', 'false'].map((v) => ({
        label: v,
        insertText: v,
        kind: 'value' as const,
        replaceStart: end - /[a-z]*$/.exec(value)![0].length,
        replaceEnd: end,
      }));
    case '$top':
      return ['10', '100', '1000', '10000'].map((v) => ({
        label: v,
        insertText: v,
        kind: 'value' as const,
        replaceStart: end - /\d*$/.exec(value)![0].length,
        replaceEnd: end,
      }));
    case '$filter':
      return completeFilter(set, value, valueStart, ctx);
    default:
      return [];
  }
}

function completeFilter(
  set: WaterEntitySet,
  value: string,
  valueStart: number,
  ctx: CompletionContext,
): CompletionItem[] {
  const toks = scanFilter(value);
  const last = toks[toks.length - 1];
  // The token under the cursor is the prefix being typed, not yet part of the state.
  const typing =
    last && ((last.t === 'str' && last.open) || ((last.t === 'word' || last.t === 'num') && last.end === value.length));
  const { expect: state, field } = filterExpect(typing ? toks.slice(0, -1) : toks);
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
