import * as assert from 'node:assert/strict';
import { SseReader, type StreamItem } from '../../../src/generation/core/sse';
import { JsonArrayReader } from '../../../src/generation/core/jsonArray';
import type { ErrorBody } from '../../../src/shared/wire/generation';
import { parseAs } from '../../support/typedJson';

function read(
  text: string,
  cuts: number[] = [],
  Reader: typeof SseReader | typeof JsonArrayReader = SseReader,
): StreamItem[] {
  const items: StreamItem[] = [];
  const r = new Reader((i) => items.push(i));
  const bytes = Buffer.from(text);
  let from = 0;
  for (const c of [...cuts, bytes.length]) {
    r.push(bytes.subarray(from, c));
    from = c;
  }
  r.end();
  return items;
}

describe('generation SSE reader', () => {
  it('handles CRLF, LF and a last event without its blank line', () => {
    const want = [
      { kind: 'data', data: '{"a":1}' },
      { kind: 'data', data: '{"b":2}' },
    ];
    assert.deepEqual(read('data: {"a":1}\r\n\r\ndata: {"b":2}\r\n\r\n'), want);
    assert.deepEqual(read('data: {"a":1}\n\ndata: {"b":2}\n\n'), want);
    assert.deepEqual(read('data: {"a":1}\r\n\r\ndata: {"b":2}\r\n'), want);
    assert.deepEqual(read('data: {"a":1}\n\ndata: {"b":2}'), want);
    assert.deepEqual(read('data:{"a":1}\n\ndata:{"b":2}'), want, 'the space after the colon is optional');
  });

  it('handles CR framing and a CRLF pair split across pushes, at every split', () => {
    const want = [
      { kind: 'data', data: '{"a":1}' },
      { kind: 'data', data: '{"b":\n2}' },
    ];
    for (const text of [
      'data: {"a":1}\r\rdata: {"b":\rdata: 2}\r\r',
      'data: {"a":1}\r\n\r\ndata: {"b":\r\ndata: 2}\r\n\r\n',
    ]) {
      assert.deepEqual(read(text), want);
      for (let i = 1; i < text.length; i++) assert.deepEqual(read(text, [i]), want, `cut ${i}`);
    }
  });

  it('reads an event longer than many chunks the same in 1-byte and whole pushes', () => {
    const payload = `{"t":"${'ü€x'.repeat(5000)}"}`;
    const text = `data: ${payload}\r\n\r\n{"error":{"code":1,\n"message":"${'m'.repeat(3000)}"}}\n`;
    const bytes = Buffer.from(text);
    const cuts = Array.from({ length: bytes.length - 1 }, (_, i) => i + 1);
    const whole = read(text);
    assert.deepEqual(whole[0], { kind: 'data', data: payload });
    assert.equal(whole[1].kind, 'raw');
    assert.deepEqual(read(text, cuts), whole);
    assert.deepEqual(
      read(
        text,
        cuts.filter((c) => c % 16 === 0),
      ),
      whole,
    );
  });

  it('joins multi-line data and ignores comments and other fields', () => {
    assert.deepEqual(read(': keep-alive\nevent: message\nid: 7\nretry: 10\ndata: {"a":\ndata: 1}\n\n'), [
      { kind: 'data', data: '{"a":\n1}' },
    ]);
  });

  it('emits a raw multi-line JSON error that follows events, at any split', () => {
    const text =
      'data: {"a":1}\n\ndata: {"b":2}\n\n{\n  "error": {\n    "code": 499,\n    "message": "a } in \\" text",\n    "status": "CANCELLED"\n  }\n}\n';
    const whole = read(text);
    assert.equal(whole.length, 3);
    assert.equal(whole[2].kind, 'raw');
    assert.deepEqual(parseAs<ErrorBody>((whole[2] as { text: string }).text).error.code, 499);
    for (let i = 1; i < text.length; i++) assert.deepEqual(read(text, [i]), whole, `cut ${i}`);
  });

  it('emits the raw error even when it immediately follows an event without a blank line', () => {
    const items = read('data: {"a":1}\n{"error":{"code":500,"message":"x","status":"INTERNAL"}}');
    assert.deepEqual(
      items.map((i) => i.kind),
      ['data', 'raw'],
    );
  });

  it('hands over an HTML body as raw text', () => {
    const items = read('<html>\n<body>Error 404</body>\n</html>\n');
    assert.equal(items.length, 1);
    assert.equal(items[0].kind, 'raw');
  });

  it('decodes a code point split across pushes', () => {
    const text = 'data: {"t":"秋风 — é"}\r\n\r\n';
    const bytes = Buffer.from(text);
    for (let i = 1; i < bytes.length; i++)
      assert.deepEqual(read(text, [i]), [{ kind: 'data', data: '{"t":"秋风 — é"}' }]);
  });
});

describe('generation JSON-array reader', () => {
  it('emits each element of a streamed array, and a bare object', () => {
    const text = '[{\n  "a": "x]}"\n}\n,\r\n{\n  "b": [1, {"c": 2}]\n}\n]';
    const whole = read(text, [], JsonArrayReader);
    assert.deepEqual(
      whole.map((i) => (i.kind === 'data' ? parseAs<unknown>(i.data) : i)),
      [{ a: 'x]}' }, { b: [1, { c: 2 }] }],
    );
    for (let i = 1; i < text.length; i++) assert.deepEqual(read(text, [i], JsonArrayReader), whole);
    assert.deepEqual(read('{"error":{"code":1}}', [5], JsonArrayReader), [
      { kind: 'data', data: '{"error":{"code":1}}' },
    ]);
  });

  it('reads an element longer than many chunks the same in 1-byte and whole pushes, stray text included', () => {
    const text = `[{"t":"${'ü€x'.repeat(5000)}"}\n,\n{"u":[${'1,'.repeat(4000)}2]}\n,\n<html>${'h'.repeat(100)}\n]\n`;
    const whole = read(text, [], JsonArrayReader);
    assert.deepEqual(
      whole.map((i) => i.kind),
      ['data', 'data', 'raw'],
    );
    assert.equal((whole[2] as { text: string }).text, `<html>${'h'.repeat(100)}`);
    const bytes = Buffer.from(text);
    const cuts = Array.from({ length: bytes.length - 1 }, (_, i) => i + 1);
    assert.deepEqual(read(text, cuts, JsonArrayReader), whole);
    assert.deepEqual(
      read(
        text,
        cuts.filter((c) => c % 16 === 0),
        JsonArrayReader,
      ),
      whole,
    );
  });

  it('reports an unfinished element at end of body as raw text', () => {
    const items = read('[{"a":1}\n,\r\n{"b":', [], JsonArrayReader);
    assert.deepEqual(
      items.map((i) => i.kind),
      ['data', 'raw'],
    );
  });
});
