// One method against its namesake (same `id`): where it is served, its parameters, bodies, scopes
// and media support.
import type { JsonPath } from '../jsonTree';
import { isObj, type Obj } from '../model';
import { REQUEST, RESPONSE, str, type DiffContext } from './context';
import { compareParameters } from './parameters';
import type { ChangeSink } from './report';
import { compareSchema } from './schemas';

export function compareMethod(
  sink: ChangeSink,
  ctx: DiffContext,
  id: string,
  o: Obj,
  n: Obj,
  oldPath: JsonPath,
  newPath: JsonPath,
): void {
  const field = (key: string): [JsonPath, JsonPath] => [
    [...oldPath, key],
    [...newPath, key],
  ];
  const text = (key: string) => {
    const v = str(o[key]);
    const w = str(n[key]);
    return v === w ? undefined : `${v === undefined ? 'none' : `"${v}"`} to ${w === undefined ? 'none' : `"${w}"`}`;
  };
  const path = text('path');
  if (path) sink.add('method-path-changed', `Path of ${id} changed from ${path}.`, ...field('path'));
  const flat = text('flatPath');
  if (flat) sink.add('method-flat-path-changed', `Flat path of ${id} changed from ${flat}.`, ...field('flatPath'));
  const verb = text('httpMethod');
  if (verb)
    sink.add('method-http-method-changed', `HTTP method of ${id} changed from ${verb}.`, ...field('httpMethod'));
  if (text('description')) sink.add('description-changed', `Description of ${id} changed.`, ...field('description'));
  if (o.deprecated !== true && n.deprecated === true)
    sink.add('method-deprecated', `${id} is now deprecated.`, oldPath, [...newPath, 'deprecated']);

  compareParameters(sink, o.parameters, n.parameters, [...oldPath, 'parameters'], [...newPath, 'parameters'], id);
  if (JSON.stringify(o.parameterOrder ?? []) !== JSON.stringify(n.parameterOrder ?? []))
    sink.add('parameter-order-changed', `Parameter order of ${id} changed.`, ...field('parameterOrder'));

  const body = (key: 'request' | 'response', usage: number) => {
    const had = isObj(o[key]);
    const has = isObj(n[key]);
    if (had && !has)
      sink.add(
        `${key}-removed`,
        `${id} no longer ${key === 'request' ? 'takes' : 'returns'} a body.`,
        field(key)[0],
        undefined,
      );
    else if (!had && has)
      sink.add(
        `${key}-added`,
        `${id} now ${key === 'request' ? 'takes' : 'returns'} a body.`,
        undefined,
        field(key)[1],
      );
    else if (had && has)
      compareSchema(sink, ctx, o[key], n[key], {
        oldPath: field(key)[0],
        newPath: field(key)[1],
        label: `the ${key} of ${id}`,
        usage,
        depth: 0,
      });
  };
  body('request', REQUEST);
  body('response', RESPONSE);
  compareScopes(sink, id, o, n, oldPath, newPath);
  compareMedia(sink, id, o, n, oldPath, newPath);
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/**
 * A token granted scope S also satisfies the narrower scopes named after it (`…/auth/drive` grants
 * `…/auth/drive.readonly` and `…/auth/drive.file`), so dropping S harms no caller while one remains.
 */
function grants(held: string, accepted: string): boolean {
  return held === accepted || accepted.startsWith(held + '.');
}

function compareScopes(sink: ChangeSink, id: string, o: Obj, n: Obj, oldPath: JsonPath, newPath: JsonPath): void {
  const before = strings(o.scopes);
  const after = strings(n.scopes);
  before.forEach((s, i) => {
    if (after.includes(s)) return;
    const cover = after.find((r) => grants(s, r));
    if (cover)
      sink.add(
        'scope-removed-covered',
        `${id} no longer lists scope ${s}; a token with it still satisfies ${cover}.`,
        [...oldPath, 'scopes', i],
        [...newPath, 'scopes', after.indexOf(cover)],
      );
    else sink.add('scope-removed', `${id} no longer accepts scope ${s}.`, [...oldPath, 'scopes', i], undefined);
  });
  after.forEach((s, j) => {
    if (!before.includes(s))
      sink.add('scope-added', `${id} now accepts scope ${s}.`, undefined, [...newPath, 'scopes', j]);
  });
}

const UNITS: Record<string, number> = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4 };

/** Bytes of a `maxSize` such as "5120GB" or "10MB"; undefined when absent or unreadable. */
export function maxSizeBytes(v: unknown): number | undefined {
  const m = typeof v === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*([KMGT]?B)?\s*$/i.exec(v) : null;
  return m ? Number(m[1]) * UNITS[(m[2] ?? 'B').toUpperCase()] : undefined;
}

/** Whether MIME range `range` (e.g. `image/*`, `*\/*`) admits everything `wanted` admits. */
function covers(range: string, wanted: string): boolean {
  const [rt, rs] = range.toLowerCase().split('/');
  const [wt, ws] = wanted.toLowerCase().split('/');
  if (rt === '*') return true;
  return rt === wt && (rs === '*' || rs === ws);
}

function compareMedia(sink: ChangeSink, id: string, o: Obj, n: Obj, oldPath: JsonPath, newPath: JsonPath): void {
  if (o.supportsMediaDownload === true && n.supportsMediaDownload !== true)
    sink.add(
      'media-download-removed',
      `${id} no longer supports media download.`,
      [...oldPath, 'supportsMediaDownload'],
      undefined,
    );
  const had = o.supportsMediaUpload === true || isObj(o.mediaUpload);
  const has = n.supportsMediaUpload === true || isObj(n.mediaUpload);
  const oldAt = [...oldPath, 'mediaUpload'];
  const newAt = [...newPath, 'mediaUpload'];
  if (had && !has) {
    sink.add('media-upload-removed', `${id} no longer accepts media uploads.`, oldAt, undefined);
    return;
  }
  if (!had && has) {
    sink.add('media-upload-added', `${id} now accepts media uploads.`, undefined, newAt);
    return;
  }
  const om = isObj(o.mediaUpload) ? o.mediaUpload : {};
  const nm = isObj(n.mediaUpload) ? n.mediaUpload : {};
  const before = maxSizeBytes(om.maxSize) ?? Infinity;
  const after = maxSizeBytes(nm.maxSize) ?? Infinity;
  if (after < before)
    sink.add(
      'media-upload-max-size-lowered',
      `Largest upload to ${id} lowered from ${str(om.maxSize) ?? 'unlimited'} to ${str(nm.maxSize)}.`,
      [...oldAt, 'maxSize'],
      [...newAt, 'maxSize'],
    );
  else if (after > before)
    sink.add(
      'media-upload-max-size-raised',
      `Largest upload to ${id} raised from ${str(om.maxSize)} to ${str(nm.maxSize) ?? 'unlimited'}.`,
      [...oldAt, 'maxSize'],
      [...newAt, 'maxSize'],
    );
  const oldAccept = strings(om.accept);
  const newAccept = strings(nm.accept);
  oldAccept.forEach((r, i) => {
    if (newAccept.some((x) => covers(x, r))) return;
    sink.add(
      'media-upload-accept-removed',
      `${id} no longer accepts uploads of ${r}.`,
      [...oldAt, 'accept', i],
      undefined,
    );
  });
  newAccept.forEach((r, j) => {
    if (!oldAccept.includes(r))
      sink.add('media-upload-accept-added', `${id} now accepts uploads of ${r}.`, undefined, [...newAt, 'accept', j]);
  });
}
