// Checks a parsed query against what the service accepts (spec §2.4, §4.4): fields per entity set,
// value types per field, vocabularies and RegionId values. Pure; diagnostics carry cell offsets.
import {
  WATER_DOI_PATTERN,
  WATER_FILTER_FIELDS,
  WATER_REGION_IDS,
  WATER_SELECT_FIELDS,
  type WaterEntitySet,
} from '../../shared/wire/waterData';
import { walkFilter, type FilterNode, type Literal } from './filter';
import { sourceRange, type MappedText } from './mappedText';
import { parseQuery, type ParsedQuery, type QueryDiagnostic } from './query';
import { closestValue, inVocabulary, VOCABULARY_FIELDS } from './vocabulary';
import { ownValue } from '../../shared/wire/ownKeys';

export type FieldKind = 'integer' | 'number' | 'year' | 'date' | 'text' | 'uuid';

const FIELD_KIND: Record<string, FieldKind> = {
  Id: 'integer',
  LocationId: 'integer',
  Latitude: 'number',
  Longitude: 'number',
  LatitudeNormalized: 'number',
  LongitudeNormalized: 'number',
  ActivityStartYear: 'year',
  CreateTimestamp: 'date',
};

const RANGES: Record<string, [number, number]> = {
  Latitude: [-90, 90],
  LatitudeNormalized: [-90, 90],
  Longitude: [-180, 180],
  LongitudeNormalized: [-180, 180],
};

/** What a filter field holds, as its values are checked. */
export function fieldKind(set: WaterEntitySet, field: string): FieldKind {
  return set === 'Metadata' && field === 'Id' ? 'uuid' : (ownValue(FIELD_KIND, field) ?? 'text');
}

export function analyzeQuery(cellText: string): ParsedQuery {
  const parsed = parseQuery(cellText);
  validateQuery(parsed);
  return parsed;
}

export function hasErrors(q: ParsedQuery): boolean {
  return q.diagnostics.some((d) => d.severity === 'error');
}

export function validateQuery(q: ParsedQuery): void {
  const set = q.entitySet;
  if (!set) return;
  const d = q.diagnostics;
  if (q.select) {
    const allowed = WATER_SELECT_FIELDS[set];
    const seen = new Set<string>();
    for (const f of q.select) {
      if (!allowed.includes(f.name)) {
        const hint = allowed.find((a) => a.toLowerCase() === f.name.toLowerCase());
        d.push({
          start: f.start,
          end: f.end,
          severity: 'error',
          message: `${set} has no field "${f.name}"${hint ? `: did you mean ${hint}?` : ''}`,
        });
      } else if (seen.has(f.name)) {
        d.push({ start: f.start, end: f.end, severity: 'warning', message: `${f.name} is selected twice` });
      }
      seen.add(f.name);
    }
  }
  if (q.filter?.ast) validateFilter(set, q.filter.ast, q.filter.text, d);
}

/** Lists quoted in messages, joined once: joined per finding, they were most of a long filter's findings' memory. */
const FILTER_FIELD_LISTS = new Map<WaterEntitySet, string>();
const filterFieldList = (set: WaterEntitySet): string => {
  let list = FILTER_FIELD_LISTS.get(set);
  if (list === undefined) FILTER_FIELD_LISTS.set(set, (list = WATER_FILTER_FIELDS[set].join(', ')));
  return list;
};
let knownRegions: string | undefined;

/**
 * Unknown vocabulary values that get a "did you mean": each search reads the whole vocabulary, and in a pasted
 * filter of thousands of unknown values the searches were half of the work, for suggestions nobody reads.
 */
const SUGGESTIONS = 100;

function validateFilter(set: WaterEntitySet, ast: FilterNode, text: MappedText, d: QueryDiagnostic[]): void {
  const allowed = WATER_FILTER_FIELDS[set];
  const at = (s: { start: number; end: number }) => sourceRange(text, s.start, s.end);
  const suggestions = { left: SUGGESTIONS };
  for (const node of walkFilter(ast)) {
    if (node.kind !== 'compare' && node.kind !== 'in' && node.kind !== 'call') continue;
    const field = node.field.name;
    if (!allowed.includes(field)) {
      const hint = allowed.find((a) => a.toLowerCase() === field.toLowerCase());
      const other = (['Metadata', 'Locations', 'Observations', 'Records'] as const).filter(
        (s) => s !== set && WATER_FILTER_FIELDS[s].includes(field),
      );
      d.push({
        ...at(node.field),
        severity: 'error',
        message: `${set} cannot be filtered by "${field}"${hint ? `: did you mean ${hint}?` : ''}. Filter fields: ${filterFieldList(set)}${other.length ? ` (${field} filters ${other.join(', ')})` : ''}`,
      });
      continue;
    }
    if (/Normalized$/.test(field)) {
      d.push({
        ...at(node.field),
        severity: 'warning',
        message: `${field} was removed from the service on 2025-07-29; use ${field.replace('Normalized', '')}`,
      });
    }
    if (node.kind === 'call') {
      if (node.arg.kind !== 'string')
        d.push({ ...at(node.arg), severity: 'error', message: `endswith takes quoted text: endswith(${field}, '…')` });
      if (FIELD_KIND[field] && FIELD_KIND[field] !== 'text')
        d.push({ ...at(node.field), severity: 'error', message: `endswith works on text fields, not ${field}` });
      continue;
    }
    const values = node.kind === 'compare' ? [node.value] : node.values;
    const op = node.kind === 'compare' ? node.op : 'in';
    for (const v of values) checkValue(set, field, op, v, at, d, suggestions);
  }
}

