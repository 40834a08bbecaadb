// Rules that check one schema node or one method at a time run in one shared walk (issue 11): the
// findings, their order and a rule that throws midway must come out as when each rule ran its own loop.
import * as assert from 'node:assert/strict';
import {
  analyzeParsed,
  buildModel,
  parseJson,
  place,
  RULES,
  type Diagnostic,
  type Obj,
  type ParsedJson,
} from '../../../src/discovery/core';
import { readFileSync } from 'node:fs';
import { minimalDocument, realDocumentFiles } from './helpers';

/** The analysis as it was before the shared walk: every rule's own check, one after another. */
function oneByOne(parsed: ParsedJson): Diagnostic[] {
  const model = buildModel(parsed.value as Obj);
  const out: Diagnostic[] = [];
  for (const rule of RULES) {
    if (rule.defaultSeverity === 'off') continue;
    const severity = rule.defaultSeverity;
    try {
      rule.check(model, (f) => out.push(place(parsed.tree, rule.code, severity, f)));
    } catch (err) {
      out.push({
        code: 'rule-failed',
        severity: 'info',
        offset: 0,
        length: 0,
        message: `Rule ${rule.code} could not check this document: ${(err as Error).message}.`,
      });
    }
  }
  return out.sort((a, b) => a.offset - b.offset);
}

/** A document whose second schema's `enumDescriptions` and a method's `flatPath` throw when read. */
function trapped(): ParsedJson {
  const doc = minimalDocument() as unknown as Obj;
  const schemas = doc.schemas as Record<string, Obj>;
  schemas.First = { id: 'First', type: 'strin', enum: ['A', 'B'], enumDescriptions: ['a'] };
  schemas.Second = { id: 'Second', type: 'string', enum: ['A'] };
  schemas.Third = { id: 'Third', type: 'nubmer', enum: ['A', 'B'], enumDescriptions: ['a'] };
  const parsed = parseJson(JSON.stringify(doc, null, 2));
  const value = parsed.value as Obj;
  Object.defineProperty((value.schemas as Record<string, Obj>).Second, 'enumDescriptions', {
    get: () => {
      throw new Error('enumDescriptions trap');
    },
  });
  const methods = ((value.resources as Obj).items as Obj).methods as Record<string, Obj>;
  const first = Object.values(methods)[0];
  Object.defineProperty(first, 'flatPath', {
    get: () => {
      throw new Error('flatPath trap');
    },
  });
  return parsed;
}

describe('rules in the shared schema-node and method walks', () => {
  it('report what each rule reports on its own, in the same order, for a seeded document', () => {
    const doc = minimalDocument() as unknown as Obj;
    (doc.schemas as Record<string, Obj>).Bad = { id: 'Bad', type: 'strin', format: 'int32', enum: ['X', 'X'] };
    const parsed = parseJson(JSON.stringify(doc, null, 2));
    const got = analyzeParsed(parsed).diagnostics;
    assert.ok(got.some((d) => d.code === 'type-unknown') && got.some((d) => d.code === 'enum-duplicate-value'));
    assert.deepEqual(got, oneByOne(parsed));
  });

  it('stop only the rule that throws, keep its earlier findings and let the others finish', () => {
    const parsed = trapped();
    const got = analyzeParsed(parsed).diagnostics;
    assert.deepEqual(got, oneByOne(parsed));
    const failed = got.filter((d) => d.code === 'rule-failed').map((d) => d.message);
    assert.deepEqual(failed, [
      'Rule flat-path-inconsistent could not check this document: flatPath trap.',
      'Rule enum-descriptions-length could not check this document: enumDescriptions trap.',
    ]);
    // First comes before the trap and keeps its finding; Third comes after it and is not reached.
    assert.equal(got.filter((d) => d.code === 'enum-descriptions-length').length, 1);
    // type-unknown walks the same nodes and reports both bad types.
    assert.equal(got.filter((d) => d.code === 'type-unknown').length, 2);
  });

  it('call a rule that names a node key only where that key is, and such a rule finds nothing without it', () => {
    const keyed = RULES.filter((r) => r.eachSchemaNode && r.nodeKey);
    assert.ok(keyed.length >= 10);
    // Every schema node of the largest shared documents, and of a seeded one with every rule's bad values,
    // with the rule's key taken away: the rule must report nothing, so skipping such nodes loses nothing.
    const seeded = minimalDocument() as unknown as Obj;
    (seeded.schemas as Record<string, Obj>).Odd = {
      id: 'Odd',
      type: 'strin',
      format: 'int32',
      pattern: '(',
      items: { type: 'string' },
      properties: { a: { type: 'array', annotations: { required: ['no.such'] } } },
      enum: ['X', 'X'],
      enumDescriptions: ['x'],
      enumDeprecated: [true],
    };
    const values = [
      seeded,
      ...realDocumentFiles()
        .slice(0, 8)
        .map((f) => JSON.parse(readFileSync(f, 'utf8')) as Obj),
    ];
    let checked = 0;
    for (const value of values) {
      const model = buildModel(value);
      for (const node of model.schemaNodes) {
        for (const rule of keyed) {
          const without = { ...node.value };
          delete without[rule.nodeKey!];
          const found: unknown[] = [];
          rule.eachSchemaNode!({ ...node, path: node.path, value: without }, model, (f) => found.push(f));
          assert.deepEqual(found, [], `${rule.code} without "${rule.nodeKey}" at ${node.path.join('.')}`);
          checked++;
        }
      }
    }
    assert.ok(checked > 10000);
  });
});
