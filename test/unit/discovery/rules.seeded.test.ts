// One seeded defect per rule: the right code, at the right line, with the rule's default severity,
// and nothing else at error level.
import * as assert from 'node:assert/strict';
import { analyzeText, RULES } from '../../../src/discovery/core';
import { lineOf, minimalDocument, type SeedDocument } from './helpers';

interface Case {
  code: string;
  seed(d: SeedDocument): void;
  /** Text on the line the diagnostic must start on. */
  line: string;
  /** Rules that are off by default are switched on for their case. */
  enable?: boolean;
}

const get = (d: SeedDocument) => d.resources.items.methods.get;
const list = (d: SeedDocument) => d.resources.items.methods.list;
const insert = (d: SeedDocument) => d.resources.items.methods.insert;

const CASES: Case[] = [
  {
    code: 'ref-unresolved',
    seed: (d) => {
      get(d).response = { $ref: 'Nothing' };
    },
    line: '"$ref": "Nothing"',
  },
  {
    code: 'schema-id-mismatch',
    seed: (d) => {
      d.schemas.Item.id = 'Thing';
    },
    line: '"id": "Thing"',
  },
  {
    code: 'schema-unused',
    seed: (d) => {
      d.schemas.Orphan = { id: 'Orphan', type: 'object', properties: {} };
    },
    line: '"Orphan": {',
    enable: true,
  },
  {
    code: 'parameter-order-unknown',
    seed: (d) => {
      get(d).parameterOrder = ['name', 'ghost'];
    },
    line: '"ghost"',
  },
  {
    code: 'parameter-order-duplicate',
    seed: (d) => {
      get(d).parameterOrder = ['name', 'name'];
    },
    line: '"name"\n',
  },
  {
    code: 'parameter-order-missing-required',
    seed: (d) => {
      get(d).parameterOrder = [];
    },
    line: '"name": {',
  },
  {
    code: 'parameter-order-optional',
    seed: (d) => {
      list(d).parameterOrder = ['pageToken'];
    },
    line: '"pageToken"\n',
  },
  {
    code: 'path-variable-undeclared',
    seed: (d) => {
      list(d).path = 'v1/{parent}/items';
    },
    line: '"path": "v1/{parent}/items"',
  },
  {
    code: 'path-parameter-unused',
    seed: (d) => {
      list(d).parameters.shelf = { type: 'string', location: 'path', required: true };
    },
    line: '"shelf": {',
  },
  {
    code: 'path-parameter-not-required',
    seed: (d) => {
      delete get(d).parameters.name.required;
      get(d).parameterOrder = [];
    },
    line: '"name": {',
  },
  {
    code: 'path-reserved-expansion-multiple',
    seed: (d) => {
      get(d).path = 'v1/{+name}/x/{+name}';
    },
    line: '"path": "v1/{+name}/x/{+name}"',
  },
  {
    code: 'flat-path-inconsistent',
    seed: (d) => {
      get(d).flatPath = 'v2/items/{itemsId}';
    },
    line: '"flatPath": "v2/items/{itemsId}"',
  },
  {
    code: 'parameter-location-invalid',
    seed: (d) => {
      list(d).parameters.pageToken.location = 'header';
    },
    line: '"location": "header"',
  },
  {
    code: 'global-parameter-shadowed',
    seed: (d) => {
      list(d).parameters.key = { type: 'string', location: 'query' };
    },
    line: '"key": {',
  },
  {
    code: 'enum-descriptions-length',
    seed: (d) => {
      d.schemas.Item.properties.kind.enumDescriptions = ['a'];
    },
    line: '"enumDescriptions": [',
  },
  {
    code: 'enum-deprecated-length',
    seed: (d) => {
      d.schemas.Item.properties.kind.enumDeprecated = [false];
    },
    line: '"enumDeprecated": [',
  },
  {
    code: 'enum-duplicate-value',
    seed: (d) => {
      Object.assign(d.schemas.Item.properties.kind, { enum: ['A', 'B', 'A'], enumDescriptions: ['a', 'b', 'c'] });
    },
    line: '"A"\n',
  },
  {
    code: 'method-id-duplicate',
    seed: (d) => {
      list(d).id = 'demo.items.get';
    },
    line: '"id": "demo.items.get"',
  },
  {
    code: 'http-method-unknown',
    seed: (d) => {
      get(d).httpMethod = 'get';
    },
    line: '"httpMethod": "get"',
  },
  {
    code: 'scope-unknown',
    seed: (d) => {
      get(d).scopes = ['https://demo.example.com/auth.readonly'];
    },
    line: '"https://demo.example.com/auth.readonly"',
  },
  {
    code: 'annotation-required-unknown-method',
    seed: (d) => {
      d.schemas.Item.properties.name.annotations = { required: ['demo.items.nope'] };
    },
    line: '"demo.items.nope"',
  },
  {
    code: 'media-upload-inconsistent',
    seed: (d) => {
      insert(d).mediaUpload = { accept: ['*/*'], maxSize: '1GB' };
    },
    line: '"mediaUpload": {',
  },
  {
    code: 'media-upload-max-size',
    seed: (d) => {
      Object.assign(insert(d), { supportsMediaUpload: true, mediaUpload: { accept: ['*/*'], maxSize: 'huge' } });
    },
    line: '"maxSize": "huge"',
  },
  {
    code: 'request-body-on-get',
    seed: (d) => {
      get(d).request = { $ref: 'Item' };
    },
    line: '"request": {',
  },
  {
    code: 'request-parameter-name-deprecated',
    seed: (d) => {
      insert(d).request.parameterName = 'body';
    },
    line: '"parameterName": "body"',
  },
  {
    code: 'type-unknown',
    seed: (d) => {
      d.schemas.Item.properties.name.type = 'text';
    },
    line: '"type": "text"',
  },
  {
    code: 'array-without-items',
    seed: (d) => {
      delete d.schemas.Item.properties.tags.items;
    },
    line: '"type": "array"',
  },
  {
    code: 'items-on-non-array',
    seed: (d) => {
      d.schemas.Item.properties.name.items = { type: 'string' };
    },
    line: '"items": {',
  },
  {
    code: 'properties-on-non-object',
    seed: (d) => {
      d.schemas.Item.properties.name.properties = {};
    },
    line: '"properties": {}',
  },
  {
    code: 'format-type-mismatch',
    seed: (d) => {
      d.schemas.Item.properties.size.type = 'integer';
    },
    line: '"format": "int64"',
  },
  {
    code: 'format-unknown',
    seed: (d) => {
      d.schemas.Item.properties.name.format = 'colour';
    },
    line: '"format": "colour"',
  },
  {
    code: 'pattern-invalid',
    seed: (d) => {
      get(d).parameters.name.pattern = '^items/[^/+$';
    },
    line: '"pattern": "^items/[^/+$"',
  },
  {
    code: 'base-url-mismatch',
    seed: (d) => {
      d.baseUrl = 'https://elsewhere.example.com/';
    },
    line: '"baseUrl": "https://elsewhere.example.com/"',
  },
  {
    code: 'document-id-mismatch',
    seed: (d) => {
      d.id = 'demo-v1';
    },
    line: '"id": "demo-v1"',
  },
  {
    code: 'revision-format',
    seed: (d) => {
      d.revision = '2026-01-01';
    },
    line: '"revision": "2026-01-01"',
  },
  {
    code: 'method-id-shape',
    seed: (d) => {
      get(d).id = 'demo.things.get';
    },
    line: '"id": "demo.things.get"',
    enable: true,
  },
  {
    code: 'flat-path-variable-unknown',
    seed: (d) => {
      get(d).flatPath = 'v1/items/{itemsId}';
    },
    line: '"flatPath": "v1/items/{itemsId}"',
    enable: true,
  },
  {
    code: 'method-scopes-missing',
    seed: (d) => {
      delete list(d).scopes;
    },
    line: '"list": {',
    enable: true,
  },
  {
    code: 'value-type',
    seed: (d) => {
      get(d).parameters.name.required = 'true';
    },
    line: '"required": "true"',
  },
  {
    code: 'value-not-allowed',
    seed: (d) => {
      d.protocol = 'grpc';
    },
    line: '"protocol": "grpc"',
  },
  {
    code: 'key-missing',
    seed: (d) => {
      delete list(d).path;
    },
    line: '"list": {',
  },
  {
    code: 'key-unknown',
    seed: (d) => {
      get(d).httpVerb = 'GET';
    },
    line: '"httpVerb": "GET"',
  },
];

