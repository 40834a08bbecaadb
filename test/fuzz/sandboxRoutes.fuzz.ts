// Fuzz tier: random methods, paths, queries, headers and bodies against every emulator of a fresh
// in-process sandbox (storage incl. its `q` parser, uploads and batch; generation; water data; directory).
// Properties: no 5xx, every error body in its service's error shape, the server stays up.
// Fixed seeds and a time budget keep it bounded; FUZZ_SECONDS / FUZZ_SEED run it longer or elsewhere.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server';

/** mulberry32: a small seeded PRNG, so a failure is reproduced from its seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEEDS = process.env.FUZZ_SEED ? [Number(process.env.FUZZ_SEED)] : [1, 2, 3, 4];
const BUDGET_MS = Number(process.env.FUZZ_SECONDS ?? 20) * 1000;

const WEIRD = [
  'constructor',
  '__proto__',
  'toString',
  'root',
  '%E0%A4%A',
  '%ZZ',
  '..',
  '%2F',
  '',
  '0',
  '-1',
  'a'.repeat(300),
  '\u00e9',
  '{fileId}',
  '*',
  'trash',
  'startPageToken',
  "'",
  '"',
  '%00',
  'null',
];
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
const STORAGE_PATHS = [
  '/store/v2/files',
  '/store/v2/files/{id}',
  '/store/v2/files/{id}/copy',
  '/store/v2/files/{id}/children',
  '/store/v2/files/{id}/children/{id}',
  '/store/v2/files/{id}/parents',
  '/store/v2/files/{id}/parents/{id}',
  '/store/v2/files/{id}/permissions',
  '/store/v2/files/{id}/permissions/{id}',
  '/store/v2/files/{id}/properties/{id}',
  '/store/v2/files/{id}/revisions/{id}',
  '/store/v2/files/{id}/comments/{id}/replies',
  '/store/v2/files/{id}/export',
  '/store/v2/files/{id}/trash',
  '/store/v2/files/{id}/watch',
  '/store/v2/files/{id}/modifyLabels',
  '/store/v2/files/{id}/listLabels',
  '/store/v2/files/trash',
  '/store/v2/files/generateIds',
  '/store/v2/about',
  '/store/v2/changes',
  '/store/v2/changes/{id}',
  '/store/v2/changes/startPageToken',
  '/store/v2/changes/watch',
  '/store/v2/channels/stop',
  '/store/v2/drives',
  '/store/v2/drives/{id}',
  '/store/v2/drives/{id}/hide',
  '/store/v2/apps/{id}',
  '/store/v2/permissionIds/{id}',
  '/drive/v2/files/{id}',
  '/store/v2/__sandbox/faults',
  '/store/v2/__sandbox/seedFolder',
  '/store/v2/__sandbox/oauth',
  '/upload/store/v2/files',
  '/upload/store/v2/files/{id}',
  '/upload/drive/v2/files',
  '/batch/store/v2',
  '/batch/drive/v2',
];
const OTHER_PATHS = [
  '/v1beta/models',
  '/v1beta/models/{id}',
  '/v1beta/models/gemini-2.5-flash:generateContent',
  '/v1beta/models/gemini-2.5-flash:streamGenerateContent',
  '/v1beta/models/{id}:countTokens',
  '/v1beta/files',
  '/v1beta/files/{id}',
  '/upload/v1beta/files',
  '/v1/odata/v4/Locations',
  '/v1/odata/v4/Observations',
  '/v1/odata/v4/Metadata',
  '/v1/odata/v4/Records',
  '/v1/odata/v4/{id}',
  '/discovery/v1/apis',
  '/discovery/v1/apis/{id}/{id}/rest',
  '/discovery/v1/apis/store/v2/rest',
];
const Q_ATOMS = [
  'title',
  'fullText',
  'mimeType',
  'trashed',
  'starred',
  'parents',
  'properties',
  'modifiedDate',
  'constructor',
  '__proto__',
  'name',
  'memberCount',
  'and',
  'or',
  'not',
  '(',
  ')',
  '=',
  '!=',
  'contains',
  'in',
  'has',
  '<',
  '>=',
  "'x'",
  "'root'",
  "'\\''",
  'true',
  'false',
  '5',
  '{',
  '}',
  "'2026-01-01T00:00:00'",
  'key',
  'value',
];
const QUERY_KEYS = [
  'q',
  'fields',
  'maxResults',
  'pageToken',
  'orderBy',
  'alt',
  'uploadType',
  'upload_id',
  'mimeType',
  'prettyPrint',
  'corpora',
  'spaces',
  'addParents',
  'removeParents',
  'convert',
  'newRevision',
  'modifiedDateBehavior',
  'supportsAllDrives',
  'requestId',
  'revisionId',
  '$filter',
  '$select',
  '$top',
  '$skiptoken',
  '$count',
  'key',
  'access_token',
  'maxSize',
];

interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

function generate(rnd: () => number, sb: RunningSandbox): Sent {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const storage = rnd() < 0.7;
  // Segments go out as a client would send them: escaped, except the deliberately broken escapes.
  const segment = (w: string) => (/^[A-Za-z0-9%._*'{}-]*$/.test(w) ? w : encodeURIComponent(w));
  let path = pick(storage ? STORAGE_PATHS : OTHER_PATHS).replace(/\{id\}/g, () =>
    rnd() < 0.3 ? 'root' : segment(pick(WEIRD)),
  );
  const params: string[] = [];
  const nParams = Math.floor(rnd() * 4);
  for (let i = 0; i < nParams; i++) {
    const key = pick(QUERY_KEYS);
    let value: string;
    if (key === 'q')
      value = encodeURIComponent(Array.from({ length: 1 + Math.floor(rnd() * 8) }, () => pick(Q_ATOMS)).join(' '));
    else if (key === 'fields')
      value = encodeURIComponent(
        pick(['*', 'items(id,title)', 'items(', 'id,,', 'a/b/c', '()', 'kind,items/parents(id)']),
      );
    else
      value =
        rnd() < 0.5
          ? encodeURIComponent(pick(WEIRD))
          : pick([
              'true',
              'false',
              '0',
              '-5',
              '1000000',
              'media',
              'multipart',
              'resumable',
              'json',
              'desc',
              'title%20desc',
              'text/plain',
              '%',
            ]);
    params.push(`${key}=${value}`);
  }
  if (params.length) path += '?' + params.join('&');
  const headers: Record<string, string> = {};
  const auth = rnd();
  if (auth < 0.8) headers.authorization = `Bearer ${sb.accessToken}`;
  else if (auth < 0.9) headers.authorization = pick(['Bearer ', 'Basic x', `Bearer ${'x'.repeat(50)}`]);
  if (!storage) {
    headers['x-goog-api-key'] = sb.apiKey;
    headers['x-api-key'] = sb.apiKey;
  }
  const extra = [
    'if-match',
    'if-none-match',
    'content-range',
    'range',
    'x-upload-content-length',
    'x-upload-content-type',
    'x-http-method-override',
    'x-goog-upload-protocol',
    'x-goog-upload-command',
    'x-goog-upload-offset',
    'x-goog-upload-header-content-length',
  ];
  for (let i = Math.floor(rnd() * 3); i > 0; i--) {
    headers[pick(extra)] = pick([
      '*',
      '"x"',
      'bytes 0-9/10',
      'bytes */*',
      'bytes=0-',
      'bytes=5-1',
      '-1',
      'abc',
      'GET',
      'DELETE',
      'resumable',
      'start',
      'upload, finalize',
      '0',
      '99999999999999999999',
    ]);
  }
  const bodyKind = rnd();
  let body: Buffer | undefined;
  if (bodyKind < 0.35) {
    headers['content-type'] = 'application/json';
    body = Buffer.from(JSON.stringify(randomJson(rnd, 0)));
  } else if (bodyKind < 0.45) {
    headers['content-type'] = pick([
      'multipart/related; boundary=b',
      'multipart/mixed; boundary=b',
      'multipart/related',
    ]);
    body = Buffer.from(
      pick([
        '--b\r\nContent-Type: application/json\r\n\r\n{"title":"f"}\r\n--b\r\nContent-Type: text/plain\r\n\r\nhi\r\n--b--',
        '--b\r\nContent-Type: application/http\r\nContent-ID: <1>\r\n\r\nGET /store/v2/files/constructor\r\n--b--',
        '--b\r\nContent-Type: application/http\r\n\r\nPOST /store/v2/files\r\ncontent-type: application/json\r\n\r\n{"parents":"x"}\r\n--b--',
        '--b\r\n\r\n--b',
        '--b--',
        'no boundary at all',
      ]),
    );
  } else if (bodyKind < 0.55) {
    headers['content-type'] = pick(['text/plain', 'application/octet-stream', 'application/json']);
    body = Buffer.from(Array.from({ length: Math.floor(rnd() * 200) }, () => Math.floor(rnd() * 256)));
  }
  if (body) headers['content-length'] = String(body.length);
  return { method: pick(METHODS), path, headers, body };
}

