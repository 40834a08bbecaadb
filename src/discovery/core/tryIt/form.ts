// The Try it form of one method: its fields (path and query parameters, then the document's global ones), a
// request body seeded from the request schema, and what a media upload accepts. Plain data: the host sends
// it to the webview as is.
import { isObj, type Obj } from '../model';
import { ownValue, putOwn } from '../../../shared/wire/ownKeys';

export interface TryEnumValue {
  value: string;
  description?: string;
  deprecated?: boolean;
}

export interface TryField {
  name: string;
  location: 'path' | 'query';
  type: string;
  format?: string;
  required: boolean;
  repeated: boolean;
  description?: string;
  enum?: TryEnumValue[];
  default?: string;
  pattern?: string;
  /** One of the document's global parameters (alt, fields, key…), shown folded. */
  global: boolean;
}

export interface TryForm {
  methodId: string;
  httpMethod: string;
  /** rootUrl + servicePath + path, the template the URL is expanded from. */
  urlTemplate: string;
  fields: TryField[];
  /** The request schema's name and the JSON the editor starts from. */
  body?: { schema: string; seed: string };
  upload?: { accept: string[]; maxSize?: string };
  scopes: string[];
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** Where a method's path is relative to: rootUrl + servicePath, or rootUrl alone for a "/"-rooted path. */
export function baseUrlOf(doc: Obj, path: string): string {
  const root = str(doc.rootUrl) ?? (str(doc.baseUrl) ? new URL(str(doc.baseUrl)!).origin + '/' : '');
  if (path.startsWith('/')) return root.replace(/\/+$/, '');
  return str(doc.rootUrl) ? root + (str(doc.servicePath) ?? '') : (str(doc.baseUrl) ?? root);
}

function field(name: string, p: Obj, global: boolean): TryField {
  const enumValues = Array.isArray(p.enum) ? p.enum.filter((v): v is string => typeof v === 'string') : undefined;
  const descriptions = Array.isArray(p.enumDescriptions) ? p.enumDescriptions : [];
  const deprecated = Array.isArray(p.enumDeprecated) ? p.enumDeprecated : [];
  const f: TryField = {
    name,
    location: p.location === 'path' ? 'path' : 'query',
    type: str(p.type) ?? 'string',
    required: p.location === 'path' || p.required === true,
    repeated: p.repeated === true,
    global,
  };
  if (str(p.format)) f.format = str(p.format);
  if (str(p.description)) f.description = str(p.description);
  if (str(p.pattern)) f.pattern = str(p.pattern);
  if (typeof p.default === 'string' || typeof p.default === 'number' || typeof p.default === 'boolean')
    f.default = String(p.default);
  if (enumValues)
    f.enum = enumValues.map((value, i) => ({
      value,
      ...(typeof descriptions[i] === 'string' ? { description: descriptions[i] } : {}),
      ...(deprecated[i] === true ? { deprecated: true } : {}),
    }));
  return f;
}

/** Up to this many writable properties, the seed of a request body names them all. */
const SEED_ALL_MAX = 8;

/** A JSON value of the schema's shape: the properties a user fills in, output-only ones left out. */
export function seedValue(doc: Obj, schema: unknown, methodId: string, depth = 0): unknown {
  const schemas = isObj(doc.schemas) ? doc.schemas : {};
  const s = isObj(schema) && typeof schema.$ref === 'string' ? ownValue(schemas, schema.$ref) : schema;
  if (!isObj(s)) return null;
  if (Array.isArray(s.enum) && typeof s.enum[0] === 'string') return s.enum[0];
  switch (s.type) {
    case 'string':
      return s.format === 'int64' || s.format === 'uint64' ? '0' : '';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object': {
      if (!isObj(s.properties) || depth >= 2) return {};
      const writable = Object.entries(s.properties).filter(
        (e): e is [string, Obj] =>
          isObj(e[1]) && e[1].readOnly !== true && !/^\s*output only/i.test(str(e[1].description) ?? ''),
      );
      const required = (p: Obj) =>
        p.required === true ||
        (isObj(p.annotations) && Array.isArray(p.annotations.required) && p.annotations.required.includes(methodId));
      // What this method requires; at the top level of a small schema every field. A seed naming all 70 fields
      // of a big one (most set by the server) is noise: the body editor completes the rest.
      const all = depth === 0 && writable.length <= SEED_ALL_MAX;
      const out: Obj = {};
      for (const [name, p] of writable)
        if (all || required(p)) putOwn(out, name, seedValue(doc, p, methodId, depth + 1));
      return out;
    }
    default:
      return null;
  }
}

/** The form of a method; `globals` adds the document's global parameters after the method's own. */
export function tryItForm(doc: Obj, method: Obj, fallbackId: string): TryForm {
  const id = str(method.id) ?? fallbackId;
  const path = str(method.path) ?? '';
  const params = isObj(method.parameters) ? method.parameters : {};
  const order = Array.isArray(method.parameterOrder)
    ? method.parameterOrder.filter((n): n is string => typeof n === 'string')
    : [];
  const names = [...new Set([...order.filter((n) => Object.hasOwn(params, n)), ...Object.keys(params)])];
  const fields: TryField[] = [];
  for (const n of names) if (isObj(params[n])) fields.push(field(n, params[n], false));
  const globals = isObj(doc.parameters) ? doc.parameters : {};
  for (const [n, p] of Object.entries(globals))
    if (isObj(p) && !Object.hasOwn(params, n)) fields.push(field(n, p, true));
  const form: TryForm = {
    methodId: id,
    httpMethod: (str(method.httpMethod) ?? 'GET').toUpperCase(),
    urlTemplate: baseUrlOf(doc, path) + path,
    fields,
    scopes: Array.isArray(method.scopes) ? method.scopes.filter((s): s is string => typeof s === 'string') : [],
  };
  if (isObj(method.request))
    form.body = {
      schema: str(method.request.$ref) ?? 'object',
      seed: JSON.stringify(seedValue(doc, method.request, id), null, 2),
    };
  const media = isObj(method.mediaUpload) ? method.mediaUpload : undefined;
  if (media) {
    form.upload = {
      accept: Array.isArray(media.accept) ? media.accept.filter((a): a is string => typeof a === 'string') : [],
    };
    if (str(media.maxSize)) form.upload.maxSize = str(media.maxSize);
  }
  return form;
}
