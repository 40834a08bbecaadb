import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildTryRequest,
  checkBody,
  expandTemplate,
  explainRpcError,
  toCurl,
  TryItInputError,
  tryItForm,
} from '../../../src/discovery/core/tryIt';
import type { Obj } from '../../../src/discovery/core/model';
import { REPO_ROOT } from '../discovery/helpers';

const store = JSON.parse(readFileSync(join(REPO_ROOT, 'schemas', 'store.v2.json'), 'utf8')) as Obj;
const gen = JSON.parse(readFileSync(join(REPO_ROOT, 'schemas', 'generation.v1beta.json'), 'utf8')) as Obj;
const method = (doc: Obj, ...chain: string[]): Obj => {
  let r: Obj = doc;
  for (const c of chain.slice(0, -1)) r = (r.resources as Record<string, Obj>)[c];
  return (r.methods as Record<string, Obj>)[chain[chain.length - 1]];
};

describe('Try it: RFC 6570 expansion', () => {
  // The examples of RFC 6570 §1.2 and §3.2.
  const vars = {
    var: 'value',
    hello: 'Hello World!',
    path: '/foo/bar',
    empty: '',
    list: ['red', 'green', 'blue'],
    x: '1024',
    y: '768',
  };
  const cases: [string, string][] = [
    ['{var}', 'value'],
    ['{hello}', 'Hello%20World%21'],
    ['{+hello}', 'Hello%20World!'],
    ['{+path}/here', '/foo/bar/here'],
    ['here?ref={+path}', 'here?ref=/foo/bar'],
    ['{#path}', '#/foo/bar'],
    ['map?{x,y}', 'map?1024,768'],
    ['{x,hello,y}', '1024,Hello%20World%21,768'],
    ['{/var,x}/here', '/value/1024/here'],
    ['{;x,y,empty}', ';x=1024;y=768;empty'],
    ['{?x,y,empty}', '?x=1024&y=768&empty='],
    ['?fixed=yes{&x}', '?fixed=yes&x=1024'],
    ['{.list}', '.red,green,blue'],
    ['{/list*}', '/red/green/blue'],
    ['{?list*}', '?list=red&list=green&list=blue'],
    ['{var:3}', 'val'],
    ['{undefinedvar}', ''],
  ];
  for (const [t, want] of cases) it(`${t} → ${want}`, () => assert.equal(expandTemplate(t, vars), want));

  it('reserved expansion keeps the slashes of a resource name, simple expansion escapes them', () => {
    assert.equal(expandTemplate('v1/{+name}', { name: 'projects/p/locations/l' }), 'v1/projects/p/locations/l');
    assert.equal(expandTemplate('v1/{name}', { name: 'projects/p' }), 'v1/projects%2Fp');
  });
});

describe('Try it: the form of a method', () => {
  it('files.list of store:v2: query fields with defaults, enums with descriptions, repeated values, globals folded', () => {
    const form = tryItForm(store, method(store, 'files', 'list'), 'store.files.list');
    assert.equal(form.httpMethod, 'GET');
    assert.equal(form.urlTemplate, 'https://store.api-workbench.dev/store/v2/files');
    const own = form.fields.filter((f) => !f.global);
    assert.ok(own.length > 3);
    assert.ok(own.every((f) => f.location === 'query' && !f.required));
    const withEnum = form.fields.find((f) => f.enum && f.enum.some((e) => e.description));
    assert.ok(withEnum, 'an enum picker with descriptions');
    assert.ok(form.fields.some((f) => f.default !== undefined));
    assert.ok(form.fields.some((f) => f.global && f.name === 'fields'));
  });

  it('files.get: the path parameter is required, and a body seed follows the request schema of files.insert', () => {
    const get = tryItForm(store, method(store, 'files', 'get'), 'store.files.get');
    assert.deepEqual(
      get.fields.filter((f) => f.required).map((f) => [f.name, f.location]),
      [['fileId', 'path']],
    );
    const insert = tryItForm(store, method(store, 'files', 'insert'), 'store.files.insert');
    assert.equal(insert.body?.schema, 'File');
    // File has 71 properties, none required for files.insert: the seed leaves them to the body's completion.
    assert.equal(insert.body.seed, '{}');
    const create = { request: { $ref: 'Small' }, httpMethod: 'POST', path: 'x', id: 'x.create' };
    const small = {
      ...store,
      schemas: {
        Small: {
          type: 'object',
          properties: {
            title: { type: 'string' },
            size: { type: 'string', format: 'int64' },
            etag: { type: 'string', readOnly: true },
            owner: { type: 'object', properties: { name: { type: 'string' }, id: { type: 'string', required: true } } },
          },
        },
      },
    };
    assert.deepEqual(JSON.parse(tryItForm(small, create, 'x').body!.seed), { title: '', size: '0', owner: { id: '' } });
    assert.ok(insert.upload && insert.upload.accept.length > 0);
  });
});

