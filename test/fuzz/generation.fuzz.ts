// Fuzz: the generation stream readers (SSE and JSON array) and the aggregation/summary over them.
// Properties: nothing throws, every run terminates, the items and summaries are well-formed, the
// readers' output does not depend on how the bytes were chunked, and no key swaps a prototype.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SseReader, type StreamItem } from '../../src/generation/core/sse';
import { JsonArrayReader } from '../../src/generation/core/jsonArray';
import { StreamConsumer } from '../../src/generation/core/client';
import { summarize } from '../../src/generation/core/summary';
import { Aggregator } from '../../src/generation/core/aggregate';
import type { GenerateContentResponse } from '../../src/shared/wire/generation';
import { budget, fuzz, mutateBytes, mutateTree, randomChunks, randomValue, type Random } from './fuzz';

const DATA = process.env.API_WORKBENCH_DATA
  ? join(process.env.API_WORKBENCH_DATA, 'gemini')
  : resolve(__dirname, '../../../shared/data/gemini');
const SSE_FILES = readdirSync(DATA)
  .filter((f) => f.endsWith('.txt'))
  .map((f) => readFileSync(join(DATA, f)));
const EVENTS: GenerateContentResponse[] = SSE_FILES.flatMap((b) =>
  b
    .toString('utf8')
    .split(/\r?\n\r?\n/)
    .filter((e) => e.startsWith('data: '))
    .map((e) => JSON.parse(e.slice(6)) as GenerateContentResponse),
);

type Reader = typeof SseReader | typeof JsonArrayReader;

function readAll(Reader: Reader, chunks: Buffer[]): StreamItem[] {
  const items: StreamItem[] = [];
  const reader = new Reader((i) => items.push(i));
  for (const c of chunks) reader.push(c);
  reader.end();
  return items;
}

function wellFormed(items: StreamItem[]): void {
  for (const it of items) {
    if (it.kind === 'data') assert.equal(typeof it.data, 'string');
    else {
      assert.equal(it.kind, 'raw');
      assert.equal(typeof it.text, 'string');
    }
  }
}

function checkSummary(consumer: StreamConsumer): void {
  const a = consumer.aggregator;
  assert.equal(Object.getPrototypeOf(a.response), Object.prototype);
  for (const c of a.response.candidates ?? []) {
    assert.equal(Object.getPrototypeOf(c), Object.prototype);
    if (c.content !== undefined) assert.ok(Array.isArray(c.content.parts ?? []));
    if (c.safetyRatings !== undefined) assert.ok(Array.isArray(c.safetyRatings));
    if (c.citationMetadata?.citationSources !== undefined) assert.ok(Array.isArray(c.citationMetadata.citationSources));
  }
  const s = summarize({
    response: a.response,
    error: consumer.error,
    aborted: false,
    incomplete: false,
    problems: a.problems,
  });
  assert.ok(['done', 'stopped', 'error', 'blocked', 'awaitingApproval'].includes(s.state));
  assert.ok(Array.isArray(s.ratings) && Array.isArray(s.citations) && Array.isArray(s.functionCalls));
  for (const c of s.citations)
    assert.ok(Number.isInteger(c.start) && (c.end ?? 0) >= (c.start ?? 0) && typeof c.text === 'string');
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
}

/** A body: real recorded SSE, or real events re-framed (LF, CRLF, CR, JSON array), then damaged. */
function body(r: Random, framing: 'sse' | 'json'): Buffer {
  if (framing === 'sse' && r.chance(0.4)) return mutateBytes(r, r.pick(SSE_FILES));
  const events = Array.from({ length: 1 + r.int(6) }, () =>
    r.chance(0.5) ? mutateTree(r, r.pick(EVENTS)) : r.pick(EVENTS),
  );
  const nl = r.pick(['\n', '\r\n', '\r']);
  const text =
    framing === 'sse'
      ? events.map((e) => `data: ${JSON.stringify(e)}${nl}${nl}`).join('')
      : `[${events.map((e) => JSON.stringify(e, null, r.chance(0.5) ? 2 : 0)).join(`${nl},${nl}`)}]`;
  return r.chance(0.5) ? mutateBytes(r, Buffer.from(text)) : Buffer.from(text);
}

describe('fuzz: generation stream readers and aggregation', function () {
  for (const [name, Reader, framing] of [
    ['SSE', SseReader, 'sse'],
    ['JSON array', JsonArrayReader, 'json'],
  ] as const) {
    it(`${name} reader: never throws, same items whatever the chunking`, () => {
      const n = fuzz(framing === 'sse' ? 11 : 12, budget({ iterations: 3000, seconds: 3 }), (r) => {
        const bytes = body(r, framing);
        const whole = readAll(Reader, [bytes]);
        wellFormed(whole);
        assert.deepEqual(readAll(Reader, randomChunks(r, bytes)), whole);
      });
      assert.ok(n > 0);
    });

    it(`${name} body through parse + aggregate + summary: never throws, well-formed`, () => {
      const n = fuzz(framing === 'sse' ? 21 : 22, budget({ iterations: 3000, seconds: 3 }), (r) => {
        const consumer = new StreamConsumer();
        const reader = new Reader(consumer.item);
        for (const c of randomChunks(r, body(r, framing))) reader.push(c);
        reader.end();
        checkSummary(consumer);
      });
      assert.ok(n > 0);
    });
  }

  it('aggregator and summary over type-confused chunks: never throw, well-formed', () => {
    const n = fuzz(31, budget({ iterations: 5000, seconds: 3 }), (r) => {
      const consumer = new StreamConsumer();
      for (let k = 1 + r.int(5); k > 0; k--) {
        const chunk = r.chance(0.2) ? randomValue(r) : mutateTree(r, r.pick(EVENTS), 1 + r.int(8));
        consumer.item({ kind: 'data', data: JSON.stringify(chunk) ?? 'null' });
      }
      consumer.item({ kind: 'data', data: '{"__proto__":{"polluted":1},"candidates":[{"__proto__":{"polluted":1}}]}' });
      checkSummary(consumer);
      // The summary also reads responses that never went through the aggregator (saved, unary).
      summarize({ response: randomValue(r) as GenerateContentResponse, error: null, aborted: false, incomplete: true });
      new Aggregator().add(randomValue(r) as GenerateContentResponse);
    });
    assert.ok(n > 0);
  });
});
