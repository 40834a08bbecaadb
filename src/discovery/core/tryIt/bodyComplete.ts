// Completion in the Try it body editor: given the method's request schema, the text and the cursor, what may
// go there (property names, enum values, true/false/null). The text is read left to right up to the cursor
// with a small tolerant scanner rather than parsed: while typing, the body is nearly always unfinished
// (`{"title": "a", "lab`), and a parse of the whole text would place the cursor in the wrong container.
import { isObj, type Obj } from '../model';
import { ownValue } from '../../../shared/wire/ownKeys';

export interface BodyCompletion {
  label: string;
  kind: 'property' | 'value';
  /** The type, e.g. "string (int64)", "File", "array of Label". */
  detail?: string;
  documentation?: string;
  required?: boolean;
  deprecated?: boolean;
  insertText: string;
  /** Where the caret goes within `insertText` once it is inserted. */
  caret: number;
  /** A value is expected right after this item (an enum or boolean property): ask again. */
  retrigger?: boolean;
}

export interface BodyCompletions {
  /** The text an item replaces (the partial name or value typed, with its quotes). */
  replace: { offset: number; length: number };
  /** A comma to insert here first: the cursor follows a member that has none. */
  commaAt?: number;
  items: BodyCompletion[];
}

const MAX_ITEMS = 200;

type Frame =
  | { kind: 'root'; state: 'value' | 'after' }
  | { kind: 'object'; state: 'key' | 'colon' | 'value' | 'after'; key: string; keys: Set<string>; lastEnd: number }
  | { kind: 'array'; state: 'value' | 'after'; index: number; lastEnd: number };

const isSpace = (c: string) => c === ' ' || c === '\n' || c === '\r' || c === '\t';
const isWord = (c: string) => /[A-Za-z0-9_.+-]/.test(c);

/** The end of a string token that starts at `start` (after its closing quote), or -1 if it runs to `limit`. */
function stringEnd(text: string, start: number, limit: number): number {
  for (let i = start + 1; i < limit; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
    else if (text[i] === '\n') return -1;
  }
  return -1;
}

/** A value (string or word) finished in the top frame. */
function valueDone(top: Frame, end: number): void {
  if (top.kind === 'root') top.state = 'after';
  else if (top.kind === 'array') {
    top.state = 'after';
    top.lastEnd = end;
  } else if (top.state === 'value') {
    top.state = 'after';
    top.lastEnd = end;
  }
}

interface Scan {
  stack: Frame[];
  /** The token the cursor is in or right after: an unterminated string or a bare word. */
  partial?: { start: number; string: boolean };
}

function scan(text: string, offset: number): Scan {
  const stack: Frame[] = [{ kind: 'root', state: 'value' }];
  let partial: Scan['partial'];
  let i = 0;
  while (i < offset) {
    const c = text[i];
    const top = stack[stack.length - 1];
    partial = undefined;
    if (isSpace(c)) i++;
    else if (c === '"') {
      const end = stringEnd(text, i, offset);
      if (end < 0) {
        partial = { start: i, string: true };
        break;
      }
      if (top.kind === 'object' && (top.state === 'key' || top.state === 'after')) {
        top.key = safeString(text.slice(i, end));
        top.keys.add(top.key);
        top.state = 'colon';
      } else valueDone(top, end);
      i = end;
    } else if (c === '{' || c === '[') {
      if (top.kind === 'object' && top.state !== 'value') top.state = 'value';
      stack.push(
        c === '{'
          ? { kind: 'object', state: 'key', key: '', keys: new Set(), lastEnd: -1 }
          : { kind: 'array', state: 'value', index: 0, lastEnd: -1 },
      );
      i++;
    } else if (c === '}' || c === ']') {
      if (stack.length > 1) stack.pop();
      valueDone(stack[stack.length - 1], i + 1);
      i++;
    } else if (c === ':') {
      if (top.kind === 'object') top.state = 'value';
      i++;
    } else if (c === ',') {
      if (top.kind === 'object') top.state = 'key';
      else if (top.kind === 'array') {
        top.index++;
        top.state = 'value';
      }
      i++;
    } else {
      const start = i;
      while (i < offset && isWord(text[i])) i++;
      if (i === start) i++;
      else if (i === offset) partial = { start, string: false };
      else valueDone(top, i);
    }
  }
  return { stack, partial };
}

function safeString(token: string): string {
  try {
    return JSON.parse(token) as string;
  } catch {
    return token.slice(1, -1);
  }
}