function randomJson(rnd: () => number, depth: number): unknown {
  const r = rnd();
  if (depth > 3 || r < 0.3) return [null, true, 5, -1.5, 'x', '', 'root', '__proto__', 1e308][Math.floor(rnd() * 9)];
  if (r < 0.5) return Array.from({ length: Math.floor(rnd() * 3) }, () => randomJson(rnd, depth + 1));
  const keys = [
    'queued',
    'count',
    'kind',
    'status',
    'afterBytes',
    'rateLimitPerSecond',
    'accessTokenTtlSeconds',
    'title',
    'parents',
    'id',
    'mimeType',
    'labels',
    'properties',
    'role',
    'type',
    'value',
    'content',
    'name',
    'kind',
    'contents',
    'generationConfig',
    'file',
    'address',
    'description',
    '__proto__',
    'constructor',
    'starred',
    'key',
    'visibility',
    'modifiedDate',
  ];
  const out: Record<string, unknown> = {};
  for (let i = Math.floor(rnd() * 4); i > 0; i--)
    out[keys[Math.floor(rnd() * keys.length)]] = randomJson(rnd, depth + 1);
  return out;
}

function send(origin: string, s: Sent): Promise<{ status: number; uploadStatus?: string; text: string }> {
  const u = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: u.hostname, port: u.port, method: s.method, path: s.path, headers: s.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            uploadStatus: res.headers['x-goog-upload-status'] as string | undefined,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error('no answer within 10 s')));
    req.on('error', reject);
    req.end(s.body);
  });
}

