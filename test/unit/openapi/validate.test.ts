// Every real discovery document we hold, and the sandbox's own documents, convert into OpenAPI 3.0 and 3.1
// documents that an independent validator accepts.
//
// The validator is Redocly's linter (@redocly/openapi-core, the engine of the Redocly CLI; maintained by
// Redocly, released every few weeks, independent of Google and of us). It checks the structure of 3.0 and 3.1
// documents against the specification AND what a JSON schema cannot: every path template variable declared as
// a required path parameter, unique parameters and operationIds, resolvable $refs, security schemes defined,
// enum values of the declared type; which is exactly where a converter goes wrong. @apidevtools/swagger-parser
// was tried first: for OpenAPI 3 it only checks the JSON schema (its semantic checks are Swagger 2.0 only), so
// an undeclared path variable passed. Both install from the npm registry with no download step.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createConfig, lintFromString, type Config } from '@redocly/openapi-core';
import { toOpenApi } from '../../../src/discovery/core/openapi';
import { isObj, type Obj } from '../../../src/discovery/core/model';
import { realDocumentFiles, REPO_ROOT } from '../discovery/helpers';

const SANDBOX_DOCUMENTS = ['store.v2.json', 'generation.v1beta.json', 'discovery.v1.json'].map((f) =>
  join(REPO_ROOT, 'schemas', f),
);

let config: Promise<Config> | undefined;

/**
 * Redocly's strict recommended rules, less those about documentation style (a summary and 4xx response per
 * operation, tag descriptions, a licence: the discovery document has none to give) and `no-ambiguous-paths`:
 * Google's APIs themselves hold such pairs (`…/{id}` beside `…/{id}:deprecate` under a literal segment).
 */
function validatorConfig(): Promise<Config> {
  return (config ??= createConfig({
    extends: ['recommended-strict'],
    rules: {
      'operation-summary': 'off',
      'operation-4xx-response': 'off',
      'tag-description': 'off',
      'info-license': 'off',
      'info-license-url': 'off',
      'no-unused-components': 'off',
      'no-ambiguous-paths': 'off',
    },
  }));
}

async function problemsOf(document: Obj): Promise<string[]> {
  const problems = await lintFromString({
    source: JSON.stringify(document),
    absoluteRef: '/openapi.json',
    config: await validatorConfig(),
  });
  return problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? '?'}`);
}

async function validate(document: Obj): Promise<void> {
  const problems = await problemsOf(document);
  assert.deepEqual(problems.slice(0, 10), [], `${problems.length} problems`);
}

function operationIds(document: Obj): string[] {
  const ids: string[] = [];
  for (const item of Object.values(document.paths as Obj))
    if (isObj(item))
      for (const [verb, op] of Object.entries(item))
        if (verb !== 'servers' && isObj(op)) ids.push(String(op.operationId));
  return ids;
}

function methodIds(r: Obj, out: string[] = []): string[] {
  if (isObj(r.methods)) for (const m of Object.values(r.methods)) if (isObj(m)) out.push(String(m.id));
  if (isObj(r.resources)) for (const c of Object.values(r.resources)) if (isObj(c)) methodIds(c, out);
  return out;
}

/**
 * Every method is one operation with its id as operationId (none lost where two share a path and verb), and
 * the only other operations are its upload variants (`<id>.upload`, `<id>.upload2`…); operationIds are unique.
 */
function assertEveryMethodIsAnOperation(doc: Obj, document: Obj): void {
  const methods = methodIds(doc);
  const ops = operationIds(document);
  assert.equal(new Set(ops).size, ops.length, 'operationIds are not unique');
  const known = new Set(methods);
  assert.deepEqual(
    methods.filter((id) => !ops.includes(id)),
    [],
    'methods missing from paths',
  );
  const main = ops.filter((id) => known.has(id));
  assert.equal(main.length, methods.length, 'operation count != method count');
  assert.deepEqual(
    ops.filter((id) => !known.has(id) && !/\.upload\d*$/.test(id)),
    [],
    'operations that are no method',
  );
}

describe('OpenAPI export: every real and sandbox document validates', function () {
  this.timeout(300000);
  const files = [...realDocumentFiles(), ...SANDBOX_DOCUMENTS];

  it('holds the real documents (a missing data folder fails here)', () => {
    assert.ok(files.length >= 40, `only ${files.length} documents`);
  });

  for (const file of files)
    for (const version of ['3.0', '3.1'] as const)
      it(`${file.split('/').pop()} as OpenAPI ${version}`, async () => {
        const doc = JSON.parse(readFileSync(file, 'utf8')) as Obj;
        const { document, warnings } = toOpenApi(doc, version);
        assert.deepEqual(warnings, []);
        await validate(document);
        assertEveryMethodIsAnOperation(doc, document);
      });

  it('methods that share a path and verb (the shape of firestore documents.get/patch/delete) validate', async () => {
    const doc = JSON.parse(readFileSync(SANDBOX_DOCUMENTS[0], 'utf8')) as Obj;
    const path = (name: string) => ({ type: 'string', location: 'path', required: true, description: name });
    const flat = 'v1/projects/{projectsId}/documents/{documentsId}';
    const method = (id: string, httpMethod: string, p: string, flatPath: string, names: string[]) => ({
      id,
      httpMethod,
      path: p,
      flatPath,
      parameters: Object.fromEntries(names.map((n) => [n, path(n)])),
      parameterOrder: names,
    });
    (doc.resources as Obj).documents = {
      methods: {
        list: method('store.documents.list', 'GET', 'v1/{+parent}/{collectionId}', `${flat}/{collectionId}`, [
          'parent',
          'collectionId',
        ]),
        get: method('store.documents.get', 'GET', 'v1/{+name}', `${flat}/{documentsId1}`, ['name']),
        patch: method('store.documents.patch', 'PATCH', 'v1/{+name}', `${flat}/{documentsId1}`, ['name']),
        show: method('store.documents.show', 'GET', 'v1/items/{a}', 'v1/items/{a}', ['a']),
        edit: method('store.documents.edit', 'PATCH', 'v1/items/{b}', 'v1/items/{b}', ['b']),
      },
    };
    for (const version of ['3.0', '3.1'] as const) {
      const { document, warnings } = toOpenApi(doc, version);
      assert.deepEqual(warnings, []);
      await validate(document);
      assertEveryMethodIsAnOperation(doc, document);
    }
  });

  it('the validator is not a rubber stamp: an undeclared path variable is rejected', async () => {
    const doc = JSON.parse(readFileSync(SANDBOX_DOCUMENTS[0], 'utf8')) as Obj;
    const { document } = toOpenApi(doc, '3.1');
    const paths = document.paths as Obj;
    const key = Object.keys(paths).find((k) => k.includes('{fileId}'))!;
    paths[key.replace('{fileId}', '{fileIdentifier}')] = paths[key];
    delete paths[key];
    const problems = await problemsOf(document);
    assert.ok(
      problems.some((p) => p.startsWith('path-parameters-defined')),
      problems.join('\n'),
    );
  });
});
