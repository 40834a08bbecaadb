// Reads a query cell. Two forms share one reader:
//   single line, pasted from the docs, encoded or not:  /Observations?$select=A,B&$filter=…&$top=5
//   multi-line, one option per line, long values wrapped onto indented lines:
//     /Observations
//     $filter = CharacteristicName eq 'pH'
//         and RegionId eq 'hub.atlantic'
//     $top = 100
// Lines starting with # are comments; which line is which is read by layout.ts. Every problem carries offsets
// into the cell text.
import { WATER_ENTITY_SETS, type WaterEntitySet } from '../../shared/wire/waterData';
import { FilterSyntaxError, parseFilter, type FilterNode } from './filter';
import { BARE_NAMES, lineText, readLayout, type CellLayout } from './layout';
import {
  emptyMapped,
  joinMapped,
  looksPercentEncoded,
  percentDecode,
  sliceMapped,
  sourceRange,
  trimMapped,
  type MappedText,
} from './mappedText';
import { ownValue } from '../../shared/wire/ownKeys';

export type Severity = 'error' | 'warning' | 'info';

export interface QueryDiagnostic {
  start: number;
  end: number;
  message: string;
  severity: Severity;
}

export interface SourceSpan {
  start: number;
  end: number;
}

export interface QueryOption {
  /** Canonical name with `$`, e.g. `$filter`. */
  name: string;
  nameSpan: SourceSpan;
  value: MappedText;
}

export interface SelectField extends SourceSpan {
  name: string;
}

export interface ParsedQuery {
  form: 'single-line' | 'multi-line';
  entitySet?: WaterEntitySet;
  entitySetSpan?: SourceSpan;
  options: QueryOption[];
  select?: SelectField[];
  filter?: { text: MappedText; ast?: FilterNode };
  top?: number;
  count?: boolean;
  skiptoken?: string;
  diagnostics: QueryDiagnostic[];
}

export const QUERY_OPTIONS = ['$select', '$filter', '$top', '$skiptoken', '$count'] as const;
const REMOVED: Record<string, string> = {
  $orderby: '$orderby was removed from the service on 2022-12-09; rows come in Id order',
  $skip: '$skip was removed from the service on 2022-12-09; paging follows @odata.nextLink ($skiptoken)',
};
const OTHER_ODATA = ['$expand', '$search', '$apply', '$format', '$compute', '$levels', '$index'];

export function entitySetSuggestion(name: string): WaterEntitySet | undefined {
  const lower = name.toLowerCase().replace(/\/$/, '');
  return WATER_ENTITY_SETS.find(
    (s) =>
      s.toLowerCase() === lower || s.toLowerCase() === lower + 's' || s.toLowerCase().startsWith(lower.slice(0, 4)),
  );
}

/** The entity set a request line names, if it is one. */
export function entitySetOf(layout: CellLayout): WaterEntitySet | undefined {
  const name = requestPath(layout)?.name;
  return name && (WATER_ENTITY_SETS as readonly string[]).includes(name) ? (name as WaterEntitySet) : undefined;
}

function requestPath(layout: CellLayout): { name: string; span: SourceSpan } | undefined {
  const request = layout.request;
  if (!request) return undefined;
  const { rest, query, pathStart } = request;
  const pathText = (query < 0 ? rest : rest.slice(0, query)).trimEnd();
  const name = pathText.replace(/^\/+/, '');
  const start = pathStart + (pathText.length - name.length);
  return { name, span: { start, end: start + name.length } };
}

