// A discovery document → an OpenAPI 3.0 or 3.1 document. Editor-free; the CLI (`api-workbench openapi`)
// and the editor command (Export as OpenAPI…) both call `toOpenApi`.
import { isRestDescriptionValue } from '../detect';
import { isObj, type Obj } from '../model';
import { convertParameter, mainOperation, OAUTH2_SCHEME, uploadOperations, type MethodContext } from './operations';
import { operationTemplates, parsePathTemplate, pathShape, type PathTemplate } from './paths';
import { componentName, convertSchema, MAX_SCHEMA_DEPTH, own, put, type OpenApiVersion } from './schemas';

export type { OpenApiVersion } from './schemas';

export class NotDiscoveryDocumentError extends Error {
  override readonly name = 'NotDiscoveryDocumentError';
}

export interface OpenApiResult {
  document: Obj;
  /**
   * One line each: a method that could not become an operation (two methods on one URL and verb, neither
   * with another form of its path), a schema nested too deep to convert whole.
   */
  warnings: string[];
}

/**
 * The discovery format does not name its OAuth endpoints; every discovery document describes a Google-style
 * API whose tokens come from Google's authorization server, so those are the flow's URLs.
 */
const AUTHORIZATION_URL = 'https://accounts.google.com/o/oauth2/auth';
const TOKEN_URL = 'https://oauth2.googleapis.com/token';

interface MethodAt {
  method: Obj;
  id: string;
  resource: string[];
}

