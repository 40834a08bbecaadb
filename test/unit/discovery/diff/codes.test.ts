// One seeded change per change code over a small document: the code (and only the expected codes)
// is reported, with its severity and pointers that resolve to lines showing the changed key.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIFF_CODES, type DiffCode } from '../../../../src/discovery/core/diff';
import { REPO_ROOT } from '../helpers';
import { assertWellFormed, DEMO_SCOPE, diffSeeded, type Doc } from './fixture';

type Seed = (d: Doc) => void;
const get = (d: Doc) => d.resources.items.methods.get;
const insert = (d: Doc) => d.resources.items.methods.insert;
const create = (d: Doc) => d.resources.items.methods.create;
const set = (target: object, key: string, value: unknown) => Object.assign(target, { [key]: value });
const drop = (target: object, key: string) => delete (target as Record<string, unknown>)[key];

const CASES: [DiffCode, Seed, DiffCode[]?][] = [
  ['root-url-changed', (d) => (d.rootUrl = 'https://demo2.example.com/')],
  ['service-path-changed', (d) => (d.servicePath = 'demo/')],
  ['batch-path-changed', (d) => (d.batchPath = 'batch/demo')],
  ['revision-changed', (d) => (d.revision = '20260202')],
  ['description-changed', (d) => (d.schemas.Item.properties.size.description = 'Size in bytes.')],
  ['method-removed', (d) => drop(d.resources.items.methods, 'create')],
  [
    'method-added',
    (d) => set(d.resources.items.methods, 'list', { id: 'demo.items.list', path: 'v1/items', httpMethod: 'GET' }),
  ],
  ['method-path-changed', (d) => (get(d).path = 'v2/{+name}')],
  ['method-flat-path-changed', (d) => (get(d).flatPath = 'v1/things/{itemsId}')],
  ['method-http-method-changed', (d) => (create(d).httpMethod = 'PUT')],
  ['method-deprecated', (d) => set(get(d), 'deprecated', true)],
  ['parameter-order-changed', (d) => (get(d).parameterOrder = ['name', 'view'])],
  ['request-added', (d) => set(get(d), 'request', { $ref: 'Owner' })],
  ['request-removed', (d) => drop(create(d), 'request')],
  ['response-added', (d) => set(d.resources.items.methods.delete, 'response', { $ref: 'Status' })],
  ['response-removed', (d) => drop(create(d), 'response')],
  ['parameter-removed', (d) => drop(get(d).parameters, 'view')],
  [
    'parameter-renamed',
    (d) => {
      set(get(d).parameters, 'fieldMask', get(d).parameters.fields);
      drop(get(d).parameters, 'fields');
    },
  ],
  [
    'parameter-required-added',
    (d) => set(get(d).parameters, 'etag', { type: 'string', location: 'query', required: true }),
  ],
  ['parameter-added', (d) => set(get(d).parameters, 'etag', { type: 'string', location: 'query' })],
  ['parameter-made-required', (d) => set(get(d).parameters.view, 'required', true)],
  ['parameter-made-optional', (d) => set(get(d).parameters.name, 'required', false)],
  ['parameter-location-changed', (d) => (get(d).parameters.view.location = 'path')],
  ['parameter-type-changed', (d) => (get(d).parameters.view.type = 'integer')],
  ['parameter-format-changed', (d) => set(get(d).parameters.view, 'format', 'byte')],
  ['parameter-repeated-changed', (d) => (get(d).parameters.fields.repeated = false)],
  ['parameter-pattern-changed', (d) => (get(d).parameters.name.pattern = '^things/[^/]+$')],
  ['parameter-deprecated', (d) => set(get(d).parameters.view, 'deprecated', true)],
  ['parameter-enum-value-removed', (d) => (get(d).parameters.view.enum = ['BASIC'])],
  ['parameter-enum-value-added', (d) => get(d).parameters.view.enum.push('EXTRA')],
  ['schema-removed', (d) => drop(d.schemas, 'Contact')],
  ['schema-added', (d) => set(d.schemas, 'Extra', { id: 'Extra', type: 'object' })],
  [
    'schema-renamed',
    (d) => {
      set(d.schemas, 'Person', { ...d.schemas.Owner, id: 'Person' });
      drop(d.schemas, 'Owner');
      d.schemas.Item.properties.owner.$ref = 'Person';
    },
  ],
  ['property-removed', (d) => drop(d.schemas.Item.properties, 'tags')],
  ['property-added', (d) => set(d.schemas.Status.properties, 'detail', { type: 'string' })],
  ['property-type-changed', (d) => (d.schemas.Item.properties.tags.items.type = 'integer')],
  ['property-format-changed', (d) => (d.schemas.Item.properties.size.format = 'uint64')],
  [
    'property-made-required',
    (d) => set(d.schemas.Item.properties.size, 'annotations', { required: ['demo.items.insert'] }),
  ],
  ['property-made-optional', (d) => drop(d.schemas.Item.properties.name, 'annotations')],
  ['property-deprecated', (d) => set(d.schemas.Item.properties.size, 'deprecated', true)],
  [
    'ref-retargeted',
    (d) => {
      set(d.schemas, 'Person', { id: 'Person', type: 'object', properties: { phone: { type: 'string' } } });
      d.schemas.Item.properties.owner.$ref = 'Person';
    },
    ['ref-retargeted', 'schema-added'],
  ],
  ['ref-retargeted-compatible', (d) => (d.schemas.Item.properties.owner.$ref = 'Contact')],
  ['request-enum-value-removed', (d) => (d.schemas.CreateRequest.properties.mode.enum = ['FAST'])],
  ['request-enum-value-added', (d) => d.schemas.CreateRequest.properties.mode.enum.push('CAREFUL')],
  ['response-enum-value-removed', (d) => (d.schemas.Status.properties.state.enum = ['ACTIVE'])],
  ['response-enum-value-added', (d) => d.schemas.Status.properties.state.enum.push('ARCHIVED')],
  ['enum-value-deprecated', (d) => set(d.schemas.Status.properties.state, 'enumDeprecated', [false, true])],
  ['scope-removed', (d) => (create(d).scopes = [])],
  ['scope-removed-covered', (d) => (get(d).scopes = [`${DEMO_SCOPE}.readonly`])],
  ['scope-added', (d) => create(d).scopes.push(`${DEMO_SCOPE}.readonly`)],
  [
    'media-upload-removed',
    (d) => {
      drop(insert(d), 'mediaUpload');
      drop(insert(d), 'supportsMediaUpload');
    },
  ],
  ['media-upload-added', (d) => set(create(d), 'supportsMediaUpload', true)],
  ['media-upload-max-size-lowered', (d) => (insert(d).mediaUpload.maxSize = '5MB')],
  ['media-upload-max-size-raised', (d) => (insert(d).mediaUpload.maxSize = '1GB')],
  ['media-upload-accept-removed', (d) => (insert(d).mediaUpload.accept = ['image/*'])],
  ['media-upload-accept-added', (d) => insert(d).mediaUpload.accept.push('video/mp4')],
  ['media-download-removed', (d) => drop(get(d), 'supportsMediaDownload')],
];