describe('rules: one seeded defect each', () => {
  it('every rule has a seeded case', () => {
    const covered = new Set(CASES.map((c) => c.code));
    assert.deepEqual(
      RULES.map((r) => r.code).filter((c) => !covered.has(c)),
      [],
    );
  });

  for (const c of CASES) {
    it(c.code, () => {
      const rule = RULES.find((r) => r.code === c.code);
      assert.ok(rule, `rule ${c.code} exists`);
      const doc = minimalDocument();
      c.seed(doc);
      const text = JSON.stringify(doc, null, 2);
      const a = analyzeText(text, c.enable ? { rules: { [c.code]: 'warning' } } : {});
      const hits = a.diagnostics.filter((d) => d.code === c.code);
      assert.ok(
        hits.length >= 1,
        `expected ${c.code}; got ${a.diagnostics.map((d) => d.code).join(', ') || 'nothing'}`,
      );
      const expectedSeverity = c.enable ? 'warning' : rule.defaultSeverity;
      assert.equal(hits[0].severity, expectedSeverity);
      const lineText = text.split('\n')[lineOf(text, hits[0]) - 1] + '\n';
      assert.ok(lineText.includes(c.line), `line "${lineText.trim()}" should contain ${JSON.stringify(c.line)}`);
      const otherErrors = a.diagnostics.filter((d) => d.severity === 'error' && d.code !== c.code);
      assert.deepEqual(
        otherErrors.map((d) => d.code),
        [],
        'no collateral errors',
      );
    });
  }
});

describe('rule severity settings', () => {
  it('changes a severity or switches a rule off', () => {
    const doc = minimalDocument();
    doc.resources.items.methods.get.response = { $ref: 'Nothing' };
    const text = JSON.stringify(doc);
    assert.equal(analyzeText(text, { rules: { 'ref-unresolved': 'hint' } }).diagnostics[0].severity, 'hint');
    assert.deepEqual(analyzeText(text, { rules: { 'ref-unresolved': 'off' } }).diagnostics, []);
  });

  it('applies to parse-level codes too', () => {
    const text = '{"kind": "discovery#restDescription", "a": 1, "a": 2}';
    assert.ok(analyzeText(text).diagnostics.some((d) => d.code === 'json-duplicate-key'));
    assert.ok(
      !analyzeText(text, { rules: { 'json-duplicate-key': 'off' } }).diagnostics.some(
        (d) => d.code === 'json-duplicate-key',
      ),
    );
  });
});
