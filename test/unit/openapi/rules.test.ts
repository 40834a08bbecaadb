// One test per conversion rule of the OpenAPI export, on a small document that holds each case.
import * as assert from 'node:assert/strict';
import { NotDiscoveryDocumentError, toOpenApi } from '../../../src/discovery/core/openapi';
import { isObj, type Obj } from '../../../src/discovery/core/model';

function sample(): Obj {
  return {
    kind: 'discovery#restDescription',
    name: 'pets',
    version: 'v1',
    title: 'Pets API',
    rootUrl: 'https://pets.example.com/',
    servicePath: 'pets/v1/',
    auth: {
      oauth2: {
        scopes: {
          'https://example.com/auth/pets': { description: 'See and change your pets' },
          'https://example.com/auth/pets.readonly': { description: 'See your pets' },
        },
      },
    },
    parameters: {
      alt: {
        type: 'string',
        location: 'query',
        default: 'json',
        enum: ['json', 'media'],
        enumDescriptions: ['JSON', 'Media'],
      },
      fields: { type: 'string', location: 'query', description: 'Selector' },
      uploadType: { type: 'string', location: 'query' },
    },
    schemas: {
      Pet: {
        id: 'Pet',
        type: 'object',
        properties: {
          name: { type: 'string', annotations: { required: ['pets.pets.insert'] } },
          weight: { type: 'string', format: 'int64' },
          born: { type: 'string', format: 'google-datetime' },
          kind: { type: 'string', enum: ['CAT', 'DOG'], enumDescriptions: ['A cat.', 'A dog.'] },
          labels: { type: 'object', additionalProperties: { type: 'string' } },
          owner: { $ref: 'Owner', description: 'Who owns it.' },
        },
      },
      Owner: { id: 'Owner', type: 'object', properties: { id: { type: 'integer', format: 'uint32' } } },
    },
    resources: {
      pets: {
        methods: {
          get: {
            id: 'pets.pets.get',
            path: 'v1/{+name}',
            flatPath: 'v1/owners/{ownersId}/pets/{petsId}',
            httpMethod: 'GET',
            parameters: {
              name: { type: 'string', location: 'path', required: true, pattern: '^owners/[^/]+/pets/[^/]+$' },
              fields: { type: 'string', location: 'query', description: 'Overrides the global one' },
            },
            response: { $ref: 'Pet' },
            scopes: ['https://example.com/auth/pets', 'https://example.com/auth/pets.readonly'],
            supportsMediaDownload: true,
          },
          insert: {
            id: 'pets.pets.insert',
            path: 'v1/{+parent}/pets',
            httpMethod: 'POST',
            parameters: {
              parent: { type: 'string', location: 'path', required: true },
              tags: { type: 'string', location: 'query', repeated: true },
              pageSize: { type: 'integer', format: 'int32', location: 'query', default: '50', minimum: '1' },
            },
            request: { $ref: 'Pet' },
            response: { $ref: 'Pet' },
            scopes: ['https://example.com/auth/pets'],
            mediaUpload: {
              accept: ['image/*'],
              maxSize: '10MB',
              protocols: {
                simple: { multipart: true, path: '/upload/pets/v1/{+parent}/pets' },
                resumable: { multipart: true, path: '/resumable/upload/pets/v1/{+parent}/pets' },
              },
            },
          },
          patch: {
            id: 'pets.pets.patch',
            path: 'v1/{+name}',
            flatPath: 'v1/owners/{ownersId}/pets/{petsId}',
            httpMethod: 'PATCH',
            parameters: { name: { type: 'string', location: 'path', required: true } },
            request: { $ref: 'Pet' },
            response: { $ref: 'Pet' },
          },
        },
        resources: { toys: { methods: { list: { id: 'pets.pets.toys.list', path: 'v1/toys', httpMethod: 'GET' } } } },
      },
    },
  };
}

const doc31 = () => toOpenApi(sample(), '3.1').document;
const paths = (d: Obj) => d.paths as Record<string, Record<string, Obj>>;
const op = (d: Obj, path: string, verb: string) => {
  const o = paths(d)[path]?.[verb];
  assert.ok(o, `no ${verb} ${path} in ${Object.keys(paths(d)).join(', ')}`);
  return o;
};
const params = (o: Obj) => o.parameters as Obj[];
const param = (o: Obj, name: string) => params(o).find((p) => p.name === name);
const schemas = (d: Obj) => (d.components as Obj).schemas as Record<string, Obj>;