describe('diff: one seeded change per code', () => {
  it('covers every code', () => {
    assert.deepEqual(new Set(CASES.map((c) => c[0])), new Set(Object.keys(DIFF_CODES)));
  });

  for (const [code, seed, expected] of CASES) {
    it(`${code} (${DIFF_CODES[code].severity})`, () => {
      const { changes, oldText, newText } = diffSeeded(seed);
      assert.deepEqual(changes.map((c) => c.code).sort(), (expected ?? [code]).slice().sort());
      assertWellFormed(changes, oldText, newText);
      const change = changes.find((c) => c.code === code)!;
      assert.equal(change.severity, DIFF_CODES[code].severity);
    });
  }

  it('reports nothing for an unchanged document', () => {
    assert.deepEqual(diffSeeded(() => undefined).changes, []);
  });
});

describe('docs/diff-codes.md', () => {
  const text = readFileSync(join(REPO_ROOT, 'docs/diff-codes.md'), 'utf8');
  it('documents every code with its severity, and no other', () => {
    for (const [code, info] of Object.entries(DIFF_CODES)) {
      const at = text.indexOf(`\n### ${code}\n`);
      assert.ok(at >= 0, `section for ${code}`);
      assert.ok(text.slice(at, at + 200).includes(`Severity: **${info.severity}**`), `severity of ${code}`);
    }
    const documented = [...text.matchAll(/^### ([a-z-]+)$/gm)].map((m) => m[1]);
    assert.deepEqual(documented.sort(), Object.keys(DIFF_CODES).sort());
  });
});