export function parseQuery(cellText: string): ParsedQuery {
  const diagnostics: QueryDiagnostic[] = [];
  const layout = readLayout(cellText);
  const result: ParsedQuery = { form: 'single-line', options: [], diagnostics };
  const request = layout.request;
  const path = requestPath(layout);
  if (!request || !path) {
    diagnostics.push({
      start: 0,
      end: 0,
      message: 'Empty query: write an entity set such as /Locations?$top=5',
      severity: 'error',
    });
    return result;
  }
  result.form = layout.lines.some((l, i) => i > request.line && l.role !== 'blank' && l.role !== 'comment')
    ? 'multi-line'
    : 'single-line';

  // Request line: optional GET, optional base URL, the entity set, optional ?query.
  const { name: setName, span: setSpan } = path;
  result.entitySetSpan = setSpan;
  if (!setName) {
    diagnostics.push({
      ...setSpan,
      end: setSpan.start + Math.max(1, request.rest.length),
      message: 'Start with an entity set: /Metadata, /Locations, /Observations or /Records',
      severity: 'error',
    });
  } else if ((WATER_ENTITY_SETS as readonly string[]).includes(setName)) {
    result.entitySet = setName as WaterEntitySet;
  } else {
    const hint = entitySetSuggestion(setName);
    diagnostics.push({
      ...setSpan,
      message: `Unknown entity set "${setName}"${hint ? `: did you mean ${hint}?` : ''} (Metadata, Locations, Observations, Records)`,
      severity: 'error',
    });
  }

  for (const line of layout.lines)
    if (line.role === 'stray')
      diagnostics.push({
        start: line.start,
        end: line.start + line.text.length,
        message: 'Expected a query option such as $filter=… or $top=… (or put the whole query on one line)',
        severity: 'error',
      });

  const optionsRaw = layout.options.map((o) => {
    const eq = o.piece.text.indexOf('=');
    const name = eq < 0 ? o.piece : trimMapped(sliceMapped(o.piece, 0, eq));
    const value = eq < 0 ? emptyMapped(o.piece.offsets[o.piece.text.length]) : trimMapped(sliceMapped(o.piece, eq + 1));
    return { name, value: [value, ...o.more.map((i) => lineText(layout.lines[i]))], encoded: o.encoded };
  });

  const seen = new Set<string>();
  for (const raw of optionsRaw) {
    const nameDecoded = percentDecode(raw.name, false);
    let name = nameDecoded.text.trim();
    const nameSpan = sourceRange(raw.name, 0, raw.name.text.length);
    if (!name) {
      diagnostics.push({
        ...nameSpan,
        end: nameSpan.start + 1,
        message: 'Empty query option: remove the stray "&"',
        severity: 'error',
      });
      continue;
    }
    if (!name.startsWith('$') && BARE_NAMES.includes(name.toLowerCase()) && !/^api_?key$/i.test(name))
      name = `$${name}`;
    name = name.startsWith('$') ? `$${name.slice(1).toLowerCase()}` : name;
    const parts = raw.value.filter((v, i) => i === 0 || v.text.length > 0);
    let value = joinMapped(parts, ' ');
    if (raw.encoded || looksPercentEncoded(value.text)) value = percentDecode(value, raw.encoded);
    value = trimMapped(value);

    if (/^api_?key$/i.test(name)) {
      diagnostics.push({
        ...nameSpan,
        end: sourceRange(value, 0, value.text.length).end,
        message:
          'Never put the API key in a query: it is sent as the x-api-key header from VS Code secret storage (command "API Workbench: Set API Key…")',
        severity: 'error',
      });
      continue;
    }
    const removed = ownValue(REMOVED, name);
    if (removed) {
      diagnostics.push({ ...nameSpan, message: removed, severity: 'error' });
      continue;
    }
    if (!(QUERY_OPTIONS as readonly string[]).includes(name)) {
      const msg = OTHER_ODATA.includes(name)
        ? `${name} is not supported by this service; options are ${QUERY_OPTIONS.join(', ')}`
        : `Unknown query option "${name}"; options are ${QUERY_OPTIONS.join(', ')}`;
      diagnostics.push({ ...nameSpan, message: msg, severity: 'error' });
      continue;
    }
    if (seen.has(name)) {
      diagnostics.push({ ...nameSpan, message: `${name} is given twice; keep one`, severity: 'error' });
      continue;
    }
    seen.add(name);
    result.options.push({ name, nameSpan, value });
    readOption(result, name, nameSpan, value);
  }
  return result;
}

function readOption(result: ParsedQuery, name: string, nameSpan: SourceSpan, value: MappedText): void {
  const d = result.diagnostics;
  const whole = value.text.length
    ? sourceRange(value, 0, value.text.length)
    : { start: nameSpan.start, end: nameSpan.end };
  const missing = (what: string): void =>
    void d.push({ ...whole, message: `${name} needs a value: ${what}`, severity: 'error' });
  switch (name) {
    case '$select': {
      if (!value.text) return missing('a comma-separated list of fields');
      const fields: SelectField[] = [];
      let pos = 0;
      for (const item of value.text.split(',')) {
        const lead = item.length - item.trimStart().length;
        const nameText = item.trim();
        const span = sourceRange(value, pos + lead, pos + lead + nameText.length);
        if (!nameText)
          d.push({
            ...sourceRange(value, Math.max(0, pos - 1), pos + 1),
            message: 'Empty field in $select (two commas in a row?)',
            severity: 'error',
          });
        else fields.push({ name: nameText, ...span });
        pos += item.length + 1;
      }
      result.select = fields;
      return;
    }
    case '$filter': {
      if (!value.text) return missing("a condition such as RegionId eq 'hub.atlantic'");
      result.filter = { text: value };
      try {
        result.filter.ast = parseFilter(value.text);
      } catch (e) {
        if (!(e instanceof FilterSyntaxError)) throw e;
        const span = sourceRange(value, e.problem.start, Math.max(e.problem.end, e.problem.start + 1));
        if (e.problem.start >= value.text.length) span.start = span.end = whole.end;
        d.push({ ...span, end: Math.max(span.end, span.start), message: e.problem.message, severity: 'error' });
      }
      return;
    }
    case '$top': {
      if (!value.text) return missing('a number from 1 to 10000');
      if (!/^\d+$/.test(value.text))
        return void d.push({
          ...whole,
          message: `$top must be a whole number from 1 to 10000, not "${value.text}"`,
          severity: 'error',
        });
      const n = Number(value.text);
      if (n < 1) return void d.push({ ...whole, message: '$top must be at least 1', severity: 'error' });
      if (n > 10000)
        return void d.push({
          ...whole,
          message: `$top is at most 10000 (the service rejects ${n}); the notebook pages through larger results for you`,
          severity: 'error',
        });
      result.top = n;
      return;
    }
    case '$count': {
      const v = value.text.toLowerCase();
      if (v !== 'true' && v !== 'false')
        return void d.push({ ...whole, message: '$count is true or false', severity: 'error' });
      result.count = v === 'true';
      return;
    }
    case '$skiptoken': {
      const m = /^Id:(.+)$/.exec(value.text);
      if (!m)
        return void d.push({
          ...whole,
          message: '$skiptoken has the form Id:<id> (better: let the notebook follow @odata.nextLink)',
          severity: 'error',
        });
      const metadata = result.entitySet === 'Metadata';
      const ok = metadata
        ? /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(m[1])
        : /^\d+$/.test(m[1]);
      if (!ok)
        d.push({
          ...whole,
          message: metadata
            ? 'Metadata ids are UUIDs: Id:000000ab-000a-00a0-0aba-0ab00abc0a0a'
            : 'Ids are whole numbers: Id:1234',
          severity: 'error',
        });
      else result.skiptoken = value.text;
      return;
    }
  }
}