describe('OpenAPI export: conversion rules', () => {
  it('refuses what is not a discovery document', () => {
    assert.throws(() => toOpenApi({ openapi: '3.1.0' }), NotDiscoveryDocumentError);
    assert.throws(() => toOpenApi([1, 2]), NotDiscoveryDocumentError);
  });

  it('writes the OpenAPI version asked for', () => {
    assert.equal(toOpenApi(sample(), '3.0').document.openapi, '3.0.3');
    assert.equal(doc31().openapi, '3.1.0');
  });

  it('operationId is the method id', () => {
    const d = doc31();
    assert.equal(op(d, '/v1/owners/{ownersId}/pets/{petsId}', 'get').operationId, 'pets.pets.get');
    assert.equal(op(d, '/v1/toys', 'get').operationId, 'pets.pets.toys.list');
  });

  it('tags come from the resource chain, and are listed at the top', () => {
    const d = doc31();
    assert.deepEqual(op(d, '/v1/toys', 'get').tags, ['pets.toys']);
    assert.deepEqual(op(d, '/v1/owners/{ownersId}/pets/{petsId}', 'get').tags, ['pets']);
    assert.deepEqual(d.tags, [{ name: 'pets' }, { name: 'pets.toys' }]);
  });

  it('servers is rootUrl + servicePath', () => {
    assert.deepEqual(doc31().servers, [{ url: 'https://pets.example.com/pets/v1' }]);
  });

  it('global parameters are components referenced by every operation; a method parameter of the same name wins', () => {
    const d = doc31();
    const comps = (d.components as Obj).parameters as Record<string, Obj>;
    assert.deepEqual(Object.keys(comps), ['alt', 'fields', 'uploadType']);
    const list = params(op(d, '/v1/toys', 'get'));
    assert.deepEqual(
      list.map((p) => p.$ref),
      ['#/components/parameters/alt', '#/components/parameters/fields', '#/components/parameters/uploadType'],
    );
    const get = op(d, '/v1/owners/{ownersId}/pets/{petsId}', 'get');
    assert.equal(param(get, 'fields')?.description, 'Overrides the global one');
    assert.ok(!params(get).some((p) => p.$ref === '#/components/parameters/fields'));
  });

  it('{+var}: the flat path is the key when there is one, each segment a required path parameter', () => {
    const get = op(doc31(), '/v1/owners/{ownersId}/pets/{petsId}', 'get');
    assert.deepEqual(param(get, 'ownersId'), {
      name: 'ownersId',
      in: 'path',
      required: true,
      description: 'Part of `name`.',
      schema: { type: 'string' },
    });
    assert.equal(param(get, 'name'), undefined);
  });

  it('{+var} without a flat path becomes {var} marked x-reservedExpansion', () => {
    const insert = op(doc31(), '/v1/{parent}/pets', 'post');
    assert.deepEqual(param(insert, 'parent'), {
      name: 'parent',
      in: 'path',
      required: true,
      schema: { type: 'string' },
      'x-reservedExpansion': true,
    });
  });

  it('request and response are $refs to components/schemas', () => {
    const d = doc31();
    const get = op(d, '/v1/owners/{ownersId}/pets/{petsId}', 'get');
    const ok = (get.responses as Record<string, Obj>)['200'];
    assert.deepEqual((ok.content as Record<string, Obj>)['application/json'].schema, {
      $ref: '#/components/schemas/Pet',
    });
    assert.ok(schemas(d).Pet && schemas(d).Owner);
  });

  it('scopes become OAuth2 security requirements, any one scope sufficing, declared from auth.oauth2.scopes', () => {
    const d = doc31();
    assert.deepEqual(op(d, '/v1/owners/{ownersId}/pets/{petsId}', 'get').security, [
      { Oauth2: ['https://example.com/auth/pets'] },
      { Oauth2: ['https://example.com/auth/pets.readonly'] },
    ]);
    assert.deepEqual(op(d, '/v1/toys', 'get').security, []);
    const scheme = ((d.components as Obj).securitySchemes as Record<string, Obj>).Oauth2;
    assert.equal(scheme.type, 'oauth2');
    assert.deepEqual((scheme.flows as Record<string, Obj>).authorizationCode.scopes, {
      'https://example.com/auth/pets': 'See and change your pets',
      'https://example.com/auth/pets.readonly': 'See your pets',
    });
  });

  it('mediaUpload adds the upload paths at the root URL, with uploadType, the accepted ranges and multipart', () => {
    const d = doc31();
    const simple = op(d, '/upload/pets/v1/{parent}/pets', 'post');
    const resumable = op(d, '/resumable/upload/pets/v1/{parent}/pets', 'post');
    assert.deepEqual(paths(d)['/upload/pets/v1/{parent}/pets'].servers, [{ url: 'https://pets.example.com' }]);
    assert.equal(simple.operationId, 'pets.pets.insert.upload');
    assert.equal(resumable.operationId, 'pets.pets.insert.upload2');
    assert.deepEqual((param(simple, 'uploadType')?.schema as Obj).enum, ['media', 'multipart']);
    assert.deepEqual((param(resumable, 'uploadType')?.schema as Obj).enum, ['resumable']);
    assert.equal(
      params(simple).filter((p) => p.name === 'uploadType' || p.$ref === '#/components/parameters/uploadType').length,
      1,
    );
    const content = (simple.requestBody as Obj).content as Record<string, Obj>;
    assert.deepEqual(Object.keys(content).sort(), ['image/*', 'multipart/related']);
    assert.equal(simple['x-maxSize'], '10MB');
  });

  it('supportsMediaDownload adds the alt=media body to the 200 response', () => {
    const ok = (op(doc31(), '/v1/owners/{ownersId}/pets/{petsId}', 'get').responses as Record<string, Obj>)['200'];
    assert.ok((ok.content as Obj)['*/*']);
    assert.match(String(ok.description), /alt=media/);
    const plain = (op(doc31(), '/v1/{parent}/pets', 'post').responses as Record<string, Obj>)['200'];
    assert.equal((plain.content as Obj)['*/*'], undefined);
  });

  it('enum descriptions are kept as x-enumDescriptions, in schemas and parameters', () => {
    const d = doc31();
    const kind = (schemas(d).Pet.properties as Record<string, Obj>).kind;
    assert.deepEqual(kind.enum, ['CAT', 'DOG']);
    assert.deepEqual(kind['x-enumDescriptions'], ['A cat.', 'A dog.']);
    const alt = ((d.components as Obj).parameters as Record<string, Obj>).alt.schema as Obj;
    assert.deepEqual(alt['x-enumDescriptions'], ['JSON', 'Media']);
  });

  it('formats are mapped: int64 stays a string, google-datetime is date-time, uint32 an int64 integer', () => {
    const props = schemas(doc31()).Pet.properties as Record<string, Obj>;
    assert.deepEqual(props.weight, { type: 'string', format: 'int64' });
    assert.deepEqual(props.born, { type: 'string', format: 'date-time' });
    assert.deepEqual((schemas(doc31()).Owner.properties as Record<string, Obj>).id, {
      type: 'integer',
      format: 'int64',
    });
  });

  it('additionalProperties is converted (a map of strings)', () => {
    const labels = (schemas(doc31()).Pet.properties as Record<string, Obj>).labels;
    assert.deepEqual(labels, { type: 'object', additionalProperties: { type: 'string' } });
  });

  it('annotations.required makes a property required for that operation only', () => {
    const d = doc31();
    const body = (m: Obj) => ((m.requestBody as Obj).content as Record<string, Obj>)['application/json'].schema as Obj;
    assert.deepEqual(body(op(d, '/v1/{parent}/pets', 'post')), {
      allOf: [{ $ref: '#/components/schemas/Pet' }, { required: ['name'] }],
    });
    assert.deepEqual(body(op(d, '/v1/owners/{ownersId}/pets/{petsId}', 'patch')), { $ref: '#/components/schemas/Pet' });
    assert.equal(schemas(d).Pet.required, undefined);
  });

  it('repeated parameters are arrays, defaults and bounds take the parameter type', () => {
    const insert = op(doc31(), '/v1/{parent}/pets', 'post');
    assert.deepEqual(param(insert, 'tags')?.schema, { type: 'array', items: { type: 'string' } });
    assert.deepEqual(param(insert, 'pageSize')?.schema, { type: 'integer', format: 'int32', default: 50, minimum: 1 });
  });

  it('a $ref with a description: kept beside it in 3.1, wrapped in allOf in 3.0 (which ignores siblings of $ref)', () => {
    const owner31 = (schemas(doc31()).Pet.properties as Record<string, Obj>).owner;
    assert.deepEqual(owner31, { $ref: '#/components/schemas/Owner', description: 'Who owns it.' });
    const owner30 = (schemas(toOpenApi(sample(), '3.0').document).Pet.properties as Record<string, Obj>).owner;
    assert.deepEqual(owner30, { allOf: [{ $ref: '#/components/schemas/Owner' }], description: 'Who owns it.' });
  });

  it('two methods on the same path and verb: the second is reported, not silently lost', () => {
    const d = sample();
    ((d.resources as Obj).pets as Obj).methods = {
      a: { id: 'a', path: 'v1/x', httpMethod: 'GET' },
      b: { id: 'b', path: 'v1/x', httpMethod: 'GET' },
    };
    const { document, warnings } = toOpenApi(d);
    assert.equal(op(document, '/v1/x', 'get').operationId, 'a');
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /^b: GET \/v1\/x is already a/);
  });
  it('schemas named __proto__, constructor, toString are kept, and their $refs resolve', () => {
    const d = sample();
    const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
    Object.assign(((d.resources as Obj).pets as Obj).methods as Obj, {
      proto: { id: 'pets.pets.proto', path: 'v1/proto', httpMethod: 'GET', response: { $ref: '__proto__' } },
    });
    // Written as text, as a document arrives: JSON.parse makes "__proto__" an own member, as it is here.
    // A property of that name inside a schema is kept too.
    const extra = names
      .map((n) => {
        const props = n === 'constructor' ? '{"__proto__": {"$ref": "__proto__"}, "a": {"type": "string"}}' : '{}';
        return `"${n}": {"id": "${n}", "type": "object", "properties": ${props}}`;
      })
      .join(', ');
    const text = JSON.stringify(d).replace('"schemas":{', `"schemas":{${extra}, `);
    assert.notEqual(text, JSON.stringify(d));
    const { document } = toOpenApi(JSON.parse(text) as Obj);
    const out = JSON.parse(JSON.stringify(document)) as Obj;
    const outSchemas = (out.components as Obj).schemas as Obj;
    for (const n of names) assert.ok(Object.hasOwn(outSchemas, n), `${n} missing from components/schemas`);
    const ref = (
      (((op(out, '/v1/proto', 'get').responses as Obj)['200'] as Obj).content as Obj)['application/json'] as Obj
    ).schema as Obj;
    assert.equal(ref.$ref, '#/components/schemas/__proto__');
    const ctor = outSchemas[names[1]] as Obj;
    assert.deepEqual(Object.keys(ctor.properties as Obj), ['__proto__', 'a']);
  });

  it('a schema nested deeper than the limit is not silently emptied: a warning names it', () => {
    const d = sample();
    let deep: Obj = { type: 'string' };
    for (let i = 0; i < 300; i++) deep = { type: 'object', properties: { child: deep } };
    (d.schemas as Obj).Deep = { id: 'Deep', ...deep };
    const { document, warnings } = toOpenApi(d);
    const cut = warnings.filter((w) => w.includes('Deep'));
    assert.equal(cut.length, 1, warnings.join('\n'));
    assert.match(cut[0], /nested deeper than \d+ levels/);
    // Nesting within the limit is converted whole.
    let depth = 0;
    let at = schemas(document).Deep;
    while (isObj(at.properties)) {
      at = at.properties.child as Obj;
      depth++;
    }
    assert.ok(depth >= 100, `converted only ${depth} levels`);
    // Resources nested past their limit are not dropped without a word either.
    let resource: Obj = { methods: { m: { id: 'deep.m', path: 'v1/m', httpMethod: 'GET' } } };
    for (let i = 0; i < 70; i++) resource = { resources: { r: resource } };
    (d.resources as Obj).deep = resource;
    assert.ok(toOpenApi(d).warnings.some((w) => /^resource deep(\.r)+: nested deeper than 64 levels/.test(w)));
  });

  it('methods whose path and verb collide keep their operations: the other of path/flatPath is used', () => {
    // The shape of firestore's documents: get/patch/delete on v1/{+name}, listDocuments/createDocument on
    // v1/{+parent}/{collectionId}, whose flat paths differ only in the last variable's name.
    const d = sample();
    const nameParam = { name: { type: 'string', location: 'path', required: true } };
    const parentParams = {
      parent: { type: 'string', location: 'path', required: true },
      collectionId: { type: 'string', location: 'path', required: true },
    };
    const flat = 'v1/projects/{projectsId}/databases/{databasesId}/documents/{documentsId}';
    (d.resources as Obj).documents = {
      methods: {
        listDocuments: {
          id: 'fs.documents.listDocuments',
          path: 'v1/{+parent}/{collectionId}',
          flatPath: `${flat}/{collectionId}`,
          httpMethod: 'GET',
          parameters: parentParams,
        },
        createDocument: {
          id: 'fs.documents.createDocument',
          path: 'v1/{+parent}/{collectionId}',
          flatPath: `${flat}/{collectionId}`,
          httpMethod: 'POST',
          parameters: parentParams,
        },
        get: {
          id: 'fs.documents.get',
          path: 'v1/{+name}',
          flatPath: `${flat}/{documentsId1}`,
          httpMethod: 'GET',
          parameters: nameParam,
        },
        patch: {
          id: 'fs.documents.patch',
          path: 'v1/{+name}',
          flatPath: `${flat}/{documentsId1}`,
          httpMethod: 'PATCH',
          parameters: nameParam,
        },
        delete: {
          id: 'fs.documents.delete',
          path: 'v1/{+name}',
          flatPath: `${flat}/{documentsId1}`,
          httpMethod: 'DELETE',
          parameters: nameParam,
        },
      },
    };
    // gmail's cse.identities: get and patch on one path whose variable is named differently in each.
    (d.resources as Obj).identities = {
      methods: {
        get: {
          id: 'gm.identities.get',
          path: 'v1/users/{userId}/identities/{cseEmailAddress}',
          flatPath: 'v1/users/{userId}/identities/{cseEmailAddress}',
          httpMethod: 'GET',
          parameters: {
            userId: { type: 'string', location: 'path', required: true },
            cseEmailAddress: { type: 'string', location: 'path', required: true },
          },
        },
        patch: {
          id: 'gm.identities.patch',
          path: 'v1/users/{userId}/identities/{emailAddress}',
          flatPath: 'v1/users/{userId}/identities/{emailAddress}',
          httpMethod: 'PATCH',
          parameters: {
            userId: { type: 'string', location: 'path', required: true },
            emailAddress: { type: 'string', location: 'path', required: true },
          },
        },
      },
    };
    // Two methods on one path and verb; the second has a flat path of its own, used where its path collides.
    (d.resources as Obj).photo = {
      methods: {
        replace: {
          id: 'sv.photo.replace',
          path: 'v1/photo/{id}',
          httpMethod: 'PUT',
          parameters: { id: { type: 'string', location: 'path', required: true } },
        },
        update: {
          id: 'sv.photo.update',
          path: 'v1/photo/{id}',
          flatPath: 'v1/photo/{id}/pose',
          httpMethod: 'PUT',
          parameters: { id: { type: 'string', location: 'path', required: true } },
        },
      },
    };
    const { document, warnings } = toOpenApi(d);
    assert.deepEqual(warnings, []);
    const ids: string[] = [];
    for (const [key, item] of Object.entries(paths(document)))
      for (const [verb, o] of Object.entries(item)) {
        if (verb === 'servers') continue;
        ids.push(String(o.operationId));
        // Every path variable is a declared path parameter of the operation.
        const declared = params(o)
          .filter((p) => p.in === 'path')
          .map((p) => p.name);
        assert.deepEqual(
          declared,
          [...key.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]),
          `${verb} ${key}`,
        );
      }
    for (const id of [
      'fs.documents.listDocuments',
      'fs.documents.createDocument',
      'fs.documents.get',
      'fs.documents.patch',
      'fs.documents.delete',
      'gm.identities.get',
      'gm.identities.patch',
      'sv.photo.update',
      'sv.photo.replace',
    ])
      assert.equal(ids.filter((x) => x === id).length, 1, `${id} in ${ids.join(', ')}`);
  });
});
