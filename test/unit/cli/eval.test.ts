// `api-workbench eval` in-process against the generation sandbox: the JSON and JUnit reports (the JUnit one
// read by fast-xml-parser and its counts checked), exit codes 0/1/2/3, errors naming lines, --out and --resume.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { evalCommand } from '../../../src/cli/eval';
import { runCli } from '../../../src/cli/main';
import type { ServedRequest } from '../../../src/sandbox/generation/controls';
import { parseAs } from '../../support/typedJson';
import { startGenerationEmulator, type TestServer } from '../generation/emulatorServer';

function sink() {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      text += chunk.toString();
      cb();
    },
  });
  return {
    stream,
    get text() {
      return text;
    },
  };
}

async function cli(args: string[]) {
  const out = sink();
  const err = sink();
  const code = await evalCommand(args, {
    stdout: out.stream,
    stderr: err.stream,
    env: {},
    interrupted: new Promise(() => undefined),
  });
  return { code, stdout: out.text, stderr: err.text };
}

interface JsonReport {
  cells: {
    item: number;
    variant: string;
    output: string;
    finishReason: string | null;
    usage: { promptTokenCount?: number; candidatesTokenCount?: number };
    latencyMs: number;
    assertions: { type: string; pass: boolean; reason?: string }[];
    error: null | { code: number; status: string; message: string };
  }[];
  summary: { cells: number; assertions: number; assertionsPassed: number; assertionsFailed: number; errors: number };
}

const PROMPT = [
  '---',
  'model: googleai/gemini-2.0-flash',
  'config:',
  '  temperature: 0.1',
  'input:',
  '  schema:',
  '    city: string',
  '    days?: integer',
  'metadata:',
  '  expect:',
  '    - type: regex',
  '      value: "Sandbox reply"',
  '---',
  'Plan {{days}} days in {{city}}. [[fast]]',
].join('\n');

