// The reader's large-chunk path and the aggregator's shortcuts for what the service repeats on every chunk
// (the same safetyRatings list, the same citation sources, the open text part): each must give what reading
// every field afresh gives, and must still report a malformed field on every chunk that carries it.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Aggregator } from '../../../src/generation/core/aggregate';
import { StreamConsumer } from '../../../src/generation/core/client';
import { SseReader } from '../../../src/generation/core/sse';
import type { GenerateContentResponse } from '../../../src/shared/wire/generation';

const DATA = process.env.API_WORKBENCH_DATA
  ? join(process.env.API_WORKBENCH_DATA, 'gemini')
  : resolve(__dirname, '../../../../shared/data/gemini');

const events = (file: string): string[] =>
  readFileSync(join(DATA, file), 'utf8')
    .split(/\r?\n\r?\n/)
    .filter((e) => e.startsWith('data: '))
    .map((e) => e.slice(6));

/** Reads `body` pushed in the pieces `cuts` makes; returns the aggregate, its problems and the event count. */
function read(body: Buffer, cuts: number[]) {
  const consumer = new StreamConsumer();
  const reader = new SseReader(consumer.item);
  let from = 0;
  for (const c of [...cuts, body.length]) {
    reader.push(body.subarray(from, c));
    from = c;
  }
  reader.end();
  const a = consumer.aggregator;
  return { response: a.response, problems: a.problems, chunks: a.chunks, error: consumer.error };
}

const chunk = (o: unknown) => o as GenerateContentResponse;
const rating = (category: string, probability: string, extra: Record<string, unknown> = {}) => ({
  category,
  probability,
  ...extra,
});

