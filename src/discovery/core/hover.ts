// Hover text as Markdown, from the model's indexes and our JSON schema's descriptions.
import type { Analysis } from './analyze';
import { isObj, type DiscoveryModel, type MethodEntry, type Obj } from './model';
import { methodAtPath, refAtPath, valueAt, type Span } from './navigation';
import { contextAt } from './position';
import { schemaAtPath } from './schema';

export interface HoverResult {
  markdown: string;
  span: Span;
}

const MAX_PROPERTIES = 8;
const MAX_DESCRIPTION = 600;

function clip(s: string, n = MAX_DESCRIPTION): string {
  return s.length > n ? s.slice(0, n).trimEnd() + '…' : s;
}

/** Escapes Markdown so document text never turns into links or HTML in the hover. */
export function escapeMarkdown(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, (c) => '\\' + c);
}

function typeLabel(s: Obj): string {
  if (typeof s.$ref === 'string') return s.$ref;
  const t = typeof s.type === 'string' ? s.type : 'any';
  if (t === 'array' && isObj(s.items)) return `${typeLabel(s.items)}[]`;
  if (t === 'object' && isObj(s.additionalProperties)) return `map<string, ${typeLabel(s.additionalProperties)}>`;
  return typeof s.format === 'string' ? `${t} (${s.format})` : t;
}

export function schemaSummary(model: DiscoveryModel, name: string): string {
  const def = model.schemas.get(name);
  if (!def) return `**${escapeMarkdown(name)}**: no such schema in this document.`;
  const s = def.value;
  const lines = [`**${escapeMarkdown(name)}** · \`${typeLabel(s)}\`${s.deprecated === true ? ' · *deprecated*' : ''}`];
  if (typeof s.description === 'string') lines.push('', clip(s.description));
  if (isObj(s.properties)) {
    const keys = Object.keys(s.properties);
    if (keys.length) {
      lines.push('');
      for (const k of keys.slice(0, MAX_PROPERTIES)) {
        const p = s.properties[k];
        const d = isObj(p) && typeof p.description === 'string' ? ` — ${clip(p.description.split('\n')[0], 100)}` : '';
        lines.push(`- \`${k}\`: \`${isObj(p) ? typeLabel(p) : '?'}\`${d}`);
      }
      if (keys.length > MAX_PROPERTIES) lines.push(`- … ${keys.length - MAX_PROPERTIES} more`);
    }
  }
  const uses = model.refsByTarget.get(name)?.length ?? 0;
  lines.push('', `*${uses} reference${uses === 1 ? '' : 's'}*`);
  return lines.join('\n');
}

export function methodUrl(model: DiscoveryModel, m: MethodEntry): string {
  const root = typeof model.root.rootUrl === 'string' ? model.root.rootUrl : '';
  const service = typeof model.root.servicePath === 'string' ? model.root.servicePath : '';
  const path = typeof m.value.path === 'string' ? m.value.path : '';
  return root + service + path;
}

export function methodSummary(model: DiscoveryModel, m: MethodEntry): string {
  const v = m.value;
  const verb = typeof v.httpMethod === 'string' ? v.httpMethod : '?';
  const lines = [
    `**${escapeMarkdown(m.id ?? m.name)}**${v.deprecated === true ? ' · *deprecated*' : ''}`,
    '',
    `\`${verb} ${methodUrl(model, m)}\``,
  ];
  if (typeof v.description === 'string') lines.push('', clip(v.description));
  const params = isObj(v.parameters) ? v.parameters : {};
  const names = Object.keys(params);
  if (names.length) {
    lines.push('', '**Parameters**', '');
    for (const n of names) {
      const p = params[n];
      if (!isObj(p)) continue;
      const flags = [
        p.location,
        p.required === true ? 'required' : undefined,
        p.repeated === true ? 'repeated' : undefined,
      ]
        .filter(Boolean)
        .join(', ');
      lines.push(`- \`${n}\`: \`${typeLabel(p)}\` (${flags})`);
    }
  }
  if (isObj(v.request) && typeof v.request.$ref === 'string') lines.push('', `**Request** \`${v.request.$ref}\``);
  if (isObj(v.response) && typeof v.response.$ref === 'string') lines.push('', `**Response** \`${v.response.$ref}\``);
  if (Array.isArray(v.scopes) && v.scopes.length) {
    lines.push('', '**Scopes**', '');
    for (const s of v.scopes) lines.push(`- \`${String(s)}\``);
  }
  return lines.join('\n');
}

