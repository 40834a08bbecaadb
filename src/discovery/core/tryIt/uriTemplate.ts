// RFC 6570 URI Template expansion (levels 1–4), as discovery paths use it: `{name}` escapes everything but
// unreserved characters, `{+name}` (reserved expansion) keeps reserved ones such as "/" so a resource name
// like projects/p/locations/l stays a path. Values are strings or lists of strings (repeated parameters).

import { ownValue } from '../../../shared/wire/ownKeys';

export type TemplateValue = string | readonly string[] | undefined;

interface Operator {
  first: string;
  sep: string;
  named: boolean;
  ifEmpty: string;
  allowReserved: boolean;
}

const OPERATORS: Record<string, Operator> = {
  '': { first: '', sep: ',', named: false, ifEmpty: '', allowReserved: false },
  '+': { first: '', sep: ',', named: false, ifEmpty: '', allowReserved: true },
  '#': { first: '#', sep: ',', named: false, ifEmpty: '', allowReserved: true },
  '.': { first: '.', sep: '.', named: false, ifEmpty: '', allowReserved: false },
  '/': { first: '/', sep: '/', named: false, ifEmpty: '', allowReserved: false },
  ';': { first: ';', sep: ';', named: true, ifEmpty: '', allowReserved: false },
  '?': { first: '?', sep: '&', named: true, ifEmpty: '=', allowReserved: false },
  '&': { first: '&', sep: '&', named: true, ifEmpty: '=', allowReserved: false },
};

/** Percent-encodes UTF-8; unreserved always pass, reserved ones (and existing %XX triplets) only when allowed. */
function encode(value: string, allowReserved: boolean): string {
  let out = '';
  const bytes = new TextEncoder().encode(value);
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    const c = String.fromCharCode(b);
    if (/[A-Za-z0-9\-._~]/.test(c)) out += c;
    else if (allowReserved && /[:/?#[\]@!$&'()*+,;=]/.test(c)) out += c;
    else if (
      allowReserved &&
      c === '%' &&
      i + 2 < bytes.length &&
      /^[0-9A-Fa-f]{2}$/.test(String.fromCharCode(bytes[i + 1], bytes[i + 2]))
    )
      out += c;
    else out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

function expandVariable(op: Operator, spec: string, vars: Record<string, TemplateValue>): string | undefined {
  const explode = spec.endsWith('*');
  const [name, prefixText] = (explode ? spec.slice(0, -1) : spec).split(':');
  const prefix = prefixText !== undefined ? Number(prefixText) : undefined;
  const value = ownValue(vars, name);
  if (value === undefined || (Array.isArray(value) && value.length === 0)) return undefined;
  if (typeof value === 'string') {
    // A prefix counts characters (code points), not bytes.
    const v = prefix !== undefined && prefix > 0 ? [...value].slice(0, prefix).join('') : value;
    const enc = encode(v, op.allowReserved);
    if (!op.named) return enc;
    return v === '' ? name + op.ifEmpty : `${name}=${enc}`;
  }
  const list: readonly string[] = value;
  const items = list.map((v) => encode(v, op.allowReserved));
  if (!explode) {
    const joined = items.join(',');
    return op.named ? `${name}=${joined}` : joined;
  }
  return op.named
    ? items.map((v, i) => (list[i] === '' ? name + op.ifEmpty : `${name}=${v}`)).join(op.sep)
    : items.join(op.sep);
}

/** Expands a URI template; literal text outside expressions is kept (with characters a URI cannot hold escaped). */
export function expandTemplate(template: string, vars: Record<string, TemplateValue>): string {
  return template.replace(/\{([^{}]*)\}|([^{}]+)/g, (all, expr: string | undefined, literal: string | undefined) => {
    if (literal !== undefined) return encode(literal, true);
    const e = expr ?? '';
    const op = OPERATORS[e[0]] ? e[0] : '';
    const o = OPERATORS[op];
    const parts = e
      .slice(op.length)
      .split(',')
      .map((spec) => expandVariable(o, spec, vars))
      .filter((p): p is string => p !== undefined);
    return parts.length ? o.first + parts.join(o.sep) : '';
  });
}