/** The error shapes of the services: Google JSON errors, water-data errors, OAuth errors. */
function hasErrorShape(path: string, text: string): boolean {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return false;
  }
  if (!isRecord(json)) return false;
  if (isRecord(json.error)) {
    const e = json.error;
    // Google v1 (code, message[, errors]) and OData (code, message) both use an `error` object.
    return (typeof e.code === 'number' || typeof e.code === 'string') && typeof e.message === 'string';
  }
  if (path.startsWith('/v1/odata/v4')) {
    // The water-data front end answers some refusals with its documented {"message": …}.
    if ('message' in json) return true;
    // Its application errors carry an `errors` list (the shared water-data reference, section 5).
    const errors = json.errors;
    return (
      Array.isArray(errors) &&
      errors.length > 0 &&
      errors.every((e) => isRecord(e) && typeof e.status === 'string' && typeof e.detail === 'string')
    );
  }
  return false;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

describe('fuzz: sandbox HTTP routes', function () {
  this.timeout(BUDGET_MS + 60_000);
  let sb: RunningSandbox;
  before(async () => {
    sb = await startSandbox();
  });
  after(() => sb.close());

  it('water-data refusals the random requests reach only when the rate limit lets them through are in the shape', async () => {
    // A CI run once met one (a repeated option) that the shape check did not know: sent here every run.
    for (const query of ['spaces=x&mimeType=toString&mimeType=%C3%A9', '$select=Nope', '$orderby=Id']) {
      await new Promise((r) => setTimeout(r, 600)); // the service's 2 requests a second
      const path = `/v1/odata/v4/Observations?${query}`;
      const r = await send(sb.url, { method: 'GET', path, headers: { 'x-api-key': sb.apiKey } });
      assert.equal(r.status, 400, `${path}: ${r.text}`);
      assert.ok(hasErrorShape(path, r.text), `${path}: ${r.text}`);
    }
  });

  it(`no 5xx, errors in the service's shape, server stays up (seeds ${SEEDS.join(', ')}, ${BUDGET_MS / 1000} s)`, async () => {
    const deadline = Date.now() + BUDGET_MS;
    const problems: string[] = [];
    let count = 0;
    for (const seed of SEEDS) {
      const rnd = prng(seed);
      const perSeed = Date.now() + (deadline - Date.now()) / (SEEDS.length - SEEDS.indexOf(seed));
      for (let i = 0; Date.now() < perSeed; i++) {
        const s = generate(rnd, sb);
        const tag = `seed ${seed} #${i}: ${s.method} ${s.path} ${JSON.stringify(s.headers)} ${s.body?.toString('utf8').slice(0, 120) ?? ''}`;
        let r;
        try {
          r = await send(sb.url, s);
        } catch (e) {
          problems.push(`${tag} → ${(e as Error).message}`);
          continue;
        }
        count++;
        if (r.status >= 500 && !(r.status === 503 && /injected|emulator-instructions/i.test(tag)))
          problems.push(`${tag} → ${r.status} ${r.text.slice(0, 200)}`);
        // The upload protocol of the generation service states its answer in X-Goog-Upload-Status (empty body).
        else if (
          r.status >= 400 &&
          s.method !== 'HEAD' &&
          r.uploadStatus === undefined &&
          !hasErrorShape(s.path, r.text)
        )
          problems.push(`${tag} → ${r.status} not in the error shape: ${r.text.slice(0, 200)}`);
        if (problems.length >= 20) break;
      }
    }
    // The server is still up and answering. Random bodies posted to the fault controls may have left a rate
    // limit or queued faults (a 150 s run of seed 11 did): they are reset first, as a test would.
    const headers = { authorization: `Bearer ${sb.accessToken}` };
    const reset = await fetch(`${sb.url}/store/v2/__sandbox/faults`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ reset: true }),
    });
    assert.equal(reset.status, 200, await reset.text());
    const about = await fetch(`${sb.url}/store/v2/about?fields=kind`, { headers });
    assert.equal(about.status, 200, await about.text());
    assert.deepEqual(problems, [], `${problems.length} problems in ${count} requests:\n${problems.join('\n')}`);
    assert.ok(count > 100, `only ${count} requests ran`);
  });
});
