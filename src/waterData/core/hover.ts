// Hover in query cells: what the entity set, an option, a field, an operator or a value under the pointer
// means, found through the same position lookup as completion (cursor.ts), so it knows the option of every
// line in every layout. Pure: offsets in, Markdown out.
import {
  WATER_ENTITY_SETS,
  WATER_FILTER_FIELDS,
  WATER_REGION_IDS,
  WATER_SELECT_FIELDS,
  type WaterEntitySet,
} from '../../shared/wire/waterData';
import { canonicalName, queryContextAt } from './cursor';
import { filterExpect, scanFilter } from './filterCursor';
import { inVocabulary, VOCABULARY_FIELDS, vocabulary } from './vocabulary';
import { fieldKind, type FieldKind } from './validate';
import { ownValue } from '../../shared/wire/ownKeys';

export interface QueryHover {
  /** Offsets of the text the hover is about. */
  start: number;
  end: number;
  markdown: string;
}

const SETS: Record<WaterEntitySet, string> = {
  Metadata: 'Dataset-level metadata meeting the query: DOI, name, licence and citation of each dataset.',
  Locations: 'Monitoring locations meeting the query.',
  Observations: 'Observations meeting the query.',
  Records:
    'Data in the dataset schema format with all columns, meant for streaming into a CSV file (Export Query to CSV); use Observations otherwise.',
};

const OPTIONS: Record<string, string> = {
  $select: 'The fields to return, separated by commas; fewer fields answer faster.',
  $filter:
    "Conditions on the entity set's filter fields: `eq ne lt gt lte gte`, `in ('a', 'b')`, `and`, `or`, parentheses, `endswith(DOI, '…')`. Text and dates go in single quotes.",
  $top: 'The number of rows the cell shows, 1–10000; the notebook pages through larger results for you. Without it the cell fetches up to the row limit setting.',
  $count: '`true`: only the number of matching rows (an estimate when it is large).',
  $skiptoken: '`Id:<id>`: start after that row. Rarely needed: the notebook follows `@odata.nextLink` itself.',
};

const OPERATORS: Record<string, string> = {
  eq: 'equals',
  ne: 'not equal',
  lt: 'less than',
  gt: 'greater than',
  lte: 'less than or equal',
  gte: 'greater than or equal',
  le: 'less than or equal (sent as `lte`)',
  ge: 'greater than or equal (sent as `gte`)',
  in: "in a list: `in ('a', 'b')`",
};

const KINDS: Record<FieldKind, string> = {
  integer: 'a whole number',
  number: 'a number',
  year: "a four-digit year, e.g. `'2019'`",
  date: "a date in quotes, e.g. `'2020-03-23'`",
  text: 'text in single quotes',
  uuid: 'a UUID',
};

export function hoverQuery(text: string, offset: number): QueryHover | undefined {
  const { place, entitySet: set } = queryContextAt(text, offset);
  switch (place.kind) {
    case 'none':
      return undefined;
    case 'entitySet': {
      const written = text.slice(place.start, place.end);
      const name = written.replace(/^\/+/, '');
      const start = place.end - name.length;
      if (!(WATER_ENTITY_SETS as readonly string[]).includes(name) || offset < start) return undefined;
      const s = name as WaterEntitySet;
      return {
        start,
        end: place.end,
        markdown: `**/${s}**: ${SETS[s]}\n\n${WATER_SELECT_FIELDS[s].length} fields; filter fields: ${WATER_FILTER_FIELDS[s].join(', ')}.`,
      };
    }
    case 'optionName': {
      const name = canonicalName(text.slice(place.start, place.end));
      const meaning = ownValue(OPTIONS, name);
      if (!meaning || place.start === place.end) return undefined;
      return { start: place.start, end: place.end, markdown: `**${name}**: ${meaning}` };
    }
    case 'value': {
      if (place.encoded || !set) return undefined;
      const lineEnd = text.indexOf('\n', offset);
      const full = place.before + text.slice(offset, lineEnd < 0 ? text.length : lineEnd).replace(/\r$/, '');
      const at = place.before.length;
      const found =
        place.option === '$filter'
          ? filterHover(set, full, at)
          : place.option === '$select'
            ? selectHover(set, full, at)
            : plainHover(place.option, full, at);
      return found && { ...found, start: place.valueStart + found.start, end: place.valueStart + found.end };
    }
  }
}

