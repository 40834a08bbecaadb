// Scaling of every parser of outside input, each a ratio measured in this run (issues 9 and 11):
//  1. time on inputs from 10 KB to 1 MB: goal 10x the input costs <= 11x the time (ratio/10 <= 1.1), fitted
//     over five sizes (see scaling());
//  2. the stream readers (with JSON.parse + aggregation) fed 16-byte vs 64 KiB chunks: goal <= 2;
//  3. 50 MB SSE parse + aggregate through our client ÷ the floor (the same body read from the same
//     loopback socket with the same fetch, split into events, JSON.parse of each event): goal <= 1.15,
//     and ÷ @google/generative-ai 0.24.1 and @google/genai 2.32.0 on the same body (reported).
// Each figure is the median of several runs after a warm-up of the same work, so JIT tiering and one
// unlucky collection or scheduling hiccup do not decide a ratio; 1 and 2 are in CPU time (see timeRuns()),
// and their detail `runs` is the lowest-highest of the same figure computed from each round of runs alone.
// Run alone: BENCH=scaling npm run bench (or node --import tsx --expose-gc test/bench/one.mjs test/bench/scaling.bench.ts)
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import nodeFetch from 'node-fetch';
import { GoogleGenerativeAI } from '@google/generative-ai';
import { GoogleGenAI } from '@google/genai';
import { SseReader } from '../../src/generation/core/sse';
import { JsonArrayReader } from '../../src/generation/core/jsonArray';
import { StreamConsumer, streamGenerateContent } from '../../src/generation/core/client';
import { candidateText } from '../../src/generation/core/aggregate';
import { analyzeText } from '../../src/discovery/core/analyze';
import { analyzeQuery } from '../../src/waterData/core/validate';
import { parseExpr, fieldsOf } from '../../src/sandbox/waterData/filter';
import { parseQuery as parseDriveQuery } from '../../src/sandbox/storage/query';
import { SMOKE } from './smoke';
import { median, spread, timeRuns } from './cpuTime';
import type { BenchResult, BenchSuite } from './types';

const SHARED = process.env.API_WORKBENCH_DATA ?? resolve(__dirname, '../../../shared/data');
const KB = 1024;
const MB = 1024 * KB;
const round = (n: number) => Math.round(n * 1000) / 1000;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

// ---- inputs of a given size, built from real data -------------------------------------------------

const GEMINI = join(SHARED, 'gemini');
/**
 * The recorded events, interleaved round-robin across the recordings, so that every prefix holds about the
 * same mix: in recording order the 10 KB input held only the first two (ASCII, short-text) recordings and the
 * larger ones also the UTF-8 and grounding events, which cost more per byte. Inputs that differ in kind made
 * a step ratio measure the mix, not how the parser scales.
 */
const EVENTS = ((): string[] => {
  const perFile = readdirSync(GEMINI)
    .filter((f) => f.startsWith('streaming-success'))
    .sort()
    .map((f) =>
      readFileSync(join(GEMINI, f), 'utf8')
        .split(/\r?\n\r?\n/)
        .filter((e) => e.startsWith('data: '))
        .map((e) => e.slice(6)),
    );
  const out: string[] = [];
  for (let i = 0; out.length < perFile.reduce((n, f) => n + f.length, 0); i++)
    for (const f of perFile) if (i < f.length) out.push(f[i]);
  return out;
})();

function sseBody(bytes: number): Buffer {
  const parts: string[] = [];
  let n = 0;
  for (let i = 0; n < bytes; i++) {
    const e = `data: ${EVENTS[i % EVENTS.length]}\r\n\r\n`;
    parts.push(e);
    n += e.length;
  }
  return Buffer.from(parts.join(''));
}

function arrayBody(bytes: number): Buffer {
  const parts: string[] = [];
  let n = 0;
  for (let i = 0; n < bytes; i++) {
    const e = EVENTS[i % EVENTS.length];
    parts.push(e);
    n += e.length + 4;
  }
  return Buffer.from(`[${parts.join('\n,\r\n')}]`);
}

function chunked(b: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < b.length; i += size) out.push(b.subarray(i, i + size));
  return out;
}

function readStream(Reader: typeof SseReader | typeof JsonArrayReader, chunks: Buffer[]): number {
  const consumer = new StreamConsumer();
  const reader = new Reader(consumer.item);
  for (const c of chunks) reader.push(c);
  reader.end();
  if (consumer.error) throw new Error(consumer.error.message);
  return consumer.aggregator.chunks;
}