describe('Try it: the request', () => {
  const get = method(gen, 'models', 'get');
  const getForm = tryItForm(gen, get, 'generativelanguage.models.get');

  it('expands {+name} and puts the API key in a header, never in the URL', () => {
    const req = buildTryRequest(
      gen,
      get,
      getForm,
      { params: { name: ['models/gemini-x'] } },
      { kind: 'apiKey', value: 'SECRET' },
    );
    assert.equal(req.url, 'https://generativelanguage.googleapis.com/v1beta/models/gemini-x');
    assert.equal(req.headers['x-goog-api-key'], 'SECRET');
    assert.ok(!req.url.includes('SECRET'));
  });

  it('a missing required field is an input error naming it', () => {
    assert.throws(
      () => buildTryRequest(gen, get, getForm, { params: {} }),
      (e: unknown) => e instanceof TryItInputError && /name/.test(e.message),
    );
  });

  it('repeated query values are each sent; empty ones are left out', () => {
    const doc: Obj = { kind: 'discovery#restDescription', rootUrl: 'https://x.test/', servicePath: 'v1/' };
    const m: Obj = {
      id: 'x.list',
      path: 'items',
      httpMethod: 'GET',
      parameters: {
        tags: { type: 'string', location: 'query', repeated: true },
        q: { type: 'string', location: 'query' },
        one: { type: 'string', location: 'query' },
      },
    };
    const form = tryItForm(doc, m, 'x.list');
    assert.equal(form.fields.find((f) => f.name === 'tags')?.repeated, true);
    const req = buildTryRequest(doc, m, form, { params: { tags: ['a', '', 'b'], q: [''], one: ['1', '2'] } });
    const url = new URL(req.url);
    assert.deepEqual(url.searchParams.getAll('tags'), ['a', 'b']);
    assert.equal(url.searchParams.has('q'), false);
    assert.deepEqual(url.searchParams.getAll('one'), ['1']);
  });

  it('a body goes as JSON; media goes to the upload path, multipart when there is metadata', () => {
    const insert = method(store, 'files', 'insert');
    const form = tryItForm(store, insert, 'store.files.insert');
    const json = buildTryRequest(store, insert, form, { params: {}, body: '{"title":"a"}' });
    assert.equal(json.headers['content-type'], 'application/json');
    assert.equal(json.url, 'https://store.api-workbench.dev/store/v2/files');
    const media = { bytes: new TextEncoder().encode('hello'), contentType: 'text/plain' };
    const up = buildTryRequest(store, insert, form, { params: {}, body: '{"title":"a"}', media }, undefined, 'B');
    assert.equal(up.url, 'https://store.api-workbench.dev/upload/store/v2/files?uploadType=multipart');
    assert.equal(up.headers['content-type'], 'multipart/related; boundary=B');
    assert.match(
      new TextDecoder().decode(up.body as Uint8Array),
      /--B\r\nContent-Type: application\/json[^]*\{"title":"a"\}[^]*text\/plain\r\n\r\nhello\r\n--B--/,
    );
    const bare = buildTryRequest(store, insert, form, { params: {}, media });
    assert.match(bare.url, /uploadType=media$/);
  });

  it('Copy as curl: credentials become shell variables unless revealed', () => {
    const req = buildTryRequest(
      gen,
      get,
      getForm,
      { params: { name: ['models/m'], key: ['K123'] } },
      { kind: 'bearer', value: 'TOKEN9' },
    );
    const redacted = toCurl(req);
    assert.ok(!redacted.includes('TOKEN9') && !redacted.includes('K123'), redacted);
    assert.match(redacted, /-H "Authorization: Bearer \$\{ACCESS_TOKEN\}"/);
    assert.match(redacted, /key='"\$API_KEY"'/);
    const shown = toCurl(req, true);
    assert.match(shown, /Bearer TOKEN9/);
    assert.match(shown, /key=K123/);
  });

  it('curl quotes a body with a single quote for the shell', () => {
    assert.match(
      toCurl({ method: 'POST', url: 'https://x.test/a', headers: {}, body: `{"a":"it's"}` }),
      /--data-raw '\{"a":"it'\\''s"\}'/,
    );
  });
});

