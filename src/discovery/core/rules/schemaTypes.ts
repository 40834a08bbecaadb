import type { SchemaNode } from '../model';
import { schemaNodeRule, type Report } from './types';

export const JSON_TYPES = ['any', 'array', 'boolean', 'integer', 'number', 'object', 'string', 'null'] as const;
const TYPES = new Set<string>(JSON_TYPES);

/** Formats by the type they belong to (reference §3; 64-bit integers travel as strings). */
export const FORMATS_BY_TYPE: Record<string, readonly string[]> = {
  string: [
    'int64',
    'uint64',
    'byte',
    'date',
    'date-time',
    'google-datetime',
    'google-duration',
    'google-fieldmask',
    'fixed64',
  ],
  integer: ['int32', 'uint32', 'fixed32'],
  number: ['float', 'double'],
};
const FORMAT_OWNER = new Map<string, string>();
for (const [t, fs] of Object.entries(FORMATS_BY_TYPE)) for (const f of fs) FORMAT_OWNER.set(f, t);

export const typeUnknown = schemaNodeRule(
  {
    code: 'type-unknown',
    nodeKey: 'type',
    defaultSeverity: 'error',
    summary: '`type` is one of any, array, boolean, integer, number, object, string, null.',
  },
  (n, model, report) => {
    const t = n.value.type;
    if (t === undefined || (typeof t === 'string' && TYPES.has(t))) return;
    const lower = typeof t === 'string' && TYPES.has(t.toLowerCase()) ? t.toLowerCase() : undefined;
    report({
      path: [...n.path, 'type'],
      message: `Type ${JSON.stringify(t)} is not a JSON-schema type${lower ? `; write "${lower}"` : '; use string, integer, number, boolean, object, array or any'}.`,
      data: { replacement: lower },
    });
  },
);

export const arrayWithoutItems = schemaNodeRule(
  {
    code: 'array-without-items',
    nodeKey: 'type',
    defaultSeverity: 'error',
    summary: 'A schema of `"type": "array"` has `items`.',
  },
  (n, model, report) => {
    if (n.value.type === 'array' && n.value.items === undefined && n.value.$ref === undefined) {
      report({
        path: [...n.path, 'type'],
        message:
          'Array schema without "items": generators cannot type its elements. Add "items", e.g. {"type": "string"}.',
      });
    }
  },
);

export const itemsOnNonArray = schemaNodeRule(
  {
    code: 'items-on-non-array',
    nodeKey: 'items',
    defaultSeverity: 'error',
    summary: '`items` appears only on array schemas.',
  },
  (n, model, report) => {
    const t = n.value.type;
    if (n.value.items !== undefined && typeof t === 'string' && t !== 'array' && t !== 'any') {
      report({
        path: [...n.path, 'items'],
        at: 'key',
        message: `"items" on a schema of type "${t}" is ignored; set "type": "array" or remove "items".`,
      });
    }
  },
);

function misplaced(n: SchemaNode, t: string, key: 'properties' | 'additionalProperties', report: Report): void {
  report({
    path: [...n.path, key],
    at: 'key',
    message: `"${key}" on a schema of type "${t}" is ignored; set "type": "object" or remove "${key}".`,
  });
}

export const propertiesOnNonObject = schemaNodeRule(
  {
    code: 'properties-on-non-object',
    nodeKey: 'type',
    defaultSeverity: 'error',
    summary: '`properties` and `additionalProperties` appear only on object schemas.',
  },
  (n, model, report) => {
    const t = n.value.type;
    if (typeof t !== 'string' || t === 'object' || t === 'any') return;
    // Named loads: a key read from the list was a keyed load on every schema node of every shape.
    if (n.value.properties !== undefined) misplaced(n, t, 'properties', report);
    if (n.value.additionalProperties !== undefined) misplaced(n, t, 'additionalProperties', report);
  },
);

export const formatTypeMismatch = schemaNodeRule(
  {
    code: 'format-type-mismatch',
    nodeKey: 'format',
    defaultSeverity: 'warning',
    summary: 'A known `format` sits on its type (e.g. int64 and uint64 on string, int32 on integer, double on number).',
  },
  (n, model, report) => {
    const { format, type } = n.value;
    if (typeof format !== 'string' || typeof type !== 'string') return;
    const owner = FORMAT_OWNER.get(format);
    if (owner && owner !== type) {
      const note =
        owner === 'string' && (format === 'int64' || format === 'uint64')
          ? ' (64-bit integers travel as JSON strings)'
          : '';
      report({
        path: [...n.path, 'format'],
        message: `Format "${format}" belongs on type "${owner}"${note}, not "${type}".`,
        data: { expectedType: owner },
      });
    }
  },
);

export const formatUnknown = schemaNodeRule(
  {
    code: 'format-unknown',
    nodeKey: 'format',
    defaultSeverity: 'info',
    summary: "`format` is one the format's generators know.",
  },
  (n, model, report) => {
    const format = n.value.format;
    if (typeof format !== 'string' || FORMAT_OWNER.has(format) || format.startsWith('google.protobuf.')) return;
    report({
      path: [...n.path, 'format'],
      message: `Format "${format}" is not one generators know; they will treat the value as its plain type.`,
    });
  },
);

const compiled = new Map<string, boolean>();
const MAX_CACHED_PATTERNS = 20000;

/** Whether a pattern compiles (memoised: real documents repeat the same few thousand patterns). */
export function patternCompiles(pattern: string): boolean {
  let ok = compiled.get(pattern);
  if (ok === undefined) {
    ok = re2ToRegExp(pattern) !== undefined;
    if (compiled.size >= MAX_CACHED_PATTERNS) compiled.clear();
    compiled.set(pattern, ok);
  }
  return ok;
}

/** Translates the RE2 features real documents use into ECMAScript; undefined when it cannot. */
export function re2ToRegExp(pattern: string): RegExp | undefined {
  let flags = '';
  let p = pattern.replace(/^\(\?([imsU]+)\)/, (_, f: string) => {
    flags = [...new Set(f.replace('U', ''))].join('');
    return '';
  });
  p = p
    .replace(/\(\?P</g, '(?<')
    .replace(/\\A/g, '^')
    .replace(/\\z/g, '$');
  try {
    return new RegExp(p, flags);
  } catch {
    return undefined;
  }
}

export const patternInvalid = schemaNodeRule(
  {
    code: 'pattern-invalid',
    nodeKey: 'pattern',
    defaultSeverity: 'warning',
    summary:
      '`pattern` is a regular expression (RE2 syntax, checked after translating `(?i)`, `(?P<…>)`, `\\A`, `\\z`).',
  },
  (n, model, report) => {
    const p = n.value.pattern;
    if (typeof p !== 'string') return;
    if (!patternCompiles(p))
      report({
        path: [...n.path, 'pattern'],
        message: `Pattern ${JSON.stringify(p)} does not compile as a regular expression; clients cannot check values against it.`,
      });
  },
);
