// An evaluation dataset: JSON Lines (`{"input": {…}, "expect": […]}` per line) or CSV (a header row of input
// variable names, one item per row). Every problem names a line of the dataset file.
import { schemaErrors } from './jsonSchema';

export interface DatasetItem {
  /** 0-based index of the item (the JSONL line or CSV row, not counting blank lines or the header). */
  index: number;
  /** 1-based line of the file where the item starts. */
  line: number;
  input: Record<string, unknown>;
  /** The item's own assertions, unparsed (see assertions.ts). */
  expect: unknown[];
}

export class DatasetError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function parseJsonl(text: string): DatasetItem[] {
  const items: DatasetItem[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = i + 1;
    if (!raw.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      throw new DatasetError(line, `not JSON (${(e as Error).message})`);
    }
    if (!isRecord(value)) throw new DatasetError(line, 'each line must be an object {"input": {…}, "expect": […]}');
    for (const k of Object.keys(value))
      if (k !== 'input' && k !== 'expect')
        throw new DatasetError(line, `unknown key "${k}" (a line has input and expect)`);
    if (!isRecord(value.input)) throw new DatasetError(line, '"input" must be an object of the prompt\'s variables');
    if (value.expect !== undefined && !Array.isArray(value.expect))
      throw new DatasetError(line, '"expect" must be a list of assertions');
    items.push({ index: items.length, line, input: value.input, expect: (value.expect as unknown[]) ?? [] });
  });
  return items;
}

/** RFC 4180 records with the 1-based line each starts on (quoted fields may hold commas, quotes and newlines). */
function csvRecords(text: string): { line: number; fields: string[] }[] {
  const out: { line: number; fields: string[] }[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  let any = false;
  const endRecord = () => {
    fields.push(field);
    if (any || fields.length > 1 || field !== '') out.push({ line: start, fields });
    fields = [];
    field = '';
    any = false;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === '\n') line++;
        field += c;
      }
      continue;
    }
    if (c === '"') {
      if (field !== '') throw new DatasetError(line, 'a quote inside an unquoted field (quote the whole field)');
      quoted = true;
      any = true;
    } else if (c === ',') {
      fields.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
      start = line;
    } else field += c;
  }
  if (quoted) throw new DatasetError(start, 'a quoted field is not closed');
  if (field !== '' || fields.length) endRecord();
  return out;
}

export function parseCsv(text: string): DatasetItem[] {
  const records = csvRecords(text.replace(/^\uFEFF/, ''));
  if (!records.length) throw new DatasetError(1, 'the CSV file is empty (the first row names the input variables)');
  const [header, ...rows] = records;
  const names = header.fields.map((f) => f.trim());
  const seen = new Set<string>();
  for (const n of names) {
    if (!n) throw new DatasetError(header.line, 'an empty column name in the header');
    if (seen.has(n)) throw new DatasetError(header.line, `the column "${n}" appears twice`);
    seen.add(n);
  }
  return rows.map((r, index) => {
    if (r.fields.length !== names.length)
      throw new DatasetError(r.line, `${r.fields.length} fields, but the header names ${names.length} columns`);
    return { index, line: r.line, input: Object.fromEntries(names.map((n, i) => [n, r.fields[i]])), expect: [] };
  });
}

export function parseDataset(text: string, fileName: string): DatasetItem[] {
  if (/\.csv$/i.test(fileName)) return parseCsv(text);
  if (/\.jsonl$|\.ndjson$/i.test(fileName)) return parseJsonl(text);
  throw new DatasetError(1, `${fileName}: a dataset is a .jsonl or a .csv file`);
}

/**
 * CSV values are text: where the prompt's input schema says a variable is a number, integer or boolean, the
 * text is read as one. Then each item's input is checked against the schema (a mismatch is the dataset's error).
 */
export function checkInputs(
  items: DatasetItem[],
  schema: Record<string, unknown> | undefined,
  csv: boolean,
  defaults: Record<string, unknown> = {},
): void {
  if (!schema) return;
  const props = isRecord(schema.properties) ? schema.properties : {};
  for (const item of items) {
    if (csv) {
      for (const [k, v] of Object.entries(item.input)) {
        const s = props[k];
        const types = isRecord(s) ? (Array.isArray(s.type) ? s.type.map(String) : [String(s.type)]) : [];
        if (typeof v !== 'string') continue;
        if (v === '' && types.includes('null')) item.input[k] = null;
        else if ((types.includes('number') || types.includes('integer')) && v.trim() !== '' && !Number.isNaN(Number(v)))
          item.input[k] = Number(v);
        else if (types.includes('boolean') && (v === 'true' || v === 'false')) item.input[k] = v === 'true';
      }
    }
    const errors = schemaErrors(schema, { ...defaults, ...item.input }, 'input');
    if (errors.length)
      throw new DatasetError(item.line, `the input does not match the prompt's input schema: ${errors.join('; ')}`);
  }
}