describe('Try it: body check and error explanation', () => {
  it('reports wrong types, unknown and output-only properties, and fields this method requires', () => {
    const schemas: Obj = {
      S: {
        id: 'S',
        type: 'object',
        properties: {
          n: { type: 'integer' },
          big: { type: 'string', format: 'int64' },
          state: { type: 'string', enum: ['ON', 'OFF'] },
          id: { type: 'string', readOnly: true },
          need: { type: 'string', annotations: { required: ['m.insert'] } },
        },
      },
    };
    const doc: Obj = { schemas };
    const problems = checkBody(
      doc,
      { $ref: 'S' },
      'm.insert',
      '{"n":"x","big":"12a","state":"MAYBE","id":"1","zzz":1}',
    );
    const byPointer = problems.map((p) => `${p.pointer} ${p.message}`);
    assert.ok(
      byPointer.some((p) => p.startsWith('/n Expected integer')),
      byPointer.join('\n'),
    );
    assert.ok(byPointer.some((p) => p.startsWith('/big Expected a int64')));
    assert.ok(byPointer.some((p) => p.startsWith('/state "MAYBE" is not one of ON, OFF')));
    assert.ok(byPointer.some((p) => p.startsWith('/id "id" is output only')));
    assert.ok(byPointer.some((p) => p.startsWith('/zzz "zzz" is not a property of S')));
    assert.ok(byPointer.some((p) => p.startsWith(' "need" is required for m.insert')));
    assert.deepEqual(checkBody(doc, { $ref: 'S' }, 'm.patch', '{"n":1}'), []);
    assert.match(checkBody(doc, { $ref: 'S' }, 'm.patch', '{')[0].message, /^Not JSON/);
  });

  it('explains a google.rpc error with its details', () => {
    const e = explainRpcError(
      JSON.stringify({
        error: {
          code: 400,
          message: 'bad',
          status: 'INVALID_ARGUMENT',
          details: [
            {
              '@type': 'type.googleapis.com/google.rpc.BadRequest',
              fieldViolations: [{ field: 'pageSize', description: 'too big' }],
            },
            { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '3s' },
          ],
        },
      }),
    );
    assert.equal(e?.code, 400);
    assert.match(e?.meaning ?? '', /malformed/);
    assert.deepEqual(e?.details, ['Field pageSize: too big', 'Retry after 3s']);
    assert.equal(explainRpcError('{"files": []}'), undefined);
    // The older shape (Drive v2) has no status: the HTTP code gives it.
    const old = explainRpcError(
      '{"error":{"code":404,"message":"File not found: x","errors":[{"domain":"global","reason":"notFound","message":"File not found: x"}]}}',
    );
    assert.equal(old?.status, 'NOT_FOUND');
    assert.match(old?.meaning ?? '', /does not exist/);
    assert.deepEqual(old?.details, ['Reason notFound (global): File not found: x']);
    assert.equal(explainRpcError('<html>'), undefined);
  });
});