/** Keys that follow the cursor in the same object: already there, so not proposed again. */
function keysAfter(text: string, from: number, into: Set<string>): void {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const end = stringEnd(text, i, text.length);
      if (end < 0) return;
      let j = end;
      while (j < text.length && isSpace(text[j])) j++;
      if (depth === 0 && text[j] === ':') into.add(safeString(text.slice(i, end)));
      i = end - 1;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      if (depth === 0) return;
      depth--;
    }
  }
}

function resolve(doc: Obj, s: unknown): Obj | undefined {
  const schemas = isObj(doc.schemas) ? doc.schemas : {};
  const r = isObj(s) && typeof s.$ref === 'string' ? ownValue(schemas, s.$ref) : s;
  return isObj(r) ? r : undefined;
}

function schemaAt(doc: Obj, root: unknown, path: (string | number)[]): Obj | undefined {
  let s = resolve(doc, root);
  for (const seg of path) {
    if (!s) return undefined;
    if (typeof seg === 'number') s = resolve(doc, s.items);
    else {
      const props = isObj(s.properties) ? s.properties : {};
      const prop = ownValue(props, seg);
      s = resolve(doc, isObj(prop) ? prop : s.additionalProperties);
    }
  }
  return s;
}

function typeLabel(doc: Obj, s0: unknown): string | undefined {
  if (isObj(s0) && typeof s0.$ref === 'string') return s0.$ref;
  const s = resolve(doc, s0);
  if (!s || typeof s.type !== 'string') return undefined;
  if (s.type === 'array') {
    const item = typeLabel(doc, s.items);
    return item ? `array of ${item}` : 'array';
  }
  if (s.type === 'object' && isObj(s.additionalProperties)) {
    const item = typeLabel(doc, s.additionalProperties);
    return item ? `map of ${item}` : 'object';
  }
  return typeof s.format === 'string' ? `${s.type} (${s.format})` : s.type;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v ? v : undefined;
}

function isRequired(p: Obj, methodId: string): boolean {
  return (
    p.required === true ||
    (isObj(p.annotations) && Array.isArray(p.annotations.required) && p.annotations.required.includes(methodId))
  );
}

/** What follows a property name typed into a gap: the colon and an empty value of its type. */
function memberSkeleton(doc: Obj, p: Obj): { text: string; caret: number; retrigger: boolean } {
  const s = resolve(doc, p);
  if (s && Array.isArray(s.enum)) return { text: ': ""', caret: 3, retrigger: true };
  switch (s?.type) {
    case 'string':
      return { text: ': ""', caret: 3, retrigger: false };
    case 'object':
      return { text: ': {}', caret: 3, retrigger: false };
    case 'array':
      return { text: ': []', caret: 3, retrigger: false };
    case 'boolean':
      return { text: ': ', caret: 2, retrigger: true };
    default:
      return { text: ': ', caret: 2, retrigger: false };
  }
}

function nextSignificant(text: string, from: number): string {
  let i = from;
  while (i < text.length && isSpace(text[i])) i++;
  return text[i] ?? '';
}

/** How much of the token under the cursor an item replaces: the partial typed and the rest of that token. */
function tokenEnd(text: string, partial: NonNullable<Scan['partial']>, offset: number): number {
  if (partial.string) {
    const end = stringEnd(text, partial.start, text.length);
    if (end >= 0 && !text.slice(offset, end).includes('\n')) return end;
  }
  let i = offset;
  while (i < text.length && isWord(text[i])) i++;
  if (partial.string && text[i] === '"') i++;
  return i;
}

function byMatch<T extends { label: string }>(items: T[], prefix: string): T[] {
  const p = prefix.toLowerCase();
  if (!p) return items;
  const starts = items.filter((i) => i.label.toLowerCase().startsWith(p));
  const inside = items.filter((i) => !i.label.toLowerCase().startsWith(p) && i.label.toLowerCase().includes(p));
  return [...starts, ...inside];
}

