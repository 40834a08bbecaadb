// The discovery model: one walk over the parsed value that knows the format's shape, so a
// "$ref" key inside a `properties` map is read as a property name and never as a reference.
// Everything the rules and editor features look up (schemas, refs, methods, scopes) is indexed here.
import type { JsonPath } from './jsonTree';

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export type SchemaContext =
  | 'schema'
  | 'property'
  | 'items'
  | 'additionalProperties'
  | 'parameter'
  | 'globalParameter'
  | 'request'
  | 'response'
  | 'variant';

export interface SchemaNode {
  readonly path: JsonPath;
  value: Obj;
  context: SchemaContext;
  /** The method owning a parameter/request/response schema. */
  method?: MethodEntry;
  /** Name of the top-level schema this node sits in, if any. */
  inSchema?: string;
}

export interface SchemaDef {
  name: string;
  path: JsonPath;
  value: Obj;
}

export interface RefSite {
  readonly target: string;
  /** Path of the "$ref" string value. */
  readonly path: JsonPath;
  /** The schema node holding the "$ref". */
  holder: SchemaNode;
}

export interface MethodEntry {
  name: string;
  id: string | undefined;
  path: JsonPath;
  value: Obj;
  /** Names of the enclosing resources, outermost first. */
  resource: string[];
}

export interface ResourceEntry {
  name: string;
  path: JsonPath;
  value: Obj;
  resource: string[];
}

export interface ScopeEntry {
  name: string;
  path: JsonPath;
  description: string | undefined;
}

export interface DiscoveryModel {
  readonly root: Obj;
  readonly schemas: Map<string, SchemaDef>;
  readonly schemaNodes: SchemaNode[];
  readonly refs: RefSite[];
  readonly refsByTarget: Map<string, RefSite[]>;
  readonly methods: MethodEntry[];
  readonly methodsById: Map<string, MethodEntry[]>;
  readonly resources: ResourceEntry[];
  readonly scopes: Map<string, ScopeEntry>;
  /** Every scope named by a method, with where. */
  readonly scopeUses: { scope: string; path: JsonPath; method: MethodEntry }[];
  readonly globalParameters: Map<string, Obj>;
}

const SCHEMAS: JsonPath = ['schemas'];
const PARAMETERS: JsonPath = ['parameters'];

class LazyNode implements SchemaNode {
  private cached: JsonPath | undefined;
  constructor(
    readonly value: Obj,
    readonly context: SchemaContext,
    private readonly parent: LazyNode | JsonPath,
    private readonly seg1: string | number,
    private readonly seg2: string | undefined,
    readonly method?: MethodEntry,
    readonly inSchema?: string,
  ) {}

  get path(): JsonPath {
    if (!this.cached) {
      const base = this.parent instanceof LazyNode ? this.parent.path : this.parent;
      this.cached = this.seg2 === undefined ? [...base, this.seg1] : [...base, this.seg1, this.seg2];
    }
    return this.cached;
  }
}

class LazyRef implements RefSite {
  constructor(
    readonly target: string,
    readonly holder: SchemaNode,
  ) {}
  get path(): JsonPath {
    return [...this.holder.path, '$ref'];
  }
}

/** A scope a method names; its path is built only for a finding (compute names 2,788 of them). */
class ScopeUse {
  constructor(
    readonly scope: string,
    private readonly index: number,
    readonly method: MethodEntry,
  ) {}
  get path(): JsonPath {
    return [...this.method.path, 'scopes', this.index];
  }
}

/** Guards the walk against pathological nesting that slipped past the parser's limit. */
const MAX_SCHEMA_DEPTH = 200;