/** A discovery document of about `bytes`: a real one's schemas repeated under new names (refs kept resolvable). */
function discoveryDoc(bytes: number): string {
  const base = JSON.parse(readFileSync(join(SHARED, 'discovery', 'drive.v2.json'), 'utf8')) as {
    schemas: Record<string, unknown>;
  } & Record<string, unknown>;
  const entries = Object.entries(base.schemas);
  const schemas: Record<string, unknown> = {};
  const doc = { ...base, schemas, resources: {} };
  let size = JSON.stringify(doc).length;
  for (let i = 0; size < bytes; i++) {
    const [name, s] = entries[i % entries.length];
    const key = i < entries.length ? name : `${name}${Math.floor(i / entries.length)}`;
    const value = { ...(s as object), id: key };
    schemas[key] = value;
    size += JSON.stringify(value).length + key.length + 4;
  }
  return JSON.stringify(doc, null, 1);
}

/** Conditions of one fixed width (numbers padded), so 10x the bytes is exactly 10x the same kinds of condition. */
function waterCell(bytes: number): string {
  const conds: string[] = [];
  let n = 0;
  for (let k = 0; n < bytes; k++) {
    const i = String(k).padStart(6, '0');
    const c =
      k % 3 === 0
        ? `(LocationId eq ${i} or RegionId eq 'hub.r${i}')`
        : k % 3 === 1
          ? `CharacteristicName in ('pH', 'Nitrate ${i}')`
          : `ResultValue gte ${i}.5`;
    conds.push(c);
    n += c.length + 5;
  }
  return `/Observations?$select=Id,ResultValue&$filter=${conds.join(' and ')}`;
}

function sandboxFilter(bytes: number): string {
  return waterCell(bytes).split('$filter=')[1];
}

/** A Drive `q` of one fixed width per term, mixing every token kind (strings with escapes, words, numbers, dates). */
function driveQuery(bytes: number): string {
  const terms: string[] = [];
  let n = 0;
  for (let k = 0; n < bytes; k++) {
    const i = String(k).padStart(6, '0');
    const t =
      k % 3 === 0
        ? `(title contains 'r\\'${i}' or '${i}' in parents)`
        : k % 3 === 1
          ? `not starred = true`
          : `modifiedDate > '2020-01-01T00:00:00Z'`;
    terms.push(t);
    n += t.length + 5;
  }
  return terms.join(' and ');
}

// ---- figures ---------------------------------------------------------------------------------------

// Five sizes a half-decade apart: the figure is fitted through all of them, so one size that happens to sit
// badly with the caches or a collection cannot decide it alone (two steps of three sizes swung 0.6-2.2 run to run).
const SIZES = SMOKE ? [10 * KB, 32 * KB, 100 * KB] : [10 * KB, 32 * KB, 100 * KB, 316 * KB, MB];

/** Least-squares slope of log(time) over log(size): time grows as size^slope. */
function exponent(sizes: number[], ms: number[]): number {
  const x = sizes.map(Math.log10);
  const y = ms.map(Math.log10);
  const mx = x.reduce((a, b) => a + b) / x.length;
  const my = y.reduce((a, b) => a + b) / y.length;
  let num = 0;
  let den = 0;
  x.forEach((xi, i) => ((num += (xi - mx) * (y[i] - my)), (den += (xi - mx) ** 2)));
  return num / den;
}

/**
 * The goal "10x the input costs <= 11x the time" read as the fitted exponent b: 10x the input costs 10^b times
 * as much, printed as 10^b / 10 (<= 1.1). The two plain 10x steps are in the detail.
 */
function scaling(name: string, make: (bytes: number) => unknown, run: (input: never) => void): BenchResult {
  const inputs = SIZES.map((s) => make(s));
  const runs = timeRuns(inputs.map((input) => () => run(input as never)));
  const ms = runs.map(median);
  const b = exponent(SIZES, ms);
  const ratio = 10 ** b / 10;
  // The same figure from each round of runs alone (its sizes were measured side by side, interleaved).
  const perRun = runs[0].map(
    (_, r) =>
      10 **
        exponent(
          SIZES,
          runs.map((x) => x[r]),
        ) /
      10,
  );
  const detail: Record<string, number | string> = { exponent: round(b), runs: spread(perRun) };
  SIZES.forEach((s, i) => (detail[`cpuMs${s >= MB ? `${s / MB}MB` : `${s / KB}KB`}`] = round(ms[i])));
  for (let i = 0; i + 2 < SIZES.length; i += 2) detail[`step${i / 2 + 1}`] = round(ms[i + 2] / ms[i] / 10);
  return {
    name: `scaling: ${name}, time ratio per 10x input / 10 (fitted over ${SIZES.length} sizes, 10 KB -> ${SMOKE ? '100 KB' : '1 MB'})`,
    ratio,
    goal: '<= 1.1',
    met: ratio <= 1.1,
    detail,
  };
}