describe('api-workbench eval', function () {
  this.timeout(60_000);
  let s: TestServer;
  let dir: string;
  const write = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  const base = () => ['--base-url', s.origin, '--api-key', s.apiKey];

  before(async () => {
    s = await startGenerationEmulator();
    dir = mkdtempSync(join(tmpdir(), 'eval-cli-'));
  });
  after(async () => s.close());

  it('--format json: a cell per item and model with its assertions; exit 1 when one fails', async () => {
    const prompt = write('trip.prompt', PROMPT);
    const data = write(
      'trip.jsonl',
      [
        JSON.stringify({ input: { city: 'Oslo', days: 2 }, expect: [{ type: 'contains', value: 'Oslo' }] }),
        '',
        JSON.stringify({ input: { city: 'Lima' }, expect: [{ type: 'equals', value: 'nope' }] }),
      ].join('\n'),
    );
    const r = await cli([...base(), '--model', 'gemini-2.0-flash,models/gemini-2.5-flash', '--dataset', data, prompt]);
    assert.equal(r.code, 1, r.stderr);
    const report = parseAs<JsonReport>(r.stdout);
    assert.deepEqual(
      report.cells.map((c) => [c.item, c.variant, c.assertions.map((a) => `${a.type}:${a.pass}`).join(' ')]),
      [
        [0, 'gemini-2.0-flash', 'contains:true regex:true'],
        [0, 'gemini-2.5-flash', 'contains:true regex:true'],
        [1, 'gemini-2.0-flash', 'equals:false regex:true'],
        [1, 'gemini-2.5-flash', 'equals:false regex:true'],
      ],
    );
    const c = report.cells[0];
    assert.ok(c.output.includes('Plan 2 days in Oslo.'));
    assert.equal(c.finishReason, 'STOP');
    assert.equal(c.error, null);
    assert.ok((c.usage.promptTokenCount ?? 0) > 0 && (c.usage.candidatesTokenCount ?? 0) > 0);
    assert.equal(typeof c.latencyMs, 'number');
    assert.deepEqual(
      [report.summary.cells, report.summary.assertions, report.summary.assertionsFailed, report.summary.errors],
      [4, 8, 2, 0],
    );

    const ok = await cli([...base(), '--dataset', join(dir, 'missing.jsonl'), prompt]);
    assert.equal(ok.code, 2, 'a missing dataset is a usage error');
    assert.match(ok.stderr, /cannot read the dataset .*missing\.jsonl: no such file/);
  });

  it('exit 0 when every assertion passes; the frontmatter model is the variant; CSV columns are the input', async () => {
    const prompt = write('trip.prompt', PROMPT);
    const data = write('trip.csv', 'city,days\nOslo,3\n"Quito, EC",1\n');
    const r = await cli([...base(), '--dataset', data, prompt]);
    assert.equal(r.code, 0, r.stderr);
    const report = parseAs<JsonReport>(r.stdout);
    assert.deepEqual(
      report.cells.map((c) => c.variant),
      ['gemini-2.0-flash', 'gemini-2.0-flash'],
    );
    assert.ok(report.cells[1].output.includes('Plan 1 days in Quito, EC.'));
  });

  it('--format junit: read by a JUnit reader (fast-xml-parser), the counts match the run', async () => {
    const prompt = write('trip.prompt', PROMPT);
    const data = write(
      'junit.jsonl',
      [
        { input: { city: 'Oslo' }, expect: [{ type: 'contains', value: 'Oslo' }, { type: 'is-json' }] },
        { input: { city: 'Rome & <Paris>' }, expect: [{ type: 'max-latency-ms', value: 600000 }] },
        { input: { city: 'Bern [[429:0.01]]' } },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    );
    const r = await cli([
      ...base(),
      '--model',
      'gemini-2.0-flash,gemini-2.5-pro',
      '--format',
      'junit',
      '--dataset',
      data,
      prompt,
    ]);
    // The [[429]] item is refused on every attempt (RetryInfo 10 ms): it fails after its retries, exit 3.
    assert.equal(r.code, 3, r.stderr);
    assert.equal(XMLValidator.validate(r.stdout), true);
    const xml = parseAs<{
      testsuites: {
        '@_tests': string;
        '@_failures': string;
        '@_errors': string;
        testsuite: {
          '@_name': string;
          '@_tests': string;
          '@_failures': string;
          '@_errors': string;
          testcase: { '@_name': string; failure?: { '@_type': string }; error?: { '@_type': string } }[];
        }[];
      };
    }>(
      JSON.stringify(
        new XMLParser({
          ignoreAttributes: false,
          isArray: (name) => name === 'testsuite' || name === 'testcase',
        }).parse(r.stdout),
      ),
    );
    const suites = xml.testsuites.testsuite;
    assert.deepEqual(
      suites.map((x) => x['@_name']),
      ['trip [gemini-2.0-flash]', 'trip [gemini-2.5-pro]'],
    );
    // Per model: item 0 has 3 assertions (contains, is-json, the file's regex), item 1 has 2, item 2 has 1.
    for (const suite of suites) {
      assert.equal(suite['@_tests'], '6');
      assert.equal(suite.testcase.length, 6);
      assert.equal(suite['@_failures'], '1'); // is-json on a Markdown reply
      assert.equal(suite['@_errors'], '1'); // the 429 item's one assertion
      assert.equal(suite.testcase.filter((t) => t.failure).length, 1);
      assert.equal(suite.testcase.find((t) => t.failure)?.failure?.['@_type'], 'is-json');
      assert.equal(suite.testcase.find((t) => t.error)?.error?.['@_type'], 'RESOURCE_EXHAUSTED');
    }
    assert.deepEqual(
      [xml.testsuites['@_tests'], xml.testsuites['@_failures'], xml.testsuites['@_errors']],
      ['12', '2', '2'],
    );
    assert.match(r.stdout, /item 1: max-latency-ms/);
  });

  it('an invalid prompt file is exit 2 naming its line, without a stack trace', async () => {
    const prompt = write('bad.prompt', '---\nmodel: gemini-2.0-flash\nconfig:\n  topP: 7\n---\nHello\n{{#if x}}\n');
    const r = await cli([...base(), prompt]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /bad\.prompt:4: error: config\.topP must be a number from 0 to 1\./);
    assert.doesNotMatch(r.stderr, /\n\s+at /);

    const hb = write('hb.prompt', '---\nmodel: gemini-2.0-flash\n---\nHello\n{{#if x}}\n');
    const r2 = await cli([...base(), hb]);
    assert.equal(r2.code, 2);
    assert.match(r2.stderr, /hb\.prompt:5: error: Handlebars: expected .* got 'EOF'/);

    const yaml = write('yaml.prompt', '---\nmodel: [gemini\n---\nHi');
    const r3 = await cli([...base(), yaml]);
    assert.equal(r3.code, 2);
    assert.match(r3.stderr, /yaml\.prompt:2:\d+: error: YAML: /);
  });

  it('--variant: named variants override the config and the model; a bad one is exit 2 naming it', async () => {
    const prompt = write('trip.prompt', PROMPT);
    const data = write('one.jsonl', JSON.stringify({ input: { city: 'Oslo', days: 2 } }));
    const out = join(dir, 'variants.jsonl');
    await fetch(`${s.origin}/v1beta/__sandbox/requests`, { method: 'DELETE', headers: { 'x-goog-api-key': s.apiKey } });
    const r = await cli([
      ...base(),
      '--model',
      'gemini-2.0-flash',
      '--variant',
      'short=maxOutputTokens=3,stopSequences=["x,y"]',
      '--variant',
      'other={"model": "models/gemini-2.5-flash", "temperature": 0}',
      '--dataset',
      data,
      '--out',
      out,
      prompt,
    ]);
    const report = parseAs<JsonReport>(r.stdout);
    assert.deepEqual(
      report.cells.map((c) => c.variant),
      ['gemini-2.0-flash', 'short', 'other'],
    );
    // A named variant's cells say which model answered; the run's meta beside --out names the files and columns.
    const saved = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => parseAs<{ variant: string; model?: string }>(l));
    assert.deepEqual(saved.map((c) => [c.variant, c.model]).sort(), [
      ['gemini-2.0-flash', undefined],
      ['other', 'gemini-2.5-flash'],
      ['short', 'gemini-2.0-flash'],
    ]);
    assert.deepEqual(parseAs<unknown>(readFileSync(join(dir, 'variants.meta.json'), 'utf8')), {
      version: 1,
      prompt: resolve(prompt),
      dataset: resolve(data),
      variants: ['gemini-2.0-flash', 'short', 'other'],
      items: [{ index: 0, label: 'city=Oslo, days=2' }],
      startedAt: parseAs<{ startedAt: string }>(readFileSync(join(dir, 'variants.meta.json'), 'utf8')).startedAt,
      concurrency: 4,
    });
    const [plain, short] = report.cells;
    assert.equal(plain.finishReason, 'STOP');
    assert.equal(short.finishReason, 'MAX_TOKENS', 'maxOutputTokens=3 reached the request');
    assert.ok((short.usage.candidatesTokenCount ?? 99) <= 3);
    const log = parseAs<{ requests: ServedRequest[] }>(
      await (await fetch(`${s.origin}/v1beta/__sandbox/requests`, { headers: { 'x-goog-api-key': s.apiKey } })).text(),
    ).requests;
    assert.deepEqual(log.map((q) => q.model).sort(), [
      'models/gemini-2.0-flash',
      'models/gemini-2.0-flash',
      'models/gemini-2.5-flash',
    ]);
    assert.equal(new Set(log.map((q) => q.fingerprint)).size, 3, 'three different requests');

    for (const [flag, message] of [
      ['hot=temperature=3', /variant hot: temperature must be a number from 0 to 2/],
      ['odd=flavour=1', /variant odd: flavour is not a generation setting/],
      ['gemini-2.0-flash=topK=2', /two variants are named gemini-2\.0-flash/],
      ['bad name=topK=2', /a variant is NAME=SETTINGS/],
      ['j={"topK": ', /variant j: its settings are not valid JSON/],
    ] as const) {
      const bad = await cli([...base(), '--model', 'gemini-2.0-flash', '--variant', flag, prompt]);
      assert.equal(bad.code, 2, flag);
      assert.match(bad.stderr, message);
    }
  });

  it('usage errors and bad datasets are exit 2 with the dataset line', async () => {
    const prompt = write('trip.prompt', PROMPT);
    assert.equal((await cli([...base()])).code, 2);
    assert.equal((await cli([...base(), '--format', 'xml', prompt])).code, 2);
    assert.equal((await cli([...base(), '--resume', prompt])).code, 2);
    assert.equal((await cli([...base(), '--concurrency', '0', prompt])).code, 2);
    const data = write(
      'bad.jsonl',
      '{"input": {"city": "A"}}\n{"input": {"city": "B"}, "expect": [{"type": "fuzzy"}]}\n',
    );
    const r = await cli([...base(), '--dataset', data, prompt]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /bad\.jsonl:2: assertion 1: unknown assertion type "fuzzy"/);
    const schema = write('schema.jsonl', '{"input": {"city": "A"}}\n\n{"input": {"days": 2}}\n');
    const r2 = await cli([...base(), '--dataset', schema, prompt]);
    assert.equal(r2.code, 2);
    assert.match(
      r2.stderr,
      /schema\.jsonl:3: the input does not match the prompt's input schema: input\.city: required/,
    );
    const csv = write('bad.csv', 'city,days\nOslo\n');
    const r3 = await cli([...base(), '--dataset', csv, prompt]);
    assert.match(r3.stderr, /bad\.csv:2: 1 fields, but the header names 2 columns/);
  });

  it('--out saves each cell as a JSON line; --resume with the same file sends no request for done cells', async () => {
    const prompt = write('trip.prompt', PROMPT);
    const data = write(
      'five.jsonl',
      ['A', 'B', 'C', 'D', 'E'].map((c) => JSON.stringify({ input: { city: c } })).join('\n'),
    );
    const out = join(dir, 'five.results.jsonl');
    const r = await cli([...base(), '--dataset', data, '--out', out, prompt]);
    assert.equal(r.code, 0, r.stderr);
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
    assert.equal(lines.length, 5);
    // Drop two cells and cut the last line short, as a kill during a write would.
    writeFileSync(out, lines.slice(0, 3).join('\n') + '\n' + lines[3].slice(0, 20));
    await fetch(`${s.origin}/v1beta/__sandbox/requests`, { method: 'DELETE', headers: { 'x-goog-api-key': s.apiKey } });
    const again = await cli([...base(), '--dataset', data, '--out', out, '--resume', prompt]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(parseAs<JsonReport>(again.stdout).cells.length, 5);
    const log = parseAs<{ requests: ServedRequest[] }>(
      await (await fetch(`${s.origin}/v1beta/__sandbox/requests`, { headers: { 'x-goog-api-key': s.apiKey } })).text(),
    ).requests;
    assert.equal(log.length, 2, 'only the two missing cells were asked');
    const after = readFileSync(out, 'utf8').trimEnd().split('\n');
    assert.equal(after.length, 5);
    assert.deepEqual(after.map((l) => parseAs<{ item: number }>(l).item).sort(), [0, 1, 2, 3, 4]);

    // The prompt changed: its cells send other requests, so a resume runs them all again.
    write('trip.prompt', PROMPT.replace('Plan ', 'Plan exactly '));
    await fetch(`${s.origin}/v1beta/__sandbox/requests`, { method: 'DELETE', headers: { 'x-goog-api-key': s.apiKey } });
    const changed = await cli([...base(), '--dataset', data, '--out', out, '--resume', prompt]);
    assert.equal(changed.code, 0, changed.stderr);
    const log2 = parseAs<{ requests: ServedRequest[] }>(
      await (await fetch(`${s.origin}/v1beta/__sandbox/requests`, { headers: { 'x-goog-api-key': s.apiKey } })).text(),
    ).requests;
    assert.equal(log2.length, 5);
    assert.ok(parseAs<JsonReport>(changed.stdout).cells.every((c) => c.output.includes('Plan exactly')));
  });

  it('an interrupt stops the run: exit 3, and the message says how to resume', async () => {
    const prompt = write('trip.prompt', PROMPT);
    const data = write('stop.jsonl', ['A', 'B'].map((c) => JSON.stringify({ input: { city: c } })).join('\n'));
    const out = sink();
    const err = sink();
    const code = await evalCommand([...base(), '--dataset', data, '--out', join(dir, 'stop.out.jsonl'), prompt], {
      stdout: out.stream,
      stderr: err.stream,
      env: {},
      interrupted: Promise.resolve(),
    });
    assert.equal(code, 3);
    assert.match(err.text, /stopped: 2 of 2 cells not run; --resume --out .*stop\.out\.jsonl runs them/);
    assert.equal(parseAs<JsonReport>(out.text).cells.length, 0);
  });

  it('model-graded: a judge prompt file answers pass/fail with a reason', async () => {
    write(
      'judge.prompt',
      [
        '---',
        'model: gemini-2.5-flash',
        'output:',
        '  schema:',
        '    pass: boolean',
        '    reason: string',
        '---',
        'Criteria: {{criteria}}. Reply: {{output}} [[fast]]',
      ].join('\n'),
    );
    const prompt = write(
      'graded.prompt',
      '---\nmodel: gemini-2.0-flash\nmetadata:\n  expect:\n    - type: model-graded\n      prompt: judge.prompt\n      value: mentions the city\n---\nAbout {{city}} [[fast]]',
    );
    const data = write('graded.jsonl', JSON.stringify({ input: { city: 'Oslo' } }));
    const r = await cli([...base(), '--dataset', data, prompt]);
    const report = parseAs<JsonReport>(r.stdout);
    const a = report.cells[0].assertions[0];
    assert.equal(a.type, 'model-graded');
    assert.equal(typeof a.pass, 'boolean');
    assert.equal(typeof a.reason, 'string');
    assert.equal(r.code, a.pass ? 0 : 1);
  });

  it("the README's CI step runs on the samples and prints JUnit a reader accepts", async () => {
    const root = join(__dirname, '..', '..', '..');
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const step = /npx api-workbench eval ([\s\S]*?) > eval-results\.xml/.exec(readme);
    assert.ok(step, 'README.md shows the eval CI step');
    const args = step[1]
      .replace(/\\\n/g, ' ')
      .split(/\s+/)
      .filter(Boolean)
      .map((a) => (a.startsWith('samples/') ? join(root, a) : a));
    const r = await cli([...base(), ...args]);
    assert.ok(r.code === 0 || r.code === 1, r.stderr);
    assert.doesNotMatch(r.stderr, /warning|error/, 'the samples are clean');
    assert.equal(XMLValidator.validate(r.stdout), true);
    const xml = new XMLParser({ ignoreAttributes: false }).parse(r.stdout) as { testsuites: { '@_tests': string } };
    assert.equal(xml.testsuites['@_tests'], '18', 'three items with three assertions each, on two models');
  });

  it('is a command of the CLI', async () => {
    const out = sink();
    const code = await runCli(['--help'], {
      stdout: out.stream,
      stderr: out.stream,
      env: {},
      interrupted: new Promise(() => undefined),
    });
    assert.equal(code, 0);
    assert.match(out.text, /\beval\b/);
  });
});
