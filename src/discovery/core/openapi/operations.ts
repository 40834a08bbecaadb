// One discovery method → OpenAPI operations: the main one and its media-upload variants.
import { isObj, type Obj } from '../model';
import {
  convertSchema,
  mapTypeFormat,
  own as ownMember,
  put,
  requiredFor,
  typedDefault,
  type SchemaContext,
} from './schemas';
import { parsePathTemplate, type PathTemplate } from './paths';

export const OAUTH2_SCHEME = 'Oauth2';

export interface MethodContext extends SchemaContext {
  /** Global parameters: name → components/parameters key. */
  readonly globals: ReadonlyMap<string, string>;
  /** The document's schemas, to read `annotations.required` of request schemas. */
  readonly schemas: Obj;
}

/** A discovery parameter → an OpenAPI parameter object. */
export function convertParameter(name: string, p: Obj, where: string, reserved: boolean): Obj {
  const base: Obj = mapTypeFormat(p.type, p.format);
  const d = typedDefault(base.type as string | undefined, p.default);
  if (d !== undefined) base.default = d;
  if (Array.isArray(p.enum)) {
    base.enum = p.enum;
    if (Array.isArray(p.enumDescriptions)) base['x-enumDescriptions'] = p.enumDescriptions;
    if (Array.isArray(p.enumDeprecated)) base['x-enumDeprecated'] = p.enumDeprecated;
  }
  if (typeof p.pattern === 'string') base.pattern = p.pattern;
  for (const k of ['minimum', 'maximum'] as const) {
    const n = typeof p[k] === 'string' ? Number(p[k]) : p[k];
    if (typeof n === 'number' && Number.isFinite(n)) base[k] = n;
  }
  const repeated = p.repeated === true && where !== 'path';
  const out: Obj = { name, in: where };
  if (typeof p.description === 'string') out.description = p.description;
  if (where === 'path' || p.required === true) out.required = true;
  if (p.deprecated === true) out.deprecated = true;
  out.schema = repeated ? { type: 'array', items: base } : base;
  if (repeated) {
    out.style = 'form';
    out.explode = true;
  }
  if (reserved) out['x-reservedExpansion'] = true;
  return out;
}

function locationOf(p: Obj): string {
  return p.location === 'path' ? 'path' : p.location === 'header' ? 'header' : 'query';
}

/** The parameters of an operation at `template`: its path variables, its query parameters, the global ones. */
function operationParameters(
  ctx: MethodContext,
  method: Obj,
  template: PathTemplate,
  flatOf: string[],
  own: string[] = [],
): Obj[] {
  const params = isObj(method.parameters) ? method.parameters : {};
  const out: Obj[] = [];
  for (const v of template.variables) {
    const p = ownMember(params, v);
    if (isObj(p)) out.push(convertParameter(v, p, 'path', template.reserved.has(v)));
    else {
      // A segment of a flattened reserved parameter (projectsId in v1/projects/{projectsId}/…), or a
      // variable the document forgot to declare: a plain string path parameter either way.
      const part = flatOf.length ? `Part of \`${flatOf.join('`, `')}\`.` : 'Not declared in the discovery document.';
      out.push({ name: v, in: 'path', required: true, description: part, schema: { type: 'string' } });
    }
  }
  // `own`: parameters the caller adds itself (an upload's uploadType), so a global of that name is not repeated.
  const names = new Set([...template.variables, ...own]);
  for (const [name, p] of Object.entries(params)) {
    if (!isObj(p) || names.has(name)) continue;
    const where = locationOf(p);
    // A path parameter missing from this template is spelled out by the flat path's segments.
    if (where === 'path') continue;
    names.add(name);
    out.push(convertParameter(name, p, where, false));
  }
  for (const [name, key] of ctx.globals) if (!names.has(name)) out.push({ $ref: `#/components/parameters/${key}` });
  return out;
}

function binarySchema(ctx: SchemaContext): Obj {
  return ctx.version === '3.1'
    ? { type: 'string', contentMediaType: 'application/octet-stream' }
    : { type: 'string', format: 'binary' };
}

function requestSchema(ctx: MethodContext, method: Obj, id: string): Obj | undefined {
  if (!isObj(method.request)) return undefined;
  const schema = convertSchema(ctx, method.request);
  const target = typeof method.request.$ref === 'string' ? ownMember(ctx.schemas, method.request.$ref) : method.request;
  const required = requiredFor(isObj(target) ? target : undefined, id);
  return required.length ? { allOf: [schema, { required }] } : schema;
}