function chunking(name: string, Reader: typeof SseReader | typeof JsonArrayReader, body: Buffer): BenchResult {
  const small = chunked(body, 16);
  const big = chunked(body, 64 * KB);
  const events = readStream(Reader, big);
  if (readStream(Reader, small) !== events) throw new Error(`${name}: chunking changed the result`);
  const [bigRuns, smallRuns] = timeRuns([() => readStream(Reader, big), () => readStream(Reader, small)]);
  const tBig = median(bigRuns);
  const tSmall = median(smallRuns);
  return {
    name: `chunking: ${name} + JSON.parse + aggregate, ${body.length >= MB ? '1 MB' : `${Math.round(body.length / KB)} KB`} in 16-byte ÷ 64 KiB chunks`,
    ratio: tSmall / tBig,
    goal: '<= 2',
    met: tSmall / tBig <= 2,
    detail: {
      cpuMs16B: round(tSmall),
      cpuMs64KB: round(tBig),
      events,
      runs: spread(smallRuns.map((t, r) => t / bigRuns[r])),
    },
  };
}

async function serve(body: Buffer): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(body);
    });
  });
  // Idle connections are kept for minutes, as a real front end does: with Node's 5 s default, a pooled
  // connection left idle while the SDKs ran was closed just as our client reused it (ECONNRESET, under load).
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const request = { contents: [{ role: 'user', parts: [{ text: 'bench' }] }] };

const CRLF2 = Buffer.from('\r\n\r\n');

/**
 * The floor: the same request with the same fetch, events split on bytes, each event decoded and parsed
 * once. Fair to it: bytes are copied only for the one event that straddles two network chunks (not the
 * whole chunk re-concatenated with the leftover on every read).
 */
async function floor(url: string, holdText = false): Promise<{ ms: number; events: number }> {
  const t0 = performance.now();
  // With holdText, the floor also keeps a reference to each event's text: the least an answer that holds the
  // text costs (the strings outlive the young generation's collections, which copy them), with no aggregation.
  const held: unknown[] = [];
  const parse = holdText
    ? (json: string) => {
        const v = JSON.parse(json) as { candidates?: { content?: { parts?: { text?: unknown }[] } }[] };
        for (const c of v.candidates ?? []) for (const part of c.content?.parts ?? []) held.push(part.text);
      }
    : (json: string) => JSON.parse(json) as unknown;
  const res = await nodeFetch(`${url}/v1beta/models/bench:streamGenerateContent?alt=sse`, {
    method: 'POST',
    body: JSON.stringify(request),
    headers: { 'content-type': 'application/json', 'x-goog-api-key': 'bench' },
  });
  let pending: Buffer | undefined;
  let events = 0;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    let start = 0;
    if (pending) {
      // The separator may itself straddle the seam: look at the last 3 pending bytes with the first 3 new ones.
      const tail = pending.subarray(Math.max(0, pending.length - 3));
      const seam = Buffer.concat([tail, chunk.subarray(0, 3)]).indexOf(CRLF2);
      const inChunk = seam === -1 ? chunk.indexOf(CRLF2) : 0;
      if (inChunk === -1) {
        pending = Buffer.concat([pending, chunk]);
        continue;
      }
      // Negative when the separator starts in the pending bytes.
      const end = seam === -1 ? inChunk : seam - tail.length;
      const event =
        end >= 0 ? Buffer.concat([pending, chunk.subarray(0, end)]) : pending.subarray(0, pending.length + end);
      parse(event.toString('utf8', 6));
      events++;
      start = end + 4;
      pending = undefined;
    }
    for (let end = chunk.indexOf(CRLF2, start); end !== -1; end = chunk.indexOf(CRLF2, start)) {
      parse(chunk.toString('utf8', start + 6, end));
      events++;
      start = end + 4;
    }
    if (start < chunk.length) pending = Buffer.from(chunk.subarray(start));
  }
  const ms = performance.now() - t0;
  if (holdText && held.length === 0) throw new Error(`the floor held no text of ${events} events`);
  return { ms, events };
}

async function ours(url: string): Promise<{ ms: number; events: number; text: number }> {
  const t0 = performance.now();
  const r = await streamGenerateContent({
    baseUrl: url,
    apiKey: 'bench',
    model: 'models/bench',
    request,
    retry: { maxAttempts: 1 },
  });
  const ms = performance.now() - t0;
  if (r.error) throw new Error(`our client failed: ${r.error.message}`);
  return { ms, events: r.chunks, text: candidateText(r.response.candidates?.[0]).length };
}