function propertyItems(
  doc: Obj,
  s: Obj,
  methodId: string,
  present: Set<string>,
  withValue: boolean,
  trailingComma: boolean,
): BodyCompletion[] {
  const props = isObj(s.properties) ? s.properties : {};
  const out: BodyCompletion[] = [];
  for (const [name, p] of Object.entries(props)) {
    if (!isObj(p) || present.has(name)) continue;
    // Output-only fields are ignored by the server (and flagged by the body check): never proposed.
    if (p.readOnly === true || /^\s*output only/i.test(str(p.description) ?? '')) continue;
    const key = JSON.stringify(name);
    const skeleton = withValue ? memberSkeleton(doc, p) : { text: '', caret: 0, retrigger: false };
    const detail = typeLabel(doc, p);
    const description = str(p.description) ?? str(resolve(doc, p)?.description);
    const item: BodyCompletion = {
      label: name,
      kind: 'property',
      insertText: key + skeleton.text + (trailingComma ? ',' : ''),
      caret: key.length + skeleton.caret,
    };
    if (detail) item.detail = detail;
    if (description) item.documentation = description;
    if (isRequired(p, methodId)) item.required = true;
    if (p.deprecated === true) item.deprecated = true;
    if (skeleton.retrigger) item.retrigger = true;
    out.push(item);
  }
  // Required first; otherwise the schema's own order, which is the order its reference lists them in.
  return [...out.filter((i) => i.required), ...out.filter((i) => !i.required)];
}

function valueItems(s: Obj | undefined): BodyCompletion[] {
  const out: BodyCompletion[] = [];
  const plain = (label: string, documentation?: string): BodyCompletion => ({
    label,
    kind: 'value',
    insertText: label,
    caret: label.length,
    ...(documentation ? { documentation } : {}),
  });
  if (s && Array.isArray(s.enum)) {
    const descriptions = Array.isArray(s.enumDescriptions) ? s.enumDescriptions : [];
    const deprecated = Array.isArray(s.enumDeprecated) ? s.enumDeprecated : [];
    s.enum.forEach((v, i) => {
      if (typeof v !== 'string') return;
      const text = JSON.stringify(v);
      out.push({
        label: v,
        kind: 'value',
        detail: 'enum',
        insertText: text,
        caret: text.length,
        ...(str(descriptions[i]) ? { documentation: str(descriptions[i]) } : {}),
        ...(deprecated[i] === true ? { deprecated: true } : {}),
      });
    });
  }
  const type = s?.type;
  if (type === 'boolean' || type === 'any' || type === undefined) out.push(plain('true'), plain('false'));
  if (type === 'object') out.push({ ...plain('{}'), caret: 1 });
  if (type === 'array') out.push({ ...plain('[]'), caret: 1 });
  out.push(plain('null', 'No value: in a patch, clears the field.'));
  return out;
}

/** Completion items for the body `text` at `offset`, from the method's request schema. */
export function completeBody(
  doc: Obj,
  schema: unknown,
  methodId: string,
  text: string,
  offset: number,
): BodyCompletions {
  const at = Math.max(0, Math.min(offset, text.length));
  const { stack, partial } = scan(text, at);
  const top = stack[stack.length - 1];
  const none: BodyCompletions = { replace: { offset: at, length: 0 }, items: [] };
  // The path of the top container: each enclosing container's member that holds the next one.
  const containerPath: (string | number)[] = [];
  for (let i = 1; i < stack.length - 1; i++) {
    const f = stack[i];
    containerPath.push(f.kind === 'object' ? f.key : f.kind === 'array' ? f.index : 0);
  }
  const start = partial ? partial.start : at;
  const end = partial ? tokenEnd(text, partial, at) : at;
  const prefix = partial ? text.slice(partial.string ? partial.start + 1 : partial.start, at) : '';
  const replace = { offset: start, length: end - start };

  if (top.kind === 'object' && (top.state === 'key' || top.state === 'after')) {
    const s = schemaAt(doc, schema, containerPath);
    if (!s) return none;
    const present = new Set(top.keys);
    keysAfter(text, end, present);
    const after = nextSignificant(text, end);
    const withValue = after !== ':';
    const trailingComma = withValue && after === '"';
    const items = byMatch(propertyItems(doc, s, methodId, present, withValue, trailingComma), prefix);
    const out: BodyCompletions = { replace, items: items.slice(0, MAX_ITEMS) };
    if (top.state === 'after' && top.lastEnd >= 0) out.commaAt = top.lastEnd;
    return out;
  }
  const valueHere =
    (top.kind === 'object' && top.state === 'value') ||
    (top.kind === 'array' && top.state === 'value') ||
    (top.kind === 'root' && top.state === 'value');
  if (!valueHere) return none;
  const valuePath =
    top.kind === 'object' ? [...containerPath, top.key] : top.kind === 'array' ? [...containerPath, top.index] : [];
  const s = schemaAt(doc, schema, valuePath);
  // A number typed is a number: nothing to propose for it.
  if (partial && !partial.string && /^[-\d]/.test(prefix)) return none;
  return { replace, items: byMatch(valueItems(s), prefix).slice(0, MAX_ITEMS) };
}