function parameterSummary(name: string, p: Obj): string {
  const lines = [
    `**${escapeMarkdown(name)}** · \`${typeLabel(p)}\` · ${typeof p.location === 'string' ? p.location : '?'}${p.required === true ? ' · required' : ''}`,
  ];
  if (typeof p.description === 'string') lines.push('', clip(p.description));
  if (typeof p.pattern === 'string') lines.push('', `Pattern: \`${p.pattern}\``);
  if (typeof p.default === 'string') lines.push('', `Default: \`${p.default}\``);
  return lines.join('\n');
}

function fieldDoc(path: (string | number)[]): string | undefined {
  const s = schemaAtPath(path);
  if (!s?.description) return undefined;
  const key = path[path.length - 1];
  return `**${escapeMarkdown(String(key))}**${s.type ? ` · \`${s.type}\`` : ''}\n\n${s.description}${s.deprecationMessage ? `\n\n*${s.deprecationMessage}*` : ''}`;
}

export function hoverAt(analysis: Analysis, offset: number): HoverResult | undefined {
  const { model } = analysis;
  const tree = analysis.parsed.tree;
  if (!model || !tree) return undefined;
  const ctx = contextAt(tree, offset);
  if (!ctx || (ctx.kind !== 'key' && ctx.kind !== 'value')) return undefined;
  const span = ctx.replace;
  const result = (markdown: string | undefined) => (markdown ? { markdown, span } : undefined);

  if (ctx.kind === 'key') {
    const { objectPath: op, key } = ctx;
    const path = [...op, key];
    if (op.length === 1 && op[0] === 'schemas') return result(schemaSummary(model, key));
    const m = methodAtPath(model, path);
    if (m) return result(methodSummary(model, m));
    if (op[op.length - 1] === 'parameters' && (op.length === 1 || methodAtPath(model, op.slice(0, -1)))) {
      const p = valueAt(model.root, path);
      if (isObj(p)) return result(parameterSummary(key, p));
    }
    if (op.length === 3 && op[0] === 'auth')
      return result(`**Scope** \`${key}\`\n\n${escapeMarkdown(model.scopes.get(key)?.description ?? '')}`);
    return result(fieldDoc(path));
  }

  const path = ctx.path;
  const v = valueAt(model.root, path);
  const last = path[path.length - 1];
  const parent = path[path.length - 2];
  if (last === '$ref' && typeof v === 'string' && refAtPath(model, path)) return result(schemaSummary(model, v));
  if (typeof last === 'number' && parent === 'scopes' && typeof v === 'string') {
    const s = model.scopes.get(v);
    return result(
      s
        ? `**Scope** \`${v}\`\n\n${escapeMarkdown(s.description ?? '')}`
        : `Scope \`${v}\` is not declared in auth.oauth2.scopes.`,
    );
  }
  if (typeof last === 'number' && parent === 'enum') {
    const descs = valueAt(model.root, [...path.slice(0, -2), 'enumDescriptions']);
    const dep = valueAt(model.root, [...path.slice(0, -2), 'enumDeprecated']);
    const d = Array.isArray(descs) && typeof descs[last] === 'string' ? descs[last] : undefined;
    const deprecated = Array.isArray(dep) && dep[last] === true ? ' · *deprecated*' : '';
    return result(`\`${String(v)}\`${deprecated}${d ? `\n\n${escapeMarkdown(d)}` : ''}`);
  }
  if (typeof last === 'number' && parent === 'parameterOrder' && typeof v === 'string') {
    const p = valueAt(model.root, [...path.slice(0, -2), 'parameters', v]);
    if (isObj(p)) return result(parameterSummary(v, p));
  }
  if (typeof last === 'string' && (last === 'httpMethod' || last === 'path' || last === 'id' || last === 'flatPath')) {
    const m = methodAtPath(model, path.slice(0, -1));
    if (m) return result(methodSummary(model, m));
  }
  if (typeof last === 'string') return result(fieldDoc(path));
  return undefined;
}
