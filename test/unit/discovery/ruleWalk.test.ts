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
import { minimalDocument } from './helpers';

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
});
