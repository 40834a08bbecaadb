// The parts of an evaluation on their own: dataset files (JSONL, CSV with quotes), assertions, the JSON
// Schema check, the judge's verdict, and the sandbox's JSON replies conforming to every Picoschema form.
import * as assert from 'node:assert/strict';
import { check, parseAssertion } from '../../../src/generation/core/eval/assertions';
import {
  checkInputs,
  DatasetError,
  parseCsv,
  parseDataset,
  parseJsonl,
} from '../../../src/generation/core/eval/dataset';
import { readVerdict } from '../../../src/generation/core/eval/judge';
import { runEval } from '../../../src/generation/core/eval/runner';
import { schemaErrors } from '../../../src/generation/core/eval/jsonSchema';
import { generateContent } from '../../../src/generation/core/client';
import { primaryCandidate, textOf } from '../../../src/generation/core/delta';
import { PromptFile } from '../../../src/generation/core/prompt/promptFile';
import { startGenerationEmulator, type TestServer } from './emulatorServer';

describe('eval datasets', () => {
  it('JSONL: items are the non-blank lines, indexed from 0, with their file lines', () => {
    const items = parseJsonl('{"input":{"a":1}}\n\n{"input":{"a":2},"expect":[{"type":"is-json"}]}\r\n');
    assert.deepEqual(
      items.map((i) => [i.index, i.line, i.input.a, i.expect.length]),
      [
        [0, 1, 1, 0],
        [1, 3, 2, 1],
      ],
    );
  });

  it('JSONL: each bad line is a DatasetError naming its line', () => {
    const cases: [string, number, RegExp][] = [
      ['{"input":{}}\n{oops', 2, /not JSON/],
      ['[1]', 1, /must be an object/],
      ['{"input":{},"vars":{}}', 1, /unknown key "vars"/],
      ['\n\n{"input":"x"}', 3, /"input" must be an object/],
      ['{"input":{},"expect":{}}', 1, /"expect" must be a list/],
    ];
    for (const [text, line, message] of cases) {
      assert.throws(
        () => parseJsonl(text),
        (e: unknown) => e instanceof DatasetError && e.line === line && message.test(e.message),
        text,
      );
    }
  });

  it('CSV: header names the variables; quoted fields keep commas, quotes and line breaks; lines are counted', () => {
    const items = parseCsv('\uFEFFcity,note\r\nOslo,"says ""hi"", twice"\r\n"Lima","two\nlines"\nBern,\n');
    assert.deepEqual(
      items.map((i) => [i.index, i.line, i.input]),
      [
        [0, 2, { city: 'Oslo', note: 'says "hi", twice' }],
        [1, 3, { city: 'Lima', note: 'two\nlines' }],
        [2, 5, { city: 'Bern', note: '' }],
      ],
    );
    assert.throws(() => parseCsv('a,a\n1,2'), /line 1: the column "a" appears twice/);
    assert.throws(() => parseCsv('a,b\n1,"2\n'), /line 2: a quoted field is not closed/);
    assert.throws(() => parseCsv(''), /empty/);
    assert.throws(() => parseDataset('x', 'data.txt'), /\.jsonl or a \.csv/);
  });

  it('CSV values become numbers and booleans where the input schema says so, then the schema is checked', () => {
    const items = parseCsv('n,flag,name\n3,true,x\n');
    const schema = {
      type: 'object',
      properties: { n: { type: 'integer' }, flag: { type: 'boolean' }, name: { type: 'string' } },
      required: ['n', 'flag', 'name'],
    };
    checkInputs(items, schema, true);
    assert.deepEqual(items[0].input, { n: 3, flag: true, name: 'x' });
    const bad = parseCsv('n,flag,name\nthree,true,x\n');
    assert.throws(() => checkInputs(bad, schema, true), /line 2: .*input\.n: expected integer, got string/);
  });
});

