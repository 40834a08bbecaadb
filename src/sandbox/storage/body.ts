// Request bodies of the storage emulator, read and type-checked against the schemas of our own
// description document before any handler sees them: the real front end rejects a wrongly typed
// member (`"parents": "abc"`) with a 400 naming the member, so handlers can trust the shapes they read.
import type { IncomingMessage } from 'node:http';
import store from '../../../schemas/store.v2.json';
import { readBody } from '../http';
import { ApiError } from './errors';

interface SchemaNode {
  type?: string;
  $ref?: string;
  items?: SchemaNode;
  properties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode;
  format?: string;
}

const SCHEMAS = (store as { schemas: Record<string, SchemaNode> }).schemas;

/** The schema names a request body may be checked against. */
export type BodySchema =
  | 'File'
  | 'Permission'
  | 'Property'
  | 'Revision'
  | 'Comment'
  | 'CommentReply'
  | 'Channel'
  | 'Drive'
  | 'ModifyLabelsRequest'
  | 'ChildReference'
  | 'ParentReference';

function invalid(path: string, expected: string): ApiError {
  return new ApiError(400, {
    domain: 'global',
    reason: 'invalid',
    message: `Invalid value for ${path || 'the request body'}: expected ${expected}.`,
    locationType: 'other',
    location: path || 'body',
  });
}

function own<T>(map: Record<string, T> | undefined, key: string): T | undefined {
  return map && Object.prototype.hasOwnProperty.call(map, key) ? map[key] : undefined;
}

/**
 * Checks `value` against a schema node. Unknown members pass (the service ignores them), null members pass
 * (they mean "unset") but a null element of a list does not, and int64/uint64 accept a number or a decimal string, as Google's JSON parser does.
 * Depth is bounded by the schemas (a recursive $ref only recurses as deep as the value nests).
 */
function check(value: unknown, node: SchemaNode, path: string, depth: number): void {
  if (value === null || value === undefined) return;
  if (depth > 64) throw invalid(path, 'a less deeply nested value');
  if (node.$ref) {
    const target = own(SCHEMAS, node.$ref);
    if (target) check(value, target, path, depth + 1);
    return;
  }
  switch (node.type) {
    case 'string':
      if (typeof value !== 'string') throw invalid(path, 'a string');
      return;
    case 'boolean':
      if (typeof value !== 'boolean') throw invalid(path, 'true or false');
      return;
    case 'integer':
    case 'number': {
      const numeric =
        typeof value === 'number' ? Number.isFinite(value) : typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value);
      if (!numeric) throw invalid(path, 'a number');
      return;
    }
    case 'array':
      if (!Array.isArray(value)) throw invalid(path, 'a list');
      // A null element is not "unset": it is a wrong-typed element (`"parents": [null]`), refused like one.
      value.forEach((v, i) => {
        if (v === null || v === undefined) throw invalid(`${path}[${i}]`, 'a value, not null');
        if (node.items) check(v, node.items, `${path}[${i}]`, depth + 1);
      });
      return;
    case 'object': {
      if (typeof value !== 'object' || Array.isArray(value)) throw invalid(path, 'an object');
      const rec = value as Record<string, unknown>;
      for (const key of Object.keys(rec)) {
        const sub = own(node.properties, key) ?? node.additionalProperties;
        if (sub) check(rec[key], sub, path ? `${path}.${key}` : key, depth + 1);
      }
      return;
    }
    default:
      return;
  }
}

/** Throws the service's 400 when `value` does not have the shape of the named schema. */
export function checkBody(value: unknown, schema: BodySchema): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid('', `a ${schema} object`);
  check(value, { type: 'object', ...SCHEMAS[schema] }, '', 0);
}

/** Reads a JSON request body of the given schema; `undefined` for an empty body. */
export async function readResource<T>(req: IncomingMessage, schema: BodySchema): Promise<T | undefined> {
  const buf = await readBody(req);
  if (buf.length === 0) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(buf.toString('utf8'));
  } catch {
    throw new ApiError(400, { domain: 'global', reason: 'parseError', message: 'Parse Error' });
  }
  checkBody(value, schema);
  return value as T;
}
