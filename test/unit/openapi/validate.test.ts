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

function operationCount(document: Obj): number {
  let n = 0;
  for (const item of Object.values(document.paths as Obj))
    if (isObj(item)) n += Object.keys(item).filter((k) => k !== 'servers').length;
  return n;
}

function methodCount(r: Obj): number {
  let n = isObj(r.methods) ? Object.keys(r.methods).length : 0;
  if (isObj(r.resources)) for (const c of Object.values(r.resources)) if (isObj(c)) n += methodCount(c);
  return n;
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
        // Every method is an operation (uploads add their own variants on top).
        assert.ok(operationCount(document) >= methodCount(doc), 'a method is missing from paths');
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