export function buildModel(root: Obj): DiscoveryModel {
  const schemas = new Map<string, SchemaDef>();
  const schemaNodes: SchemaNode[] = [];
  const refs: RefSite[] = [];
  const refsByTarget = new Map<string, RefSite[]>();
  const methods: MethodEntry[] = [];
  const methodsById = new Map<string, MethodEntry[]>();
  const resources: ResourceEntry[] = [];
  const scopes = new Map<string, ScopeEntry>();
  const scopeUses: DiscoveryModel['scopeUses'] = [];
  const globalParameters = new Map<string, Obj>();

  // Paths are built only when asked for (a finding, a navigation index): a 4 MB document has
  // 11,000 schema nodes and most of them never need theirs.
  const visitSchema = (
    value: unknown,
    parent: LazyNode | JsonPath,
    seg1: string | number,
    seg2: string | undefined,
    context: SchemaContext,
    depth: number,
    method?: MethodEntry,
    inSchema?: string,
  ): void => {
    if (!isObj(value) || depth > MAX_SCHEMA_DEPTH) return;
    const node = new LazyNode(value, context, parent, seg1, seg2, method, inSchema);
    schemaNodes.push(node);
    const ref = value.$ref;
    if (typeof ref === 'string') {
      const site = new LazyRef(ref, node);
      refs.push(site);
      const list = refsByTarget.get(ref);
      if (list) list.push(site);
      else refsByTarget.set(ref, [site]);
    }
    const props = value.properties;
    if (isObj(props)) {
      for (const k in props) visitSchema(props[k], node, 'properties', k, 'property', depth + 1, method, inSchema);
    }
    if (value.items !== undefined)
      visitSchema(value.items, node, 'items', undefined, 'items', depth + 1, method, inSchema);
    if (isObj(value.additionalProperties)) {
      visitSchema(
        value.additionalProperties,
        node,
        'additionalProperties',
        undefined,
        'additionalProperties',
        depth + 1,
        method,
        inSchema,
      );
    }
    const variant = value.variant;
    if (isObj(variant) && Array.isArray(variant.map)) {
      // Two segments ('variant', 'map') then the index: hang the entries off a synthetic parent path.
      const base = [...node.path, 'variant', 'map'];
      const entries: unknown[] = variant.map;
      for (let i = 0; i < entries.length; i++)
        visitSchema(entries[i], base, i, undefined, 'variant', depth + 1, method, inSchema);
    }
  };

  const visitMethods = (map: unknown, base: JsonPath, resource: string[]): void => {
    if (!isObj(map)) return;
    for (const name of Object.keys(map)) {
      const value = map[name];
      if (!isObj(value)) continue;
      const path = [...base, name];
      const entry: MethodEntry = {
        name,
        id: typeof value.id === 'string' ? value.id : undefined,
        path,
        value,
        resource,
      };
      methods.push(entry);
      if (entry.id !== undefined) {
        const list = methodsById.get(entry.id);
        if (list) list.push(entry);
        else methodsById.set(entry.id, [entry]);
      }
      if (isObj(value.parameters)) {
        for (const p in value.parameters)
          visitSchema(value.parameters[p], path, 'parameters', p, 'parameter', 1, entry);
      }
      if (value.request !== undefined) visitSchema(value.request, path, 'request', undefined, 'request', 1, entry);
      if (value.response !== undefined) visitSchema(value.response, path, 'response', undefined, 'response', 1, entry);
      if (Array.isArray(value.scopes)) {
        const list: unknown[] = value.scopes;
        for (let i = 0; i < list.length; i++) {
          const s = list[i];
          if (typeof s === 'string') scopeUses.push(new ScopeUse(s, i, entry));
        }
      }
    }
  };

  const visitResources = (map: unknown, base: JsonPath, outer: string[], depth: number): void => {
    if (!isObj(map) || depth > MAX_SCHEMA_DEPTH) return;
    for (const name of Object.keys(map)) {
      const value = map[name];
      if (!isObj(value)) continue;
      const path = [...base, name];
      const chain = [...outer, name];
      resources.push({ name, path, value, resource: chain });
      visitMethods(value.methods, [...path, 'methods'], chain);
      visitResources(value.resources, [...path, 'resources'], chain, depth + 1);
    }
  };

  if (isObj(root.schemas)) {
    for (const name of Object.keys(root.schemas)) {
      const value = root.schemas[name];
      if (isObj(value)) schemas.set(name, { name, path: ['schemas', name], value });
      visitSchema(value, SCHEMAS, name, undefined, 'schema', 0, undefined, name);
    }
  }
  if (isObj(root.parameters)) {
    for (const p of Object.keys(root.parameters)) {
      const value = root.parameters[p];
      if (isObj(value)) globalParameters.set(p, value);
      visitSchema(value, PARAMETERS, p, undefined, 'globalParameter', 1);
    }
  }
  const auth = root.auth;
  if (isObj(auth) && isObj(auth.oauth2) && isObj(auth.oauth2.scopes)) {
    const map = auth.oauth2.scopes;
    for (const name of Object.keys(map)) {
      const v = map[name];
      scopes.set(name, {
        name,
        path: ['auth', 'oauth2', 'scopes', name],
        description: isObj(v) && typeof v.description === 'string' ? v.description : undefined,
      });
    }
  }
  visitMethods(root.methods, ['methods'], []);
  visitResources(root.resources, ['resources'], [], 0);

  return {
    root,
    schemas,
    schemaNodes,
    refs,
    refsByTarget,
    methods,
    methodsById,
    resources,
    scopes,
    scopeUses,
    globalParameters,
  };
}
