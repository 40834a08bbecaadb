import * as assert from 'node:assert/strict';
import { analyzeText, applyEdits, completionsAt, quickFixes } from '../../../src/discovery/core';
import { minimalDocument, type SeedDocument } from './helpers';

const get = (d: SeedDocument) => d.resources.items.methods.get;
const insert = (d: SeedDocument) => d.resources.items.methods.insert;

const CASES: { code: string; seed(d: SeedDocument): void; title: RegExp }[] = [
  {
    code: 'ref-unresolved',
    seed: (d) => {
      get(d).response = { $ref: 'Itme' };
    },
    title: /Change to "Item"/,
  },
  {
    code: 'ref-unresolved',
    seed: (d) => {
      get(d).response = { $ref: 'Widget' };
    },
    title: /Create schema "Widget"/,
  },
  {
    code: 'schema-id-mismatch',
    seed: (d) => {
      d.schemas.Item.id = 'Thing';
    },
    title: /Set id/,
  },
  {
    code: 'parameter-order-unknown',
    seed: (d) => {
      get(d).parameterOrder = ['name', 'ghost'];
    },
    title: /Remove "ghost"/,
  },
  {
    code: 'parameter-order-duplicate',
    seed: (d) => {
      get(d).parameterOrder = ['name', 'name'];
    },
    title: /Remove "name"/,
  },
  {
    code: 'parameter-order-missing-required',
    seed: (d) => {
      get(d).parameterOrder = [];
    },
    title: /Add "name" to parameterOrder/,
  },
  {
    code: 'parameter-order-missing-required',
    seed: (d) => {
      delete get(d).parameterOrder;
    },
    title: /Add "name" to parameterOrder/,
  },
  {
    code: 'path-variable-undeclared',
    seed: (d) => {
      d.resources.items.methods.list.path = 'v1/{+parent}/items';
    },
    title: /Add path parameter "parent"/,
  },
  {
    code: 'path-variable-undeclared',
    seed: (d) => {
      insert(d).path = 'v1/{+parent}/items';
    },
    title: /Add path parameter "parent"/,
  },
  {
    code: 'enum-descriptions-length',
    seed: (d) => {
      d.schemas.Item.properties.kind.enumDescriptions = ['a'];
    },
    title: /Pad enumDescriptions to 2/,
  },
  {
    code: 'enum-descriptions-length',
    seed: (d) => {
      d.schemas.Item.properties.kind.enumDescriptions = ['a', 'b', 'c'];
    },
    title: /Trim enumDescriptions/,
  },
  {
    code: 'enum-deprecated-length',
    seed: (d) => {
      d.schemas.Item.properties.kind.enumDeprecated = [true];
    },
    title: /Pad enumDeprecated/,
  },
  {
    code: 'enum-duplicate-value',
    seed: (d) => {
      Object.assign(d.schemas.Item.properties.kind, { enum: ['A', 'B', 'A'], enumDescriptions: ['a', 'b', 'c'] });
    },
    title: /Remove the repeated value/,
  },
  {
    code: 'http-method-unknown',
    seed: (d) => {
      get(d).httpMethod = 'get';
    },
    title: /Change to "GET"/,
  },
  {
    code: 'type-unknown',
    seed: (d) => {
      d.schemas.Item.properties.name.type = 'String';
    },
    title: /Change to "string"/,
  },
  {
    code: 'scope-unknown',
    seed: (d) => {
      get(d).scopes = ['https://demo.example.com/auth.readonly'];
    },
    title: /Declare scope/,
  },
  {
    code: 'media-upload-inconsistent',
    seed: (d) => {
      insert(d).mediaUpload = { accept: ['*/*'], maxSize: '1GB' };
    },
    title: /supportsMediaUpload/,
  },
  {
    code: 'path-parameter-not-required',
    seed: (d) => {
      delete get(d).parameters.name.required;
      get(d).parameterOrder = [];
    },
    title: /Mark as required/,
  },
  {
    code: 'value-type',
    seed: (d) => {
      get(d).parameters.name.required = 'true';
    },
    title: /as a boolean/,
  },
  {
    code: 'document-id-mismatch',
    seed: (d) => {
      d.id = 'demo-v1';
    },
    title: /Change to "demo:v1"/,
  },
];

describe('quick fixes', () => {
  for (const [i, c] of CASES.entries()) {
    for (const style of ['pretty', 'compact'] as const) {
      it(`${c.code} #${i} (${style}): ${c.title.source}`, () => {
        const doc = minimalDocument();
        c.seed(doc);
        const text = style === 'pretty' ? JSON.stringify(doc, null, 2) : JSON.stringify(doc);
        const a = analyzeText(text);
        const d = a.diagnostics.find((x) => x.code === c.code);
        assert.ok(d, `seeded ${c.code}`);
        const fix = quickFixes(a, d).find((f) => c.title.test(f.title));
        assert.ok(
          fix,
          `fix matching ${c.title}; got ${quickFixes(a, d)
            .map((f) => f.title)
            .join(' | ')}`,
        );
        const next = applyEdits(text, fix.edits);
        const after = analyzeText(next);
        assert.ok(after.parsed.strict, `still valid JSON:\n${next}`);
        const remaining = after.diagnostics.filter((x) => x.severity === 'error' || x.code === c.code);
        assert.deepEqual(
          remaining.map((x) => `${x.code}: ${x.message}`),
          [],
        );
      });
    }
  }
});

describe('completion while typing', () => {
  it('offers keys in an empty line of an object and after a colon offers values', () => {
    const text = '{\n  "kind": "discovery#restDescription",\n  \n  "protocol": ""\n}';
    const a = analyzeText(text);
    const keys = completionsAt(a, text.indexOf('\n  \n') + 3).items.map((c) => c.label);
    assert.ok(keys.includes('rootUrl') && !keys.includes('kind'));
    const vals = completionsAt(a, text.indexOf('""') + 1).items.map((c) => c.label);
    assert.deepEqual(vals, ['rest']);
  });

  it('works in broken text with a fresh key being typed', () => {
    const text =
      '{\n  "kind": "discovery#restDescription",\n  "schemas": {"A": {"id": "A", "type": "object", "properties": {"b": {"$ref": ""}}}},\n  "disc\n}';
    const a = analyzeText(text);
    assert.ok(a.diagnostics.some((d) => d.code === 'json-syntax'));
    const refs = completionsAt(a, text.indexOf('"$ref": ""') + 9).items.map((c) => c.label);
    assert.deepEqual(refs, ['A']);
  });
});
