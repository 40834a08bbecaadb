// The streamed reading of a page (PageBodyParser, readPage, streamCsv): the same rows, members, CSV bytes
// and errors as parsing the whole body, whatever the chunks, while holding only a piece of the page.
import * as assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import type { HttpFetch } from '../../../src/shared/http';
import { WaterClient } from '../../../src/waterData/core/client';
import { csvField, numberText, toCsv } from '../../../src/waterData/core/csv';
import { WaterApiError } from '../../../src/waterData/core/errors';
import { PageBodyParser } from '../../../src/waterData/core/pageBody';
import { PageBodyError } from '../../../src/waterData/core/pageBodyBytes';
import { collectRows, readPage } from '../../../src/waterData/core/pager';
import { RateLimiter } from '../../../src/waterData/core/rateLimiter';
import { streamCsv, writableSink } from '../../../src/waterData/core/stream';
import { startWaterEmulator } from './emulatorServer';

type Row = Record<string, unknown>;

/** Feeds `bytes` in the given chunks; every row, the rows of each take, and the members (or the error). */
function parse(bytes: Buffer, cuts: number[]) {
  const p = new PageBodyParser();
  const rows: Row[] = [];
  const takes: number[] = [];
  try {
    let from = 0;
    for (const to of [...cuts, bytes.length]) {
      p.push(bytes.subarray(from, to));
      from = to;
      for (let r = p.take(); r.length > 0; r = p.take()) {
        takes.push(r.length);
        rows.push(...r);
      }
    }
    const end = p.end();
    rows.push(...end.rows);
    return { rows, takes, members: end.members };
  } catch (e) {
    if (e instanceof PageBodyError) return { error: e.problem };
    throw e;
  }
}

/** What parsing the whole body says, as the client and pager did before streaming. */
function whole(bytes: Buffer) {
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return { error: 'not-json' };
  }
  if (!body || typeof body !== 'object') return { error: 'not-json' };
  const { value, ...members } = body as Row;
  if (!Array.isArray(value)) return { error: 'no-value' };
  return { rows: value as Row[], members };
}

function random(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
}

const TRICKY_ROWS: Row[] = [
  { Id: 1, Name: 'plain', ResultValue: 5.88, Flag: null },
  { Id: 2, Name: 'a "},{" inside', Note: '}, {', Tail: '\\' },
  { Id: 3, Name: 'µS/cm °C — ünïcödé 水質 🌊', Escaped: 'line\nbreak\t"quoted"\\' },
  { Id: 4, Nested: { a: [1, { b: '},' }], c: {} }, List: ['x', 'y'] },
  { Id: 5, Empty: '', Zero: 0, Neg: -0.25, Big: 1e21, Tiny: 5e-324, Bool: false },
];