/** Every method with its resource chain, in document order; depth-bounded against hostile nesting. */
function methodsOf(holder: Obj, resource: string[], out: MethodAt[], warnings: string[], depth = 0): MethodAt[] {
  if (depth > 64) {
    warnings.push(`resource ${resource.join('.')}: nested deeper than 64 levels; its methods are skipped.`);
    return out;
  }
  if (isObj(holder.methods))
    for (const [name, m] of Object.entries(holder.methods))
      if (isObj(m))
        out.push({ method: m, id: typeof m.id === 'string' ? m.id : [...resource, name].join('.'), resource });
  if (isObj(holder.resources))
    for (const [name, r] of Object.entries(holder.resources))
      if (isObj(r)) methodsOf(r, [...resource, name], out, warnings, depth + 1);
  return out;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function serverUrl(doc: Obj): { base: string; root: string } {
  const root = str(doc.rootUrl) ?? (str(doc.baseUrl) ? new URL(str(doc.baseUrl)!).origin + '/' : '/');
  const base = str(doc.rootUrl) ? root + (str(doc.servicePath) ?? '') : (str(doc.baseUrl) ?? root);
  return { base: base.replace(/\/+$/, '') || '/', root: root.replace(/\/+$/, '') || '/' };
}

function securitySchemes(doc: Obj, used: Set<string>): Obj | undefined {
  const declared =
    isObj(doc.auth) && isObj(doc.auth.oauth2) && isObj(doc.auth.oauth2.scopes) ? doc.auth.oauth2.scopes : {};
  const scopes: Obj = {};
  for (const [scope, v] of Object.entries(declared))
    put(scopes, scope, isObj(v) && typeof v.description === 'string' ? v.description : '');
  // A method may name a scope the auth section forgot; the flow must still declare it.
  for (const s of used) if (!Object.hasOwn(scopes, s)) put(scopes, s, '');
  if (Object.keys(scopes).length === 0) return undefined;
  return {
    [OAUTH2_SCHEME]: {
      type: 'oauth2',
      description: 'OAuth 2.0 authorization; each operation accepts any one of its scopes.',
      flows: { authorizationCode: { authorizationUrl: AUTHORIZATION_URL, tokenUrl: TOKEN_URL, scopes } },
    },
  };
}

/** The variable names of an OpenAPI path key, in order. */
function variablesOf(key: string): string[] {
  return [...key.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
}

/**
 * Renames an operation's path parameters from its own variable names to those of the path key it is placed
 * under (same shape, other names: OpenAPI matches path parameters by the key's names), noting the original.
 */
function renameVariables(op: Obj, from: readonly string[], to: readonly string[]): void {
  if (!Array.isArray(op.parameters)) return;
  for (const p of op.parameters) {
    if (!isObj(p) || p.in !== 'path' || typeof p.name !== 'string') continue;
    const i = from.indexOf(p.name);
    if (i < 0 || to[i] === undefined || to[i] === p.name) continue;
    const note = `\`${p.name}\` in the discovery document.`;
    p.description = typeof p.description === 'string' ? `${p.description} (${note})` : note;
    p.name = to[i];
  }
}

/** Converts a parsed discovery document; throws NotDiscoveryDocumentError for anything else. */
export function toOpenApi(doc: unknown, version: OpenApiVersion = '3.1'): OpenApiResult {
  if (!isRestDescriptionValue(doc) || !isObj(doc))
    throw new NotDiscoveryDocumentError('Not a discovery document: no top-level "kind": "discovery#restDescription".');
  const schemasIn = isObj(doc.schemas) ? doc.schemas : {};
  const names = new Map<string, string>();
  const taken = new Set<string>();
  for (const id of Object.keys(schemasIn)) {
    let key = componentName(id);
    for (let i = 2; taken.has(key); i++) key = `${componentName(id)}_${i}`;
    taken.add(key);
    names.set(id, key);
  }
  const globalsIn = isObj(doc.parameters) ? doc.parameters : {};
  const globals = new Map<string, string>();
  const parameters: Obj = {};
  for (const [name, p] of Object.entries(globalsIn)) {
    if (!isObj(p)) continue;
    const key = componentName(name);
    globals.set(name, key);
    put(parameters, key, convertParameter(name, p, p.location === 'header' ? 'header' : 'query', false));
  }
  const ctx: MethodContext = { version, names, globals, schemas: schemasIn };
  const warnings: string[] = [];
  /** The context for converting one schema or method: a cut below MAX_SCHEMA_DEPTH is warned about once. */
  const within = (what: string): MethodContext => {
    let told = false;
    return {
      ...ctx,
      onTooDeep: () => {
        if (told) return;
        told = true;
        warnings.push(
          `${what}: nested deeper than ${MAX_SCHEMA_DEPTH} levels; the part below is written as {} (any value).`,
        );
      },
    };
  };
  const schemas: Obj = {};
  for (const [id, s] of Object.entries(schemasIn))
    put(schemas, names.get(id)!, convertSchema(within(`schema ${id}`), s));

  const { base, root } = serverUrl(doc);
  const paths: Obj = {};
  const shapes = new Map<string, string>();
  const tags: string[] = [];
  const usedScopes = new Set<string>();
  /**
   * Where an operation at `key` can go: the key itself, or the key already there that OpenAPI takes for the
   * same path (it differs only in variable names: the operation's variables are renamed to that key's); none
   * when that path already has an operation of this verb.
   */
  const slotFor = (key: string, verb: string, atRoot: boolean): { key: string; renamed: boolean } | undefined => {
    const existing = shapes.get(`${atRoot ? 'root' : 'base'} ${pathShape(key)}`) ?? key;
    const item = own(paths, existing);
    if (isObj(item) && Object.hasOwn(item, verb)) return undefined;
    return { key: existing, renamed: existing !== key };
  };
  /**
   * Places an operation at the first of its templates whose path has no operation of this verb yet, else at a
   * path of the same shape under that path's variable names; warns when every one is taken.
   */
  const place = (
    id: string,
    verb: string,
    atRoot: boolean,
    templates: readonly PathTemplate[],
    build: (template: PathTemplate) => Obj,
  ): void => {
    let chosen: { template: PathTemplate; slot: { key: string; renamed: boolean } } | undefined;
    for (const template of templates) {
      const slot = slotFor(template.key, verb, atRoot);
      if (slot && !slot.renamed) {
        chosen = { template, slot };
        break;
      }
      if (slot) chosen ??= { template, slot };
    }
    if (!chosen) {
      const key = templates[0].key;
      const taken = own(paths, shapes.get(`${atRoot ? 'root' : 'base'} ${pathShape(key)}`) ?? key) as Obj;
      warnings.push(
        `${id}: ${verb.toUpperCase()} ${key} is already ${String((taken[verb] as Obj).operationId)}; skipped.`,
      );
      return;
    }
    const { template, slot } = chosen;
    const op = build(template);
    if (slot.renamed) renameVariables(op, template.variables, variablesOf(slot.key));
    shapes.set(`${atRoot ? 'root' : 'base'} ${pathShape(slot.key)}`, slot.key);
    let item = own(paths, slot.key) as Obj | undefined;
    if (!item) put(paths, slot.key, (item = atRoot && root !== base ? { servers: [{ url: root }] } : {}));
    put(item, verb, op);
  };
  for (const { method, id, resource } of methodsOf(doc, [], [], warnings)) {
    const tag = resource.length ? resource.join('.') : str(doc.name);
    if (tag && !tags.includes(tag)) tags.push(tag);
    if (Array.isArray(method.scopes)) for (const s of method.scopes) if (typeof s === 'string') usedScopes.add(s);
    const path = str(method.path);
    const verb = str(method.httpMethod)?.toLowerCase();
    if (!path || !verb) {
      warnings.push(`${id}: no "path" or "httpMethod"; skipped.`);
      continue;
    }
    const mctx = within(`method ${id}`);
    const forms = operationTemplates(path, method.flatPath);
    // A path starting with "/" is relative to rootUrl, not servicePath.
    place(
      id,
      verb,
      path.startsWith('/'),
      forms.map((f) => f.template),
      (template) => mainOperation(mctx, method, id, tag, template, forms.find((f) => f.template === template)!.flat),
    );
    for (const u of uploadOperations(mctx, method, id, tag))
      place(id, u.verb, u.atRoot, [parsePathTemplate(u.key.replace(/^\//, ''))], () => u.operation);
  }

  const info: Obj = { title: str(doc.title) ?? str(doc.name) ?? 'API', version: str(doc.version) ?? '' };
  if (str(doc.description)) info.description = doc.description;
  if (str(doc.revision)) info['x-revision'] = doc.revision;
  const components: Obj = { schemas, parameters };
  const security = securitySchemes(doc, usedScopes);
  if (security) components.securitySchemes = security;
  const document: Obj = {
    openapi: version === '3.1' ? '3.1.0' : '3.0.3',
    info,
    servers: [{ url: base }],
    tags: tags.map((name) => ({ name })),
    paths,
    components,
  };
  if (str(doc.documentationLink)) document.externalDocs = { url: doc.documentationLink };
  return { document, warnings };
}