function around(s: string, at: number, chars: RegExp): { start: number; end: number } | undefined {
  let start = at;
  let end = at;
  while (start > 0 && chars.test(s[start - 1])) start--;
  while (end < s.length && chars.test(s[end])) end++;
  return end > start ? { start, end } : undefined;
}

function selectHover(set: WaterEntitySet, value: string, at: number): QueryHover | undefined {
  const word = around(value, at, /[A-Za-z0-9_]/);
  if (!word) return undefined;
  const field = value.slice(word.start, word.end);
  const known = WATER_SELECT_FIELDS[set].includes(field);
  const filter = WATER_FILTER_FIELDS[set].includes(field) ? '; it can also be filtered on' : '';
  return {
    ...word,
    markdown: known
      ? `**${field}**: field of ${set} in \`$select\`${filter}.`
      : `**${field}** is not a field of ${set}: \`$select\` takes ${WATER_SELECT_FIELDS[set].length} fields, such as ${WATER_SELECT_FIELDS[set].slice(0, 4).join(', ')}.`,
  };
}

function plainHover(option: string, value: string, at: number): QueryHover | undefined {
  const word = around(value, at, /[^\s&]/);
  const meaning = ownValue(OPTIONS, option);
  if (!word || !meaning) return undefined;
  return { ...word, markdown: `**${option}** \`${value.slice(word.start, word.end)}\`: ${meaning}` };
}

function filterHover(set: WaterEntitySet, value: string, at: number): QueryHover | undefined {
  const tokens = scanFilter(value);
  const index = tokens.findIndex((t) => t.start <= at && at < t.end);
  if (index < 0) return undefined;
  const token = tokens[index];
  const span = { start: token.start, end: token.end };
  const { expect, field } = filterExpect(tokens.slice(0, index));
  const md = (markdown: string): QueryHover => ({ ...span, markdown });
  switch (expect) {
    case 'field':
    case 'fnField':
      if (token.t !== 'word') return undefined;
      if (expect === 'field' && token.v.toLowerCase() === 'endswith')
        return md("**endswith**(field, 'text'): the field's text ends with the given text (`$filter` function).");
      return md(fieldHover(set, token.v));
    case 'op': {
      const meaning = ownValue(OPERATORS, token.v.toLowerCase());
      return meaning ? md(`**${token.v}**: ${meaning} (\`$filter\` operator).`) : undefined;
    }
    case 'conj':
      if (/^and$/i.test(token.v)) return md('**and**: both conditions must hold (`$filter`).');
      if (/^or$/i.test(token.v)) return md('**or**: either condition may hold (`$filter`).');
      return undefined;
    case 'value':
    case 'inValue':
    case 'fnValue':
      return token.t === 'punct' ? undefined : md(valueHover(field, token.t === 'str' ? token.v : undefined));
    default:
      return undefined;
  }
}

function fieldHover(set: WaterEntitySet, field: string): string {
  if (!WATER_FILTER_FIELDS[set].includes(field))
    return `**${field}** is not a filter field of ${set} in \`$filter\`. Filter fields: ${WATER_FILTER_FIELDS[set].join(', ')}.`;
  const list = vocabulary(field);
  const values =
    field === 'RegionId'
      ? ` Known values: ${WATER_REGION_IDS.join(', ')}.`
      : list
        ? ` Its values come from the DataStream vocabulary (${list.length}).`
        : '';
  const gone = /Normalized$/.test(field)
    ? ` Removed from the service on 2025-07-29: use ${field.replace('Normalized', '')}.`
    : '';
  return `**${field}**: filter field of ${set} in \`$filter\`; ${KINDS[fieldKind(set, field)]}.${values}${gone}`;
}

function valueHover(field: string, text: string | undefined): string {
  if (text === undefined) return `A value compared with **${field}** (\`$filter\`).`;
  if (field === 'RegionId')
    return WATER_REGION_IDS.includes(text)
      ? `**'${text}'**: a known RegionId (\`$filter\`).`
      : `**'${text}'** is not a known RegionId (values are subject to change).`;
  if ((VOCABULARY_FIELDS as readonly string[]).includes(field))
    return inVocabulary(field, text)
      ? `**'${text}'**: in the DataStream vocabulary of ${field} (\`$filter\`).`
      : `**'${text}'** is not in the DataStream vocabulary of ${field}: the service matches no row.`;
  return `**'${text}'**: a value compared with ${field} (\`$filter\`).`;
}
