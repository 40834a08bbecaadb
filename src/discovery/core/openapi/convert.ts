// A discovery document → an OpenAPI 3.0 or 3.1 document. Editor-free; the CLI (`api-workbench openapi`)
// and the editor command (Export as OpenAPI…) both call `toOpenApi`.
import { isRestDescriptionValue } from '../detect';
import { isObj, type Obj } from '../model';
import { convertParameter, mainOperation, OAUTH2_SCHEME, uploadOperations, type MethodContext } from './operations';
import { operationTemplate, pathShape } from './paths';
import { componentName, convertSchema, type OpenApiVersion } from './schemas';

export type { OpenApiVersion } from './schemas';

export class NotDiscoveryDocumentError extends Error {
  override readonly name = 'NotDiscoveryDocumentError';
}

export interface OpenApiResult {
  document: Obj;
  /** Methods that could not become an operation (two methods on the same path and verb), one line each. */
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
function methodsOf(holder: Obj, resource: string[], out: MethodAt[], depth = 0): MethodAt[] {
  if (depth > 64) return out;
  if (isObj(holder.methods))
    for (const [name, m] of Object.entries(holder.methods))
      if (isObj(m))
        out.push({ method: m, id: typeof m.id === 'string' ? m.id : [...resource, name].join('.'), resource });
  if (isObj(holder.resources))
    for (const [name, r] of Object.entries(holder.resources))
      if (isObj(r)) methodsOf(r, [...resource, name], out, depth + 1);
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
  const scopes: Record<string, string> = {};
  for (const [scope, v] of Object.entries(declared))
    scopes[scope] = isObj(v) && typeof v.description === 'string' ? v.description : '';
  // A method may name a scope the auth section forgot; the flow must still declare it.
  for (const s of used) scopes[s] ??= '';
  if (Object.keys(scopes).length === 0) return undefined;
  return {
    [OAUTH2_SCHEME]: {
      type: 'oauth2',
      description: 'OAuth 2.0 authorization; each operation accepts any one of its scopes.',
      flows: { authorizationCode: { authorizationUrl: AUTHORIZATION_URL, tokenUrl: TOKEN_URL, scopes } },
    },
  };
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
    parameters[key] = convertParameter(name, p, p.location === 'header' ? 'header' : 'query', false);
  }
  const ctx: MethodContext = { version, names, globals, schemas: schemasIn };
  const schemas: Obj = {};
  for (const [id, s] of Object.entries(schemasIn)) schemas[names.get(id)!] = convertSchema(ctx, s);

  const { base, root } = serverUrl(doc);
  const paths: Obj = {};
  const shapes = new Map<string, string>();
  const warnings: string[] = [];
  const tags: string[] = [];
  const usedScopes = new Set<string>();
  const place = (key: string, verb: string, op: Obj, atRoot: boolean, id: string): void => {
    // OpenAPI treats /a/{x} and /a/{y} as one path: reuse the key already there.
    const shape = `${atRoot ? 'root' : 'base'} ${pathShape(key)}`;
    const existing = shapes.get(shape);
    if (existing && existing !== key) {
      warnings.push(`${id}: ${key} is the same path as ${existing} with other variable names; skipped.`);
      return;
    }
    shapes.set(shape, key);
    const item = (paths[key] ??= atRoot && root !== base ? { servers: [{ url: root }] } : {}) as Obj;
    if (item[verb]) {
      warnings.push(
        `${id}: ${verb.toUpperCase()} ${key} is already ${String((item[verb] as Obj).operationId)}; skipped.`,
      );
      return;
    }
    item[verb] = op;
  };
  for (const { method, id, resource } of methodsOf(doc, [], [])) {
    const tag = resource.length ? resource.join('.') : str(doc.name);
    if (tag && !tags.includes(tag)) tags.push(tag);
    if (Array.isArray(method.scopes)) for (const s of method.scopes) if (typeof s === 'string') usedScopes.add(s);
    const path = str(method.path);
    const verb = str(method.httpMethod)?.toLowerCase();
    if (!path || !verb) {
      warnings.push(`${id}: no "path" or "httpMethod"; skipped.`);
      continue;
    }
    const { template, flat } = operationTemplate(path, method.flatPath);
    // A path starting with "/" is relative to rootUrl, not servicePath.
    place(template.key, verb, mainOperation(ctx, method, id, tag, template, flat), path.startsWith('/'), id);
    for (const u of uploadOperations(ctx, method, id, tag)) place(u.key, u.verb, u.operation, u.atRoot, id);
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