describe('generation: large chunks and repeated fields', () => {
  it('a body in large chunks gives the same events and aggregate at every cut, CRLF, LF and CR framed', () => {
    // UTF-8 and ASCII events (so a chunk holds both), longer than the small-chunk path's limit on both sides.
    const data = [...events('streaming-success-utf8.txt').slice(0, 2), events('streaming-success-citations.txt')[3]];
    for (const eol of ['\r\n', '\n', '\r']) {
      const body = Buffer.from(data.map((d) => `data: ${d}${eol}${eol}`).join(''));
      const whole = read(body, []);
      assert.equal(whole.chunks, data.length);
      assert.equal(whole.error, null);
      for (let i = 1; i < body.length; i++) assert.deepEqual(read(body, [i]), whole, `${JSON.stringify(eol)} cut ${i}`);
      // Two cuts that leave a short middle piece: a CRLF pair or a blank line split over three pushes.
      for (let i = 300; i < body.length - 300; i += 97)
        for (const d of [1, 2, 3, 5]) assert.deepEqual(read(body, [i, i + d]), whole, `cuts ${i}, ${i + d}`);
    }
  });

  it('a repeated safetyRatings list keeps the first objects; a changed one is merged as before', () => {
    const a = new Aggregator();
    const first = [rating('A', 'NEGLIGIBLE'), rating('B', 'LOW')];
    a.add(chunk({ candidates: [{ safetyRatings: first }] }));
    a.add(chunk({ candidates: [{ safetyRatings: [rating('A', 'NEGLIGIBLE'), rating('B', 'LOW')] }] }));
    const c = a.response.candidates![0];
    assert.equal(c.safetyRatings![0], first[0], 'equal ratings keep the old object');
    // Same values, one more key: not the same rating.
    a.add(
      chunk({ candidates: [{ safetyRatings: [rating('A', 'NEGLIGIBLE', { blocked: true }), rating('B', 'LOW')] }] }),
    );
    assert.deepEqual(c.safetyRatings, [rating('A', 'NEGLIGIBLE', { blocked: true }), rating('B', 'LOW')]);
    // A later list without the flag keeps the rating blocked; a new category is appended.
    a.add(chunk({ candidates: [{ safetyRatings: [rating('A', 'HIGH'), rating('B', 'LOW'), rating('C', 'LOW')] }] }));
    assert.deepEqual(c.safetyRatings, [rating('A', 'HIGH', { blocked: true }), rating('B', 'LOW'), rating('C', 'LOW')]);
    // Fewer keys than the item before: not equal either.
    a.add(chunk({ candidates: [{ safetyRatings: [{ category: 'A' }, rating('B', 'LOW'), rating('C', 'LOW')] }] }));
    assert.deepEqual(c.safetyRatings?.[0], { category: 'A', blocked: true });
    assert.deepEqual(a.problems, []);
  });

  it('a malformed rating is reported on every chunk that repeats it', () => {
    const a = new Aggregator();
    for (let i = 0; i < 3; i++) a.add(chunk({ candidates: [{ safetyRatings: [rating('A', 'LOW'), 5] }] }));
    assert.deepEqual(
      a.problems.map((p) => p.path),
      ['candidates[0].safetyRatings[]', 'candidates[0].safetyRatings[]', 'candidates[0].safetyRatings[]'],
    );
    assert.deepEqual(a.response.candidates![0].safetyRatings, [rating('A', 'LOW')]);
  });

  it('repeated citation sources are kept once, new or changed ones are added, bad ones reported every time', () => {
    const a = new Aggregator();
    const s1 = { startIndex: 1, endIndex: 5, uri: 'u1', license: '' };
    const s2 = { startIndex: 7, endIndex: 9, uri: 'u2', license: '' };
    const sources = () => chunk({ candidates: [{ citationMetadata: { citationSources: [{ ...s1 }, { ...s2 }] } }] });
    a.add(sources());
    a.add(sources());
    // The same sources in another order, one changed in place, one with its keys in another order.
    a.add(chunk({ candidates: [{ citationMetadata: { citationSources: [{ ...s2 }, { ...s1 }] } }] }));
    a.add(chunk({ candidates: [{ citationMetadata: { citationSources: [{ ...s2 }, { ...s1, endIndex: 6 }] } }] }));
    a.add(chunk({ candidates: [{ citationMetadata: { citationSources: [{ ...s2 }, { ...s1 }] } }] }));
    const reordered = { uri: 'u1', startIndex: 1, endIndex: 5, license: '' };
    a.add(chunk({ candidates: [{ citationMetadata: { citationSources: [{ ...s2 }, reordered] } }] }));
    a.add(chunk({ candidates: [{ citationMetadata: { citationSources: [{ ...s2 }, 'x'] } }] }));
    a.add(chunk({ candidates: [{ citationMetadata: { citationSources: [{ ...s2 }, 'x'] } }] }));
    assert.deepEqual(a.response.candidates![0].citationMetadata!.citationSources, [
      s1,
      s2,
      { ...s1, endIndex: 6 },
      reordered,
    ]);
    assert.equal(a.problems.length, 2);
    // Nested values are compared whole, and Vertex's `citations` list takes any JSON value.
    const b = new Aggregator();
    const nested = (n: number) => ({ citations: [{ uri: 'u', spans: [{ from: n }] }, 'plain', null] });
    for (const n of [1, 1, 2]) b.add(chunk({ candidates: [{ citationMetadata: nested(n) }] }));
    assert.deepEqual(b.response.candidates![0].citationMetadata!.citations, [
      { uri: 'u', spans: [{ from: 1 }] },
      'plain',
      null,
      { uri: 'u', spans: [{ from: 2 }] },
    ]);
  });

  it('text parts merge into the open part until a different part or a signature closes it', () => {
    const a = new Aggregator();
    const parts = (...p: unknown[]) => a.add(chunk({ candidates: [{ content: { parts: p } }] }));
    parts({ text: 'a' });
    parts({ text: 'b' });
    parts({ functionCall: { name: 'f', args: {} } });
    parts({ text: 'c' }, { text: 'd' });
    parts({ text: 't', thought: true });
    parts({ text: 'u', thought: true, thoughtSignature: 's' });
    parts({ text: 'v', thought: true });
    parts({ text: 'e' }, { text: 'f', extra: 1 }, { text: 'g' });
    assert.deepEqual(a.response.candidates![0].content!.parts, [
      { text: 'ab' },
      { functionCall: { name: 'f', args: {} } },
      { text: 'cd' },
      { text: 'tu', thought: true, thoughtSignature: 's' },
      { text: 'v', thought: true },
      { text: 'e' },
      { text: 'f', extra: 1 },
      { text: 'g' },
    ]);
  });

  it('grounding metadata is merged key by key, a __proto__ key as data', () => {
    const a = new Aggregator();
    a.add(chunk({ candidates: [{ groundingMetadata: { webSearchQueries: ['q'], searchEntryPoint: { x: 1 } } }] }));
    a.add(chunk(JSON.parse('{"candidates":[{"groundingMetadata":{"groundingChunks":[1],"__proto__":{"p":1}}}]}')));
    const g = a.response.candidates![0].groundingMetadata as Record<string, unknown>;
    assert.deepEqual(Object.keys(g), ['webSearchQueries', 'searchEntryPoint', 'groundingChunks', '__proto__']);
    assert.equal(Object.getPrototypeOf(g), Object.prototype);
    assert.equal((g as { p?: number }).p, undefined);
  });

  it('an event is an error only when its one field is a truthy error', () => {
    const consumer = new StreamConsumer();
    consumer.item({ kind: 'data', data: '{"error":null,"candidates":[{"content":{"parts":[{"text":"a"}]}}]}' });
    consumer.item({ kind: 'data', data: '{"error":0}' });
    assert.equal(consumer.error, null);
    consumer.item({ kind: 'data', data: '{"error":{"code":429,"message":"quota","status":"RESOURCE_EXHAUSTED"}}' });
    const error = (c: StreamConsumer) => c.error;
    assert.equal(error(consumer)?.code, 429);
  });
});