describe('eval assertions', () => {
  const cell = (output: string, latencyMs = 10) => ({ output, latencyMs, input: {} });
  const run = async (raw: unknown, output: string, latencyMs?: number) =>
    (await check(parseAssertion(raw, undefined), cell(output, latencyMs), undefined)).pass;

  it('contains and equals are exact and case-sensitive; regex searches anywhere', async () => {
    assert.equal(await run({ type: 'contains', value: 'Oslo' }, 'in Oslo today'), true);
    assert.equal(await run({ type: 'contains', value: 'oslo' }, 'in Oslo today'), false);
    assert.equal(await run({ type: 'equals', value: 'yes' }, 'yes'), true);
    assert.equal(await run({ type: 'equals', value: 'yes' }, 'yes\n'), false);
    assert.equal(await run({ type: 'regex', value: '\\d{3}' }, 'code 123 here'), true);
    assert.equal(await run({ type: 'regex', value: '^code', flags: 'i' }, 'CODE 1'), true);
    assert.equal(await run({ type: 'regex', value: '^123' }, 'code 123'), false);
  });

  it('is-json, json-schema and max-latency-ms', async () => {
    assert.equal(await run({ type: 'is-json' }, '{"a":1}'), true);
    assert.equal(await run({ type: 'is-json' }, '```json\n{}\n```'), false);
    const schema = { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] };
    assert.equal(await run({ type: 'json-schema', value: schema }, '{"a":1}'), true);
    assert.equal(await run({ type: 'json-schema', value: schema }, '{"a":"1"}'), false);
    assert.equal(await run({ type: 'max-latency-ms', value: 100 }, '', 100), true);
    assert.equal(await run({ type: 'max-latency-ms', value: 100 }, '', 101), false);
  });

  it('bad assertions say what is wrong', () => {
    assert.throws(() => parseAssertion({ type: 'contains' }, undefined), /needs a text value/);
    assert.throws(() => parseAssertion({ type: 'regex', value: '(' }, undefined), /regex \(/);
    assert.throws(() => parseAssertion({ type: 'json-schema' }, undefined), /no output schema/);
    assert.throws(() => parseAssertion({ type: 'contains', value: 'a', extra: 1 }, undefined), /unknown key "extra"/);
    assert.throws(() => parseAssertion('contains', undefined), /an object with a type/);
    assert.throws(() => parseAssertion({ type: 'model-graded' }, undefined), /judge/);
  });

  it('the judge answers JSON {pass, reason} or text starting PASS/FAIL', () => {
    assert.deepEqual(readVerdict('{"pass": false, "reason": "too long"}'), { pass: false, reason: 'too long' });
    assert.deepEqual(readVerdict('PASS: it names the city'), { pass: true, reason: 'it names the city' });
    assert.deepEqual(readVerdict('**Fail** - no city'), { pass: false, reason: 'no city' });
    assert.throws(() => readVerdict('maybe'), /neither/);
  });

  it('JSON Schema: types with null, enum, nested required, additionalProperties, items, bounds', () => {
    const schema = {
      type: 'object',
      properties: {
        a: { type: ['string', 'null'] },
        b: { enum: ['x', 'y'] },
        c: { type: 'array', items: { type: 'number', minimum: 0 }, maxItems: 2 },
        d: { type: 'object', properties: { e: { type: 'boolean' } }, required: ['e'], additionalProperties: false },
      },
      required: ['a'],
    };
    assert.deepEqual(schemaErrors(schema, { a: null, b: 'x', c: [1, 2], d: { e: true } }), []);
    assert.deepEqual(schemaErrors(schema, { b: 'z', c: [-1, 2, 3], d: { f: 1 } }), [
      '$.a: required',
      '$.b: "z" is not one of ["x","y"]',
      '$.c: more than 2 items',
      '$.c[0]: less than 0',
      '$.d.e: required',
      '$.d.f: not allowed (additionalProperties)',
    ]);
  });
});