async function sdk(url: string): Promise<number> {
  const model = new GoogleGenerativeAI('bench').getGenerativeModel({ model: 'bench' }, { baseUrl: url });
  const t0 = performance.now();
  const result = await model.generateContentStream(request);
  for await (const chunk of result.stream) void chunk;
  await result.response;
  return performance.now() - t0;
}

async function genai(url: string): Promise<number> {
  const ai = new GoogleGenAI({ apiKey: 'bench', httpOptions: { baseUrl: url } });
  const t0 = performance.now();
  const stream = await ai.models.generateContentStream({ model: 'bench', contents: 'bench' });
  for await (const chunk of stream) void chunk;
  return performance.now() - t0;
}

async function sseFloor(): Promise<BenchResult[]> {
  const body = sseBody(SMOKE ? 2 * MB : 50 * MB);
  const s = await serve(body);
  try {
    await floor(s.url);
    await ours(s.url);
    const f: number[] = [];
    const h: number[] = [];
    const o: number[] = [];
    const p: number[] = [];
    const g: number[] = [];
    let events = 0;
    // Interleaved, so load on the machine colours all three alike.
    for (let i = 0; i < (SMOKE ? 1 : 5); i++) {
      gc();
      const a = await floor(s.url);
      gc();
      const b = await ours(s.url);
      if (a.events !== b.events) throw new Error(`the floor saw ${a.events} events, our client ${b.events}`);
      events = a.events;
      f.push(a.ms);
      o.push(b.ms);
      gc();
      h.push((await floor(s.url, true)).ms);
      if (i < (SMOKE ? 1 : 3)) {
        gc();
        p.push(await sdk(s.url));
        gc();
        g.push(await genai(s.url));
      }
    }
    const fm = median(f);
    const hm = median(h);
    const om = median(o);
    const pm = median(p);
    const gm = median(g);
    return [
      {
        name: `generation: ${Math.round(body.length / MB)} MB SSE parse + aggregate ÷ the floor (same socket read + event split + JSON.parse)`,
        ratio: om / fm,
        goal: '<= 1.15',
        met: om / fm <= 1.15,
        detail: { oursMs: round(om), floorMs: round(fm), events, floorHoldingTextMs: round(hm) },
      },
      {
        // What the goal above leaves for everything but the socket and JSON.parse, set against what holding
        // the answer's text costs on its own.
        name: `generation: ${Math.round(body.length / MB)} MB SSE: the floor holding each event's text ÷ the floor`,
        ratio: hm / fm,
        goal: 'report',
        met: true,
        detail: { floorHoldingTextMs: round(hm), floorMs: round(fm), oursOverHolding: round(om / hm) },
      },
      {
        name: `generation: ${Math.round(body.length / MB)} MB SSE parse + aggregate, ours ÷ @google/generative-ai 0.24.1`,
        ratio: om / pm,
        goal: 'report',
        met: true,
        detail: { oursMs: round(om), sdkMs: round(pm), speedup: round(pm / om) },
      },
      {
        name: `generation: ${Math.round(body.length / MB)} MB SSE parse + aggregate, ours ÷ @google/genai 2.32.0`,
        ratio: om / gm,
        goal: 'report',
        met: true,
        detail: { oursMs: round(om), sdkMs: round(gm), speedup: round(gm / om) },
      },
    ];
  } finally {
    await s.close();
  }
}

const suite: BenchSuite = async () => {
  const results: BenchResult[] = [
    scaling(
      'SSE reader + JSON.parse + aggregate',
      sseBody,
      (b: Buffer) => void readStream(SseReader, chunked(b, 64 * KB)),
    ),
    scaling(
      'JSON-array reader + JSON.parse + aggregate',
      arrayBody,
      (b: Buffer) => void readStream(JsonArrayReader, chunked(b, 64 * KB)),
    ),
    scaling('discovery analysis (parse + every rule)', discoveryDoc, (t: string) => void analyzeText(t)),
    scaling(
      'water query cell ($select + $filter parse and validation)',
      waterCell,
      (t: string) => void analyzeQuery(t),
    ),
    scaling('emulator $filter parser', sandboxFilter, (t: string) => void fieldsOf(parseExpr(t))),
    scaling('emulator storage q parser', driveQuery, (t: string) => void parseDriveQuery(t)),
    chunking('SSE reader', SseReader, sseBody(SMOKE ? 100 * KB : MB)),
    chunking('JSON-array reader', JsonArrayReader, arrayBody(SMOKE ? 100 * KB : MB)),
  ];
  results.push(...(await sseFloor()));
  return results;
};

export default suite;
