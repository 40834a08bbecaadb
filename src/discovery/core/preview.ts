// The reference preview's HTML body, rendered from the model. All document text is escaped:
// the preview shows untrusted documents fetched from anywhere.
import type { JsonPath } from './jsonTree';
import { isObj, type DiscoveryModel, type MethodEntry, type Obj } from './model';
import { methodUrl } from './hover';

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Anchor id of a method or schema, stable for the same path. */
export function anchorOf(path: JsonPath): string {
  return (
    'p-' + path.map((p) => String(p).replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.charCodeAt(0).toString(16)}_`)).join('--')
  );
}

/** The anchor the preview should reveal for a path in the document (the method or schema containing it). */
export function anchorForPath(model: DiscoveryModel, path: JsonPath): string | undefined {
  if (path[0] === 'schemas' && typeof path[1] === 'string' && model.schemas.has(path[1]))
    return anchorOf(['schemas', path[1]]);
  let best: MethodEntry | undefined;
  for (const m of model.methods) {
    if (
      m.path.length <= path.length &&
      m.path.every((s, i) => s === path[i]) &&
      (!best || m.path.length > best.path.length)
    )
      best = m;
  }
  return best ? anchorOf(best.path) : undefined;
}

function typeHtml(s: unknown): string {
  if (!isObj(s)) return '';
  if (typeof s.$ref === 'string')
    return `<a class="ref" href="#${anchorOf(['schemas', s.$ref])}">${escapeHtml(s.$ref)}</a>`;
  const t = typeof s.type === 'string' ? s.type : 'any';
  if (t === 'array') return `${typeHtml(s.items) || 'any'}[]`;
  if (t === 'object' && isObj(s.additionalProperties)) return `map&lt;string, ${typeHtml(s.additionalProperties)}&gt;`;
  return escapeHtml(typeof s.format === 'string' ? `${t} (${s.format})` : t);
}

function desc(v: unknown, max = 400): string {
  if (typeof v !== 'string' || !v) return '';
  return `<p class="desc">${escapeHtml(v.length > max ? v.slice(0, max) + '…' : v)}</p>`;
}

function methodHtml(model: DiscoveryModel, m: MethodEntry): string {
  const v = m.value;
  const verb = typeof v.httpMethod === 'string' ? v.httpMethod : '?';
  const params = isObj(v.parameters) ? v.parameters : {};
  const rows = Object.entries(params)
    .map(([n, p]) => {
      const po = isObj(p) ? p : {};
      return `<tr><td><code>${escapeHtml(n)}</code></td><td>${typeHtml(po)}</td><td>${escapeHtml(typeof po.location === 'string' ? po.location : '')}${po.required === true ? ' · required' : ''}</td><td>${escapeHtml(typeof po.description === 'string' ? po.description.slice(0, 200) : '')}</td></tr>`;
    })
    .join('');
  const body = [
    `<div class="method${v.deprecated === true ? ' deprecated' : ''}" id="${anchorOf(m.path)}" data-path="${escapeHtml(JSON.stringify(m.path))}">`,
    `<h4><span class="verb verb-${escapeHtml(verb.toLowerCase())}">${escapeHtml(verb)}</span> <span class="url">${escapeHtml(methodUrl(model, m))}</span></h4>`,
    `<div class="id">${escapeHtml(m.id ?? m.name)}</div>`,
    desc(v.description),
    rows
      ? `<table><thead><tr><th>parameter</th><th>type</th><th>where</th><th>description</th></tr></thead><tbody>${rows}</tbody></table>`
      : '',
    isObj(v.request) ? `<div>Request: ${typeHtml(v.request)}</div>` : '',
    isObj(v.response) ? `<div>Response: ${typeHtml(v.response)}</div>` : '',
    '</div>',
  ];
  return body.join('');
}

function schemaHtml(name: string, s: Obj): string {
  const props = isObj(s.properties) ? s.properties : {};
  const rows = Object.entries(props)
    .map(
      ([n, p]) =>
        `<tr><td><code>${escapeHtml(n)}</code></td><td>${typeHtml(p)}</td><td>${escapeHtml(isObj(p) && typeof p.description === 'string' ? p.description.slice(0, 200) : '')}</td></tr>`,
    )
    .join('');
  return `<div class="schema" id="${anchorOf(['schemas', name])}" data-path="${escapeHtml(JSON.stringify(['schemas', name]))}"><h4>${escapeHtml(name)} <small>${typeHtml({ ...s, $ref: undefined })}</small></h4>${desc(s.description)}${rows ? `<table><tbody>${rows}</tbody></table>` : ''}</div>`;
}

/** The preview body: title, resources with their methods, then schemas. */
export function renderPreviewBody(model: DiscoveryModel): string {
  const r = model.root;
  const title = typeof r.title === 'string' ? r.title : typeof r.name === 'string' ? r.name : 'API';
  const out: string[] = [
    `<header><h1>${escapeHtml(title)}</h1><div class="meta">${escapeHtml([r.id, (typeof r.revision === 'string' || typeof r.revision === 'number') && `revision ${r.revision}`].filter(Boolean).join(' · '))}</div>${desc(r.description, 2000)}</header>`,
  ];
  const groups = new Map<string, MethodEntry[]>();
  for (const m of model.methods) {
    const key = m.resource.join('.') || '(top level)';
    const l = groups.get(key);
    if (l) l.push(m);
    else groups.set(key, [m]);
  }
  out.push(`<section><h2>Methods (${model.methods.length})</h2>`);
  for (const [res, list] of groups) {
    out.push(`<h3>${escapeHtml(res)}</h3>`);
    for (const m of list) out.push(methodHtml(model, m));
  }
  out.push('</section>');
  out.push(`<section><h2>Schemas (${model.schemas.size})</h2>`);
  for (const s of model.schemas.values()) out.push(schemaHtml(s.name, s.value));
  out.push('</section>');
  return out.join('\n');
}