describe('waterData page body, read as it arrives', () => {
  it('gives exactly the rows and members of JSON.parse, cut into chunks at every byte', () => {
    const bodies = [
      { '@odata.context': 'x', value: TRICKY_ROWS, '@odata.nextLink': 'https://h/Records?$skiptoken=Id:5' },
      { value: TRICKY_ROWS },
      { value: [] },
      { '@odata.count': 5, value: [TRICKY_ROWS[1]], other: { '},': [1, 2] } },
    ];
    for (const body of bodies) {
      for (const text of [JSON.stringify(body), JSON.stringify(body, null, 2), `\ufeff ${JSON.stringify(body)} \n`]) {
        const bytes = Buffer.from(text);
        const expected = whole(bytes);
        for (let cut = 0; cut <= bytes.length; cut++) {
          const got = parse(bytes, [cut]);
          assert.deepEqual({ rows: got.rows, members: got.members }, expected, `cut at ${cut} of ${text}`);
        }
        const next = random(bytes.length);
        for (let k = 0; k < 30; k++) {
          const cuts = [...new Set(Array.from({ length: 8 }, () => Math.floor(next() * bytes.length)))].sort(
            (a, b) => a - b,
          );
          const got = parse(bytes, cuts);
          assert.deepEqual({ rows: got.rows, members: got.members }, expected, `cuts ${cuts.join(',')}`);
        }
      }
    }
  });

  it('says what parsing the whole body says of a body that is not a page', () => {
    const bad = [
      '',
      '   ',
      '<html>Not found</html>',
      'null',
      '42',
      '"text"',
      '[1,2]',
      '{}',
      '{"value":null}',
      '{"value":{"a":1}}',
      '{"value":[{"a":1},]}',
      '{"value":[,{"a":1}]}',
      '{"value":[{"a":1}{"b":2}]}',
      '{"value":[{"a":1}]',
      '{"value":[{"a":1}],}',
      '{"value":[{"a":1}]} trailing',
      '{"value":[{"a":"unterminated}]}',
      '{"value":[{"a":1},{"b":2}],"x":}',
      '\ufeff\ufeff{"value":[]}',
    ];
    for (const text of bad) {
      const bytes = Buffer.from(text);
      const expected = whole(bytes);
      assert.ok('error' in expected, `${text} is not a page`);
      for (let cut = 0; cut <= bytes.length; cut++) assert.deepEqual(parse(bytes, [cut]), expected, `${text} @${cut}`);
    }
  });

  it('holds a piece of a page at a time, even when the whole body comes as one chunk', () => {
    const value = Array.from({ length: 10_000 }, (_, i) => ({ Id: i, DOI: '10.25976/lrwn-ak51', ResultValue: i / 7 }));
    const bytes = Buffer.from(JSON.stringify({ value, '@odata.nextLink': 'n' }));
    const got = parse(bytes, []);
    assert.deepEqual(got.rows, value);
    assert.deepEqual(got.members, { '@odata.nextLink': 'n' });
    assert.ok(got.takes.length > 20, `${got.takes.length} batches`);
    assert.ok(Math.max(...got.takes) <= 400, `at most ${Math.max(...got.takes)} rows at once`);
  });

  it('reads a row spanning many chunks once, whatever it holds and however small the chunks', () => {
    // Counted, not timed: every byte handed to JSON.parse or copied by Buffer.concat. Reading a long row
    // again from its start at each chunk (a string full of "},", which fools the quick way) is quadratic.
    const bodies = [
      { value: [{ Id: 1, Note: '},'.repeat(200_000) }, { Id: 2 }], after: 'x' },
      {
        value: [
          { Id: 1, Note: 'x'.repeat(400_000) },
          { Id: 2, Nested: [[[{ a: '},{' }]]] },
        ],
      },
      { value: Array.from({ length: 3000 }, (_, i) => ({ Id: i, Note: `${i}},{` })) },
    ];
    const parse0 = JSON.parse;
    const concatOwn = Object.getOwnPropertyDescriptor(Buffer, 'concat') as PropertyDescriptor;
    const concat0 = Buffer.concat.bind(Buffer);
    let handled = 0;
    JSON.parse = (text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
      handled += text.length;
      return parse0(text, reviver) as unknown;
    };
    Buffer.concat = (list: readonly Uint8Array[], length?: number) => {
      const out = concat0(list, length);
      handled += out.length;
      return out;
    };
    try {
      for (const body of bodies) {
        const bytes = Buffer.from(JSON.stringify(body));
        for (const size of [1, 7, 4096, 65_536]) {
          const part = size === 1 ? bytes.subarray(0, 60_000) : bytes; // one byte a chunk: a shorter body
          handled = 0;
          const cuts = Array.from({ length: Math.ceil(part.length / size) - 1 }, (_, i) => (i + 1) * size);
          const got = parse(part, cuts);
          if (part === bytes) assert.deepEqual(got, { ...whole(bytes), takes: got.takes }, `${size}-byte chunks`);
          assert.ok(handled <= 6 * part.length, `${handled} bytes handled for ${part.length} in ${size}-byte chunks`);
        }
      }
    } finally {
      JSON.parse = parse0;
      Object.defineProperty(Buffer, 'concat', concatOwn);
    }
  });

  it('writes numbers as String does, without its cache', () => {
    const next = random(7);
    const values = [0, -0, 1, -1, 0.1, 1 / 3, 1e21, 1e-7, 5e-324, 2 ** 53, -123.456, NaN, Infinity, -Infinity];
    for (let k = 0; k < 20_000; k++) values.push((next() - 0.5) * 10 ** Math.floor(next() * 40 - 20));
    for (const v of values) assert.equal(numberText(v), String(v));
    assert.equal(csvField(-0), '0');
  });
});

/** A fetch whose 2xx body arrives as a stream of `chunks`; `failAfter` breaks the connection after that many. */
function streamingFetch(pages: (n: number) => { chunks: string[]; failAfter?: number; status?: number }) {
  let calls = 0;
  const fetch: HttpFetch = () => {
    const page = pages(++calls);
    const status = page.status ?? 200;
    const body = (async function* () {
      for (let i = 0; i < page.chunks.length; i++) {
        if (page.failAfter === i) throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
        await new Promise((r) => setImmediate(r));
        yield Buffer.from(page.chunks[i]);
      }
    })();
    return Promise.resolve({
      status,
      ok: status < 300,
      statusText: '',
      headers: { get: () => null },
      body,
      text: () => Promise.resolve(page.chunks.join('')),
      arrayBuffer: () => Promise.reject(new Error('unused')),
    });
  };
  return { fetch, calls: () => calls };
}

