// Type-confused and hostile stream fields: the aggregate keeps its shape, the summary and the CLI
// report the field instead of throwing, and no key can swap an object's prototype.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { Aggregator } from '../../../src/generation/core/aggregate';
import { streamGenerateContent } from '../../../src/generation/core/client';
import { summarize } from '../../../src/generation/core/summary';
import { generateCommand } from '../../../src/cli/generate';
import type { GenerateContentResponse } from '../../../src/shared/wire/generation';

const chunk = (json: string) => JSON.parse(json) as GenerateContentResponse;
const outcome = (response: GenerateContentResponse, problems: { message: string }[] = []) => ({
  response,
  error: null,
  aborted: false,
  incomplete: false,
  problems,
});

describe('generation: hostile stream fields', () => {
  const confused = [
    '{"candidates":[{"content":{"parts":[{"text":"hi"}]},"citationMetadata":{"citationSources":5}}]}',
    '{"candidates":[{"content":{"parts":[{"text":"hi"}]},"safetyRatings":{}}]}',
    '{"candidates":[{"content":{"parts":5},"finishReason":7,"citationMetadata":[1]}]}',
    '{"candidates":[{"content":{"parts":[null,3,{"functionCall":"x"},{"functionCall":{"name":5}}]}}]}',
    '{"candidates":5,"promptFeedback":"blocked","usageMetadata":[1]}',
    '{"candidates":[null,"x",[1]]}',
    '{"candidates":[{"citationMetadata":{"citationSources":[5,{"startIndex":"a","endIndex":{},"uri":7}]}}]}',
    '{"candidates":[{"safetyRatings":[null,{"category":{},"probability":[]}]}],"promptFeedback":{"safetyRatings":3}}',
  ];

  for (const json of confused) {
    it(`aggregates and summarizes without throwing: ${json.slice(0, 70)}`, () => {
      const a = new Aggregator();
      a.add(chunk(json));
      a.add(chunk(json));
      const s = summarize(outcome(a.response, a.problems));
      assert.ok(a.problems.length > 0, 'the wrong-typed field is reported');
      assert.ok(s.warnings && s.warnings.length > 0);
      assert.ok(
        a.problems.every((p) => p.value !== undefined),
        'the raw value is kept',
      );
      for (const c of a.response.candidates ?? []) {
        if (c.citationMetadata?.citationSources !== undefined)
          assert.ok(Array.isArray(c.citationMetadata.citationSources));
        if (c.safetyRatings !== undefined) assert.ok(Array.isArray(c.safetyRatings));
      }
    });
  }

  it('summarizes a raw (unaggregated) wrong-typed response without throwing', () => {
    const raw = chunk(
      '{"candidates":[{"content":{"parts":[{"text":"hi"}]},"citationMetadata":{"citationSources":5},"safetyRatings":{},"finishReason":3}],"usageMetadata":{"totalTokenCount":"x"}}',
    );
    const s = summarize(outcome(raw));
    assert.deepEqual(s.citations, []);
    assert.deepEqual(s.ratings, []);
    assert.equal(s.finish, undefined);
    assert.equal(s.usage?.total, undefined);
    assert.ok(s.warnings?.some((w) => w.includes('citationSources')));
    assert.ok(s.warnings?.some((w) => w.includes('safetyRatings')));
  });

  it('a __proto__ key is kept as data and never replaces a prototype', () => {
    const a = new Aggregator();
    a.add(
      chunk(
        '{"__proto__":{"polluted":1},"candidates":[{"__proto__":{"x":1},"content":{"__proto__":{"y":1},"parts":[{"text":"a"}]},"citationMetadata":{"__proto__":{"z":1}}}]}',
      ),
    );
    const r = a.response;
    assert.equal(Object.getPrototypeOf(r), Object.prototype);
    assert.equal((r as Record<string, unknown>).polluted, undefined);
    assert.deepEqual(
      Object.getOwnPropertyDescriptor(r, '__proto__')?.value,
      { polluted: 1 },
      'kept raw as an own field',
    );
    const c = r.candidates![0];
    assert.equal(Object.getPrototypeOf(c), Object.prototype);
    assert.equal(Object.getPrototypeOf(c.content), Object.prototype);
    assert.equal(Object.getPrototypeOf(c.citationMetadata), Object.prototype);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('dedups repeated citation sources in linear time and survives items too deep to print', () => {
    const a = new Aggregator();
    const sources = Array.from({ length: 20000 }, (_, i) => ({ startIndex: i, endIndex: i + 1, uri: `u${i}` }));
    a.add({ candidates: [{ citationMetadata: { citationSources: sources } }] });
    a.add({ candidates: [{ citationMetadata: { citationSources: sources } }] });
    assert.equal(a.response.candidates![0].citationMetadata!.citationSources!.length, 20000);
    let deep: unknown = {};
    for (let i = 0; i < 20000; i++) deep = { d: deep };
    a.add({ candidates: [{ citationMetadata: { citationSources: [deep as never] } }] });
    assert.equal(a.response.candidates![0].citationMetadata!.citationSources!.length, 20001);
  });

  describe('through the client and the CLI', () => {
    let server: http.Server;
    let origin = '';
    const body =
      'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Hello"}]},"citationMetadata":{"citationSources":5}}]}\r\n\r\n' +
      'data: {"candidates":5}\r\n\r\n' +
      'data: {"candidates":[{"content":{"parts":[{"text":" there"}]},"safetyRatings":{},"finishReason":"STOP"}]}\r\n\r\n';
    before(async () => {
      server = http.createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.end(body);
        });
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(() => new Promise<void>((r) => server.close(() => r())));

    it('the stream result keeps the text and lists the malformed fields', async () => {
      const r = await streamGenerateContent({
        baseUrl: origin,
        apiKey: 'k',
        model: 'models/m',
        request: { contents: [{ role: 'user', parts: [{ text: 'x' }] }] },
        retry: { maxAttempts: 1 },
      });
      assert.equal(r.error, null);
      assert.equal(r.response.candidates?.[0].content?.parts?.[0].text, 'Hello there');
      assert.deepEqual(
        r.problems.map((p) => p.path),
        ['candidates[0].citationMetadata.citationSources', 'candidates', 'candidates[0].safetyRatings'],
      );
      const s = summarize(r);
      assert.equal(s.state, 'done');
      assert.equal(s.warnings?.length, 3);
    });

    it('api-workbench generate prints the reply and a warning per malformed field, no stack', async () => {
      let out = '';
      let err = '';
      const sink = (f: (s: string) => void) =>
        new Writable({
          write(c: Buffer, _e, cb) {
            f(c.toString());
            cb();
          },
        });
      const code = await generateCommand(['--base-url', origin, '--model', 'm', '--api-key', 'k', '--prompt', 'x'], {
        stdout: sink((s) => (out += s)),
        stderr: sink((s) => (err += s)),
        env: {},
        interrupted: new Promise(() => undefined),
      });
      assert.equal(code, 0, err);
      assert.equal(out, 'Hello there\n');
      assert.match(
        err,
        /warning: the reply had a malformed field: candidates should be a list but is a number; ignored/,
      );
      assert.doesNotMatch(err, /TypeError|\n\s+at /);
    });
  });
});