function checkValue(
  set: WaterEntitySet,
  field: string,
  op: string,
  v: Literal,
  at: (s: { start: number; end: number }) => { start: number; end: number },
  d: QueryDiagnostic[],
  suggestions: { left: number },
): void {
  const span = at(v);
  const kind = fieldKind(set, field);
  if (v.kind === 'bool') {
    d.push({ ...span, severity: 'error', message: `${field} is not a true/false field` });
    return;
  }
  if (v.kind === 'null') {
    if (op !== 'eq' && op !== 'ne')
      d.push({ ...span, severity: 'error', message: `null can only be compared with eq or ne` });
    return;
  }
  const raw = v.kind === 'string' ? v.value : v.raw;
  switch (kind) {
    case 'integer':
      if (!/^\d+$/.test(raw))
        d.push({ ...span, severity: 'error', message: `${field} is a whole number, e.g. ${field} eq 3271776` });
      return;
    case 'number': {
      if (!/^-?\d+(\.\d+)?$/.test(raw.trim())) {
        d.push({ ...span, severity: 'error', message: `${field} is a number, e.g. ${field} gt '-102.01'` });
        return;
      }
      const [lo, hi] = RANGES[field];
      if (Number(raw) < lo || Number(raw) > hi)
        d.push({ ...span, severity: 'error', message: `${field} lies between ${lo} and ${hi}` });
      return;
    }
    case 'year':
      if (!/^\d{4}$/.test(raw))
        d.push({
          ...span,
          severity: 'error',
          message: `ActivityStartYear is a four-digit year, e.g. ActivityStartYear gt '2019'`,
        });
      return;
    case 'date':
      if (v.kind !== 'string') d.push({ ...span, severity: 'error', message: `Quote dates: ${field} gt '2020-03-23'` });
      else if (
        !/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/.test(
          raw,
        )
      ) {
        d.push({ ...span, severity: 'error', message: `Dates are written yyyy-mm-dd, e.g. '2020-03-23'` });
      }
      return;
    case 'uuid':
      if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(raw))
        d.push({ ...span, severity: 'error', message: 'Metadata Id is a UUID' });
      return;
    case 'text':
      if (v.kind !== 'string') {
        d.push({
          ...span,
          severity: 'error',
          message: `Quote text values: ${field} ${op === 'in' ? 'in (' : op + ' '}'${raw}'${op === 'in' ? ')' : ''}`,
        });
        return;
      }
      break;
  }
  if (field === 'RegionId') {
    if (!WATER_REGION_IDS.includes(raw)) {
      const legacy = /^ds\.hub\./.test(raw)
        ? raw.replace(/^ds\./, '')
        : /^admin\.4\.ca-/.test(raw)
          ? raw.replace('admin.4.ca-', 'admin.4.ca.')
          : undefined;
      d.push({
        ...span,
        severity: legacy ? 'error' : 'warning',
        message: legacy
          ? `"${raw}" is an old RegionId spelling; use '${legacy}'`
          : `Unknown RegionId "${raw}" (values are subject to change). Known: ${(knownRegions ??= WATER_REGION_IDS.join(', '))}`,
      });
    }
    return;
  }
  if (field === 'DOI' && (op === 'eq' || op === 'in' || op === 'ne') && !WATER_DOI_PATTERN.test(raw)) {
    d.push({ ...span, severity: 'warning', message: `DOIs look like 10.25976/abcd-ef12` });
    return;
  }
  if ((VOCABULARY_FIELDS as readonly string[]).includes(field) && (op === 'eq' || op === 'in' || op === 'ne')) {
    if (!inVocabulary(field, raw)) {
      const near = suggestions.left-- > 0 ? closestValue(field, raw) : undefined;
      d.push({
        ...span,
        severity: 'warning',
        message: `"${raw}" is not a ${field} in the DataStream vocabulary${near ? `: did you mean '${near}'?` : ''}`,
      });
    }
  }
}
