// Request bodies of the generation emulator, type-checked against the schemas of our own description document
// (schemas/generation.v1beta.json) after proto-name normalisation: a member or list element of the wrong JSON
// type (`"parts": 5`, `"tools": ["x"]`) is the service's 400 INVALID_ARGUMENT naming where it is, never a
// handler's TypeError (a 500). Walked without recursion; members the schema does not name pass (the top level's
// unknown names are refused elsewhere), null members mean "unset".
import generation from '../../../schemas/generation.v1beta.json';

interface SchemaNode {
  type?: string;
  $ref?: string;
  format?: string;
  items?: SchemaNode;
  properties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode;
}

const SCHEMAS = (generation as { schemas: Record<string, SchemaNode> }).schemas;

function own<T>(map: Record<string, T> | undefined, key: string): T | undefined {
  return map && Object.prototype.hasOwnProperty.call(map, key) ? map[key] : undefined;
}

const NUMERIC = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

/** What `value` should have been at a node of `type`, or undefined when it fits. */
function mismatch(value: unknown, node: SchemaNode): string | undefined {
  switch (node.type) {
    case 'string':
      return typeof value === 'string' ? undefined : 'a string';
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'true or false';
    case 'integer':
    case 'number':
      // proto3 JSON takes numbers as JSON numbers or as decimal strings.
      return (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && NUMERIC.test(value))
        ? undefined
        : 'a number';
    case 'array':
      return Array.isArray(value) ? undefined : 'a list';
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value) ? undefined : 'an object';
    default:
      return undefined;
  }
}

/** The first wrong-typed member of a `schema` request body: where it is and what was expected. */
export function wrongTypeIn(body: unknown, schema: string): { path: string; expected: string } | undefined {
  const root = own(SCHEMAS, schema);
  if (!root) return undefined;
  const stack: [unknown, SchemaNode, string][] = [[body, { type: 'object', ...root }, '']];
  let budget = 1_000_000;
  while (stack.length && budget-- > 0) {
    const [value, raw, path] = stack.pop()!;
    if (value === null || value === undefined) continue;
    let node = raw;
    for (let hops = 0; node.$ref && hops < 16; hops++) {
      const target = own(SCHEMAS, node.$ref);
      if (!target) break;
      node = { type: 'object', ...target };
    }
    if (node.$ref) continue;
    const expected = mismatch(value, node);
    if (expected) return { path: path || 'the request body', expected };
    if (Array.isArray(value) && node.items) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], node.items, `${path}[${i}]`]);
    } else if (node.type === 'object' && typeof value === 'object') {
      const rec = value as Record<string, unknown>;
      const keys = Object.keys(rec);
      for (let i = keys.length - 1; i >= 0; i--) {
        const sub = own(node.properties, keys[i]) ?? node.additionalProperties;
        if (sub) stack.push([rec[keys[i]], sub, path ? `${path}.${keys[i]}` : keys[i]]);
      }
    }
  }
  return undefined;
}