function responses(ctx: MethodContext, method: Obj): Obj {
  const ok: Obj = { description: 'Successful response.' };
  const content: Obj = {};
  if (isObj(method.response)) content['application/json'] = { schema: convertSchema(ctx, method.response) };
  if (method.supportsMediaDownload === true) {
    content['*/*'] = { schema: binarySchema(ctx) };
    ok.description = 'Successful response; with `alt=media` the body is the media itself.';
  }
  if (Object.keys(content).length) ok.content = content;
  return { '200': ok, default: { description: 'Error: a google.rpc.Status in an "error" object.' } };
}

function common(ctx: MethodContext, method: Obj, id: string, tag: string | undefined): Obj {
  const op: Obj = { operationId: id };
  if (tag) op.tags = [tag];
  if (typeof method.description === 'string') op.description = method.description;
  if (method.deprecated === true) op.deprecated = true;
  const scopes = Array.isArray(method.scopes) ? method.scopes.filter((s): s is string => typeof s === 'string') : [];
  // Discovery lists the scopes any one of which suffices: one security alternative per scope.
  // No scopes: callable without OAuth (an API key or nothing), said explicitly rather than left unsaid.
  op.security = scopes.map((s) => ({ [OAUTH2_SCHEME]: [s] }));
  return op;
}

export interface BuiltOperation {
  key: string;
  verb: string;
  operation: Obj;
  /** Upload variants live at the root URL, not under servicePath. */
  atRoot: boolean;
}

/** The main operation of a method at its template. */
export function mainOperation(
  ctx: MethodContext,
  method: Obj,
  id: string,
  tag: string | undefined,
  template: PathTemplate,
  flat: boolean,
): Obj {
  const op = common(ctx, method, id, tag);
  const original = typeof method.path === 'string' ? parsePathTemplate(method.path) : undefined;
  const flatOf = flat && original ? [...original.reserved] : [];
  op.parameters = operationParameters(ctx, method, template, flatOf);
  const body = requestSchema(ctx, method, id);
  if (body) op.requestBody = { required: true, content: { 'application/json': { schema: body } } };
  op.responses = responses(ctx, method);
  return op;
}

/** `mediaUpload` → one operation per distinct upload path (simple and resumable share one when equal). */
export function uploadOperations(
  ctx: MethodContext,
  method: Obj,
  id: string,
  tag: string | undefined,
): BuiltOperation[] {
  const media = isObj(method.mediaUpload) ? method.mediaUpload : undefined;
  const protocols = media && isObj(media.protocols) ? media.protocols : {};
  const byPath = new Map<string, string[]>();
  for (const [protocol, value] of Object.entries(protocols)) {
    if (!isObj(value) || typeof value.path !== 'string') continue;
    const kinds =
      protocol === 'resumable' ? ['resumable'] : value.multipart === false ? ['media'] : ['media', 'multipart'];
    byPath.set(value.path, [...(byPath.get(value.path) ?? []), ...kinds]);
  }
  const accept = Array.isArray(media?.accept) ? media.accept.filter((a): a is string => typeof a === 'string') : [];
  const verb = typeof method.httpMethod === 'string' ? method.httpMethod.toLowerCase() : 'post';
  const out: BuiltOperation[] = [];
  let n = 0;
  for (const [path, kinds] of byPath) {
    const template = parsePathTemplate(path);
    const op = common(ctx, method, byPath.size === 1 || n === 0 ? `${id}.upload` : `${id}.upload${n + 1}`, tag);
    n++;
    const params = operationParameters(ctx, method, template, [], ['uploadType']);
    params.unshift({
      name: 'uploadType',
      in: 'query',
      required: true,
      description: 'How the media is sent: `media` (bytes only), `multipart` (metadata and bytes), `resumable`.',
      schema: { type: 'string', enum: kinds },
    });
    op.parameters = params;
    const content: Obj = {};
    const metadata = requestSchema(ctx, method, id);
    if (kinds.includes('multipart'))
      content['multipart/related'] = {
        schema: { type: 'object', properties: { metadata: metadata ?? { type: 'object' }, media: binarySchema(ctx) } },
      };
    if (kinds.includes('resumable') && metadata) content['application/json'] = { schema: metadata };
    for (const range of accept.length ? accept : ['*/*']) put(content, range, { schema: binarySchema(ctx) });
    op.requestBody = { required: true, content };
    if (media && typeof media.maxSize === 'string') op['x-maxSize'] = media.maxSize;
    op.responses = responses(ctx, method);
    out.push({ key: template.key, verb, operation: op, atRoot: true });
  }
  return out;
}