const BASE = 'https://api.example.test/v1/odata/v4';
const client = (fetch: HttpFetch) =>
  new WaterClient({ baseUrl: BASE, apiKey: 'k', fetch, limiter: new RateLimiter({ minIntervalMs: 0 }) });

function chunksOf(rows: Row[], size: number, after = '') {
  const text = JSON.stringify({ value: rows }).slice(0, -1) + after + '}';
  return Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));
}

describe('waterData readPage', () => {
  const rows = Array.from({ length: 3000 }, (_, i) => ({ Id: i, DOI: `10.25976/d${i % 3}` }));

  it('hands rows on before the rest of the page has arrived', async () => {
    const chunks = chunksOf(rows, 4096);
    let arrived = 0;
    const { fetch } = streamingFetch(() => ({ chunks }));
    const counted: HttpFetch = async (url, init) => {
      const r = await fetch(url, init);
      const inner = r.body!;
      return {
        ...r,
        body: (async function* () {
          for await (const c of inner) {
            arrived++;
            yield c;
          }
        })(),
      };
    };
    const seenAt: number[] = [];
    const got: Row[] = [];
    const r = await readPage(client(counted), `${BASE}/Records`, (batch) => {
      seenAt.push(arrived);
      got.push(...batch);
    });
    assert.deepEqual(got, rows);
    assert.equal(r.rows, rows.length);
    assert.ok(seenAt[0] < chunks.length / 2, `first rows after ${seenAt[0]} of ${chunks.length} chunks`);
  });

  it('re-reads a page whose connection broke and skips the rows already handed on', async () => {
    const next = '"@odata.nextLink":"https://api.example.test/v1/odata/v4/Records?$skiptoken=Id:2999"';
    const chunks = chunksOf(rows, 1000, `,${next}`);
    const { fetch, calls } = streamingFetch((n) => ({ chunks, failAfter: n === 1 ? 40 : undefined }));
    const got: Row[] = [];
    const r = await readPage(client(fetch), `${BASE}/Records`, (batch) => void got.push(...batch));
    assert.equal(calls(), 2);
    assert.deepEqual(got, rows, 'every row once, in order');
    assert.match(r.nextLink!, /skiptoken=Id%3A2999/);
  });

  it('does not retry what the sink threw, and says a body is not JSON as before', async () => {
    const { fetch, calls } = streamingFetch(() => ({ chunks: chunksOf(rows, 1000) }));
    await assert.rejects(
      readPage(client(fetch), `${BASE}/Records`, () => Promise.reject(new Error('disk full'))),
      /disk full/,
    );
    assert.equal(calls(), 1);
    const html = streamingFetch(() => ({ chunks: ['<html>', 'login</html>'] }));
    await assert.rejects(
      readPage(client(html.fetch), `${BASE}/Records`, () => undefined),
      (e: unknown) => {
        assert.ok(e instanceof WaterApiError);
        assert.equal(e.kind, 'invalid-response');
        assert.equal(e.message, 'The service answered with something other than JSON.');
        return true;
      },
    );
    const noList = streamingFetch(() => ({ chunks: ['{"values":[]}'] }));
    await assert.rejects(
      readPage(client(noList.fetch), `${BASE}/Records`, () => undefined),
      {
        message: 'The response has no "value" list.',
      },
    );
  });
});

describe('waterData CSV export, streamed', () => {
  it('writes the same bytes as the CSV of the whole pages', async function () {
    this.timeout(60_000);
    const s = await startWaterEmulator({ minIntervalMs: 0 });
    try {
      const c = new WaterClient({
        baseUrl: s.baseUrl,
        apiKey: s.apiKey,
        limiter: new RateLimiter({ minIntervalMs: 0 }),
      });
      const select = ['Id', 'DOI', 'MonitoringLocationName', 'ActivityStartDate', 'CharacteristicName', 'ResultValue'];
      let out = '';
      const file = new Writable({
        write(chunk, _e, cb) {
          out += String(chunk);
          cb();
        },
      });
      const summary = await streamCsv(c, { entitySet: 'Records', select }, writableSink(file), {
        maxRows: 25_000,
        partition: false,
        pageSize: 10_000,
      });
      const url = `${s.baseUrl}/Records?%24select=${select.join('%2C')}`;
      const paged = await collectRows(c, url, { maxRows: 25_000, pageSize: 10_000 });
      assert.equal(summary.rows, 25_000);
      assert.equal(summary.pages, 3);
      assert.equal(out, toCsv(select, paged.rows));
      assert.deepEqual(
        summary.dois.sort(),
        [...new Set(paged.rows.map((r) => r.DOI as string))].sort(),
        'the citation lists every dataset',
      );
    } finally {
      await s.close();
    }
  });
});
