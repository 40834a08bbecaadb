// The per-event shortcuts of the stream's hot path (issue 11): the snake_case check that matches the names the
// service sends before searching a key, the ratings comparison that reads the usual keys by name, and the
// citation comparison that keeps one key list per depth. Each must decide as reading every key afresh does.
import * as assert from 'node:assert/strict';
import { Aggregator } from '../../../src/generation/core/aggregate';
import { StreamConsumer } from '../../../src/generation/core/client';
import { hasSnakeKey } from '../../../src/generation/core/fieldNames';
import { SseReader, type StreamItem } from '../../../src/generation/core/sse';
import type { GenerateContentResponse } from '../../../src/shared/wire/generation';

const chunk = (v: unknown) => v as GenerateContentResponse;

describe('stream hot path shortcuts', () => {
  it('a snake_case key after the usual names is still found, at every level the check reads', () => {
    const reply = '"content":{"parts":[{"text":"x"}],"role":"model"},"index":0,"safetyRatings":[]';
    for (const data of [
      `{"candidates":[{${reply}}],"modelVersion":"m","usage_metadata":{"total_token_count":1}}`,
      `{"candidates":[{${reply},"finish_reason":"STOP"}]}`,
      `{"candidates":[{"content":{"parts":[{"text":"x"}],"role":"model","x_y":1}}]}`,
      `{"candidates":[{"content":{"parts":[{"text":"x","thought_signature":"s"}]}}]}`,
    ])
      assert.equal(hasSnakeKey(JSON.parse(data)), true, data);
    assert.equal(hasSnakeKey(JSON.parse(`{"candidates":[{${reply},"finishReason":"STOP"}],"responseId":"r"}`)), false);
    // Through the consumer, the later snake_case fields land under their lowerCamelCase names.
    const consumer = new StreamConsumer();
    consumer.item({
      kind: 'data',
      data: `{"candidates":[{${reply},"finish_reason":"STOP"}],"usage_metadata":{"total_token_count":3}}`,
    });
    const r = consumer.aggregator.response;
    assert.equal(r.candidates![0].finishReason, 'STOP');
    assert.equal(r.usageMetadata?.totalTokenCount, 3);
  });

  it('a repeated ratings list is the same only when every key and value is', () => {
    const a = new Aggregator();
    const list = (probability: string, extra: Record<string, unknown> = {}) => [
      { category: 'A', probability: 'LOW' },
      { probability, category: 'B', ...extra },
    ];
    const first = list('LOW');
    a.add(chunk({ candidates: [{ safetyRatings: first }] }));
    a.add(chunk({ candidates: [{ safetyRatings: list('LOW') }] }));
    const c = a.response.candidates![0];
    assert.equal(c.safetyRatings![1], first[1], 'keys in another order than the usual: still the same rating');
    a.add(chunk({ candidates: [{ safetyRatings: list('HIGH') }] }));
    assert.equal(c.safetyRatings![1].probability, 'HIGH');
    a.add(chunk({ candidates: [{ safetyRatings: list('HIGH', { severity: 'S' }) }] }));
    assert.deepEqual(c.safetyRatings![1], { probability: 'HIGH', category: 'B', severity: 'S' });
    a.add(chunk({ candidates: [{ safetyRatings: list('HIGH', { severity: 'T' }) }] }));
    assert.equal(
      (c.safetyRatings![1] as { severity?: string }).severity,
      'T',
      'a key beyond the usual two is compared',
    );
  });

  it('citation items with nested values are compared key by key at each depth, the outer keys after the inner', () => {
    const a = new Aggregator();
    const item = (uri: string, license: string) => ({ span: { from: 1, to: 2, by: 'x' }, uri, license });
    const add = (...items: unknown[]) =>
      a.add(chunk({ candidates: [{ citationMetadata: { citationSources: items } }] }));
    add(item('u', 'A'));
    add(item('u', 'A'));
    add(item('u', 'B'));
    add(item('v', 'B'));
    add({ span: { to: 2, from: 1, by: 'x' }, uri: 'v', license: 'B' });
    add({ span: { from: 1, to: 2, by: 'x' }, uri: 'v', license: 'B', extra: 1 });
    add({ span: { from: 1, to: 2, by: 'x' }, uri: 'v' });
    assert.deepEqual(a.response.candidates![0].citationMetadata!.citationSources, [
      item('u', 'A'),
      item('u', 'B'),
      item('v', 'B'),
      { span: { to: 2, from: 1, by: 'x' }, uri: 'v', license: 'B' },
      { span: { from: 1, to: 2, by: 'x' }, uri: 'v', license: 'B', extra: 1 },
      { span: { from: 1, to: 2, by: 'x' }, uri: 'v' },
    ]);
    assert.deepEqual(a.problems, []);
  });

  it('the reader hands payloads to a data callback when given one, in order with raw text, as items otherwise', () => {
    const body = 'data: {"a":1}\r\n\r\n{\n  "error": {"code": 500}\n}\ndata: {"b":\ndata: 2}\n\n: note\ndata: é\n\n';
    const seen: string[] = [];
    const items: StreamItem[] = [];
    const withCallback = new SseReader(
      (item) => seen.push(`${item.kind}:${item.kind === 'raw' ? item.text : item.data}`),
      (data) => seen.push(`payload:${data}`),
    );
    const plain = new SseReader((item) => items.push(item));
    for (const reader of [withCallback, plain]) {
      reader.pushText(body.slice(0, 9));
      reader.pushText(body.slice(9));
      reader.end();
    }
    assert.deepEqual(seen, ['payload:{"a":1}', 'raw:{\n  "error": {"code": 500}\n}', 'payload:{"b":\n2}', 'payload:é']);
    assert.deepEqual(
      items.map((i) => (i.kind === 'raw' ? `raw:${i.text}` : `payload:${i.data}`)),
      seen,
      'the same payloads in the same order as items',
    );
  });
  it('events that alternate between candidates each land on their own candidate (the last one used is remembered)', () => {
    const a = new Aggregator();
    const ev = (...cands: [number, string][]) =>
      chunk({ candidates: cands.map(([index, text]) => ({ index, content: { parts: [{ text }] } })) });
    a.add(ev([0, 'a']));
    a.add(ev([1, 'B']));
    a.add(ev([1, 'C'], [0, 'b']));
    a.add(ev([0, 'c']));
    a.add(ev([2, 'x'], [1, 'D']));
    assert.deepEqual(
      a.response.candidates!.map((c) => c.content!.parts!.map((p) => p.text).join('')),
      ['abc', 'BCD', 'x'],
    );
  });

  it('a repeated ratings list differs when only a category or a probability does, or a key is missing', () => {
    const a = new Aggregator();
    const add = (...ratings: unknown[]) => a.add(chunk({ candidates: [{ safetyRatings: ratings }] }));
    add({ category: 'A', probability: 'LOW' }, { category: 'B', probability: 'LOW' });
    add({ category: 'A', probability: 'LOW' }, { category: 'C', probability: 'LOW' });
    const c = a.response.candidates![0];
    assert.deepEqual(
      c.safetyRatings!.map((r) => r.category),
      ['A', 'B', 'C'],
    );
    add({ category: 'A', probability: 'LOW' }, { category: 'C', probability: 'MEDIUM' });
    assert.equal(c.safetyRatings![2].probability, 'MEDIUM');
    add({ category: 'A', probability: 'LOW' }, { category: 'C' });
    assert.deepEqual(c.safetyRatings![2], { category: 'C' });
  });

  it('citation items whose strings are equal but whose numbers or nested values differ are kept apart', () => {
    const a = new Aggregator();
    const add = (...items: unknown[]) =>
      a.add(chunk({ candidates: [{ citationMetadata: { citationSources: items } }] }));
    const item = (endIndex: unknown, extra?: unknown) => ({
      uri: 'u',
      license: '',
      endIndex,
      ...(extra ? { extra } : {}),
    });
    add(item(5));
    add(item(5));
    add(item(6));
    add(item(6, { s: 'x' }));
    add(item(6, { s: 'x' }));
    add(item(6, { s: 'y' }));
    add(item('6'));
    assert.deepEqual(a.response.candidates![0].citationMetadata!.citationSources, [
      item(5),
      item(6),
      item(6, { s: 'x' }),
      item(6, { s: 'y' }),
      item('6'),
    ]);
  });
  it("citationSources and Vertex's citations are deduplicated each against its own list", () => {
    const a = new Aggregator();
    const src = { uri: 'u', startIndex: 1 };
    const other = { uri: 'v', startIndex: 2 };
    a.add(chunk({ candidates: [{ citationMetadata: { citationSources: [src], citations: [src] } }] }));
    a.add(chunk({ candidates: [{ citationMetadata: { citations: [src, other], citationSources: [src] } }] }));
    a.add(chunk({ candidates: [{ citationMetadata: { citationSources: [other, src] } }] }));
    const meta = a.response.candidates![0].citationMetadata as Record<string, unknown>;
    assert.deepEqual(meta.citationSources, [src, other]);
    assert.deepEqual(meta.citations, [src, other]);
  });
});
