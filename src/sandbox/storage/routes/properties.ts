// Custom file properties: key/value pairs, private to the app or public, with Drive's size limits.
import type { Property } from '../../../shared/wire/storage';
import { badRequest, forbidden, notFound, required } from '../errors';
import type { StoredFile } from '../model';
import { renderProperty } from '../render';
import type { Reply, RequestContext, Router } from '../router';
import type { StorageService } from '../service';
import { readResource } from '../body';

const PROPERTY_LIMIT = 124;
const MAX_PROPERTIES = 100;

function visibilityOf(q: URLSearchParams, fallback: string): 'PRIVATE' | 'PUBLIC' {
  const v = (q.get('visibility') ?? fallback).toUpperCase();
  if (v !== 'PRIVATE' && v !== 'PUBLIC')
    throw badRequest(`Invalid visibility ${v}; use private or public.`, 'visibility', 'invalid');
  return v;
}

function checkProperty(key: string, value: string): void {
  if (Buffer.byteLength(key) + Buffer.byteLength(value) > PROPERTY_LIMIT)
    throw badRequest(
      `A property's key and value together may use at most ${PROPERTY_LIMIT} bytes.`,
      'property',
      'invalid',
    );
}

function listProperties(ctx: RequestContext, svc: StorageService): Reply {
  const f = svc.visibleFile(ctx.params.fileId);
  return {
    status: 200,
    json: {
      kind: 'drive#propertyList',
      etag: `"${f.version}"`,
      selfLink: ctx.url.href,
      items: f.properties.map((p) => renderProperty(ctx.base, f.id, p)),
    },
  };
}

function findProperty(ctx: RequestContext, f: StoredFile) {
  const visibility = visibilityOf(ctx.query, 'private');
  const p = f.properties.find((x) => x.key === ctx.params.propertyKey && x.visibility === visibility);
  if (!p) throw notFound('Property', ctx.params.propertyKey);
  return p;
}

function getProperty(ctx: RequestContext, svc: StorageService): Reply {
  const f = svc.visibleFile(ctx.params.fileId);
  return { status: 200, json: renderProperty(ctx.base, f.id, findProperty(ctx, f)) };
}

async function insertProperty(ctx: RequestContext, svc: StorageService): Promise<Reply> {
  const f = svc.writableFile(ctx.params.fileId);
  const b = (await readResource<Property>(ctx.req, 'Property')) ?? ({} as Property);
  if (!b.key) throw required('property.key');
  const value = b.value ?? '';
  checkProperty(b.key, value);
  const visibility = (b.visibility ?? 'PRIVATE').toUpperCase() === 'PUBLIC' ? 'PUBLIC' : 'PRIVATE';
  let p = f.properties.find((x) => x.key === b.key && x.visibility === visibility);
  if (p) {
    p.value = value;
    p.version++;
  } else {
    if (f.properties.length >= MAX_PROPERTIES)
      throw forbidden('propertyLimitExceeded', `A file can have at most ${MAX_PROPERTIES} properties.`);
    p = { key: b.key, value, visibility, version: 1 };
    f.properties.push(p);
  }
  svc.store.touchFile(f);
  return { status: 200, json: renderProperty(ctx.base, f.id, p) };
}

async function changeProperty(ctx: RequestContext, svc: StorageService): Promise<Reply> {
  const f = svc.writableFile(ctx.params.fileId);
  const p = findProperty(ctx, f);
  svc.checkIfMatch(ctx, renderProperty(ctx.base, f.id, p).etag!);
  const b = (await readResource<Property>(ctx.req, 'Property')) ?? ({} as Property);
  if (b.key !== undefined && b.key !== p.key)
    throw badRequest('The key of a property cannot change.', 'property.key', 'invalid');
  const value = b.value ?? (ctx.method === 'PUT' ? '' : p.value);
  checkProperty(p.key, value);
  p.value = value;
  if (b.visibility !== undefined) {
    const v = b.visibility.toUpperCase() === 'PUBLIC' ? 'PUBLIC' : 'PRIVATE';
    if (v !== p.visibility && f.properties.some((x) => x.key === p.key && x.visibility === v))
      throw badRequest('A property with this key and visibility exists.', 'property.visibility', 'duplicate');
    p.visibility = v;
  }
  p.version++;
  svc.store.touchFile(f);
  return { status: 200, json: renderProperty(ctx.base, f.id, p) };
}

function deleteProperty(ctx: RequestContext, svc: StorageService): Reply {
  const f = svc.writableFile(ctx.params.fileId);
  const p = findProperty(ctx, f);
  f.properties = f.properties.filter((x) => x !== p);
  svc.store.touchFile(f);
  return { status: 204, empty: true };
}

export function registerPropertyRoutes(r: Router<StorageService>): void {
  r.add('GET', 'files/{fileId}/properties', listProperties);
  r.add('POST', 'files/{fileId}/properties', insertProperty);
  r.add('GET', 'files/{fileId}/properties/{propertyKey}', getProperty);
  r.add('PATCH', 'files/{fileId}/properties/{propertyKey}', changeProperty);
  r.add('PUT', 'files/{fileId}/properties/{propertyKey}', changeProperty);
  r.add('DELETE', 'files/{fileId}/properties/{propertyKey}', deleteProperty);
}