describe('generation sandbox: JSON replies conform to the output schema', () => {
  let s: TestServer;
  before(async () => {
    s = await startGenerationEmulator();
  });
  after(async () => s.close());

  it('every Picoschema form, sent as responseSchema, comes back as JSON the output schema accepts', async () => {
    const { prompt } = await PromptFile.load(
      [
        '---',
        'model: gemini-2.0-flash',
        'output:',
        '  schema:',
        '    zeta: string, last letter first',
        '    alpha?: integer',
        '    tags(array, the tags): string',
        '    owner(object):',
        '      name: string',
        '      age?: number',
        '    mood?(enum): [happy, sad]',
        '    anything: any',
        '    counts(object):',
        '      (*): integer',
        '    done: boolean',
        '---',
        'Rate the rivers of {{place}} by clarity and flow',
      ].join('\n'),
    );
    assert.ok(prompt);
    for (const place of ['Norway', 'the north of Chile and Peru', '']) {
      const { model, request } = await prompt.render({ place });
      const r = await generateContent({ baseUrl: s.origin, apiKey: s.apiKey, model: `models/${model}`, request });
      assert.equal(r.error, null);
      const value: unknown = JSON.parse(textOf(primaryCandidate(r.response!)).text);
      assert.deepEqual(schemaErrors(prompt.outputSchema, value), [], JSON.stringify(value));
      assert.deepEqual(Object.keys(value as object).slice(0, 3), ['zeta', 'alpha', 'tags'], 'declaration order');
    }
  });

  it('a JSON Schema output with bounds (minLength, maxLength, minimum) gets values inside them', async () => {
    const { prompt } = await PromptFile.load(
      [
        '---',
        'model: gemini-2.0-flash',
        'output:',
        '  schema:',
        '    type: object',
        '    properties:',
        '      code: {type: string, minLength: 2, maxLength: 3}',
        '      short: {type: string, minLength: 12}',
        '      score: {type: number, minimum: 100}',
        '      few: {type: integer, maximum: 1}',
        '    required: [code, short, score, few]',
        '---',
        'A long prompt about rivers and lakes and the sea',
      ].join('\n'),
    );
    assert.ok(prompt);
    const { model, request } = await prompt.render({});
    const r = await generateContent({ baseUrl: s.origin, apiKey: s.apiKey, model: `models/${model}`, request });
    const value: unknown = JSON.parse(textOf(primaryCandidate(r.response!)).text);
    assert.deepEqual(schemaErrors(prompt.outputSchema, value), [], JSON.stringify(value));
  });

  it('its controls refuse bad settings with the API error shape; added latency fails max-latency-ms', async () => {
    const post = (body: unknown) =>
      fetch(`${s.origin}/v1beta/__sandbox/faults`, {
        method: 'POST',
        headers: { 'x-goog-api-key': s.apiKey },
        body: JSON.stringify(body),
      });
    for (const body of [{ latencyMs: -1 }, { storm: { rate: 2 } }, { storm: { rate: 0.5, statuses: [404] } }, [1]]) {
      const res = await post(body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.match(await res.text(), /INVALID_ARGUMENT/);
    }
    assert.notEqual((await fetch(`${s.origin}/v1beta/__sandbox/faults`)).status, 200, 'the controls need the key');
    assert.equal((await post({ latencyMs: 300 })).status, 200);
    const { prompt } = await PromptFile.load('---\nmodel: gemini-2.0-flash\n---\nhi [[fast]]');
    const items = [
      { index: 0, input: {}, assertions: [parseAssertion({ type: 'max-latency-ms', value: 200 }, undefined)] },
    ];
    const r = await runEval({
      prompt: prompt!,
      items,
      variants: [{ name: 'gemini-2.0-flash', model: 'gemini-2.0-flash' }],
      connection: { baseUrl: s.origin, apiKey: s.apiKey },
    });
    assert.equal((await post({ reset: true })).status, 200);
    assert.equal(r.cells[0].error, null);
    assert.equal(r.cells[0].assertions[0].pass, false, JSON.stringify(r.cells[0]));
  });
});
