// Generation client figures, each a ratio measured in this run:
//  1. parse + aggregate a 50 MB SSE stream served from loopback: our client vs @google/generative-ai
//     0.24.1 consuming the same bytes (goal: at least 3× faster, i.e. ratio ≤ 0.333);
//  2. scaling: 50 MB vs 5 MB through our client (goal: 10× the input costs ≤ 11× the time);
//  3. time to first token added by our client over a raw fetch of the same stream (reported).
// The stream is built from the recorded events (data/gemini), repeated, so its shape is real.
// Run alone: BENCH=generation npm run bench
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import nodeFetch from 'node-fetch';
import { GoogleGenerativeAI } from '@google/generative-ai';
import { candidateText, streamGenerateContent } from '../../src/generation/core';
import { SMOKE } from './smoke';
import type { BenchResult, BenchSuite } from './types';

const DATA = process.env.API_WORKBENCH_DATA
  ? join(process.env.API_WORKBENCH_DATA, 'gemini')
  : resolve(__dirname, '../../../shared/data/gemini');
const MB = 1024 * 1024;
const RUNS = SMOKE ? 1 : 3;

/** Recorded events (CRLF framed), repeated until `bytes`; the last one carries finishReason STOP. */
function buildStream(bytes: number): Buffer {
  const source = [
    'streaming-success-basic-reply-long.txt',
    'streaming-success-citations.txt',
    'streaming-success-utf8.txt',
  ]
    .flatMap((f) =>
      readFileSync(join(DATA, f), 'utf8')
        .split(/\r?\n\r?\n/)
        .filter((e) => e.startsWith('data: ')),
    )
    .map((e) => Buffer.from(`${e}\r\n\r\n`));
  const parts: Buffer[] = [];
  let n = 0;
  for (let i = 0; n < bytes; i++) {
    const b = source[i % source.length];
    parts.push(b);
    n += b.length;
  }
  return Buffer.concat(parts);
}

interface Server {
  url: string;
  body: Buffer;
  close(): Promise<void>;
}

/** Serves `body` as an SSE response to any request, in 64 KiB writes like a real socket. */
async function serve(body: Buffer, firstDelayMs = 0): Promise<Server> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-disposition': 'attachment' });
      if (firstDelayMs) {
        const first = body.indexOf('\r\n\r\n') + 4;
        res.write(body.subarray(0, first));
        setTimeout(() => res.end(body.subarray(first)), firstDelayMs);
      } else {
        res.end(body);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    body,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const request = { contents: [{ role: 'user', parts: [{ text: 'bench' }] }] };

async function ours(url: string): Promise<{ ms: number; textLength: number }> {
  const t0 = performance.now();
  const r = await streamGenerateContent(
    { baseUrl: url, apiKey: 'bench', model: 'models/bench', request, retry: { maxAttempts: 1 } },
    () => undefined,
  );
  const ms = performance.now() - t0;
  if (r.error) throw new Error(`our client failed: ${r.error.message}`);
  return { ms, textLength: candidateText(r.response.candidates?.[0]).length };
}

async function peer(url: string): Promise<{ ms: number; textLength: number }> {
  const model = new GoogleGenerativeAI('bench').getGenerativeModel({ model: 'bench' }, { baseUrl: url });
  const t0 = performance.now();
  const result = await model.generateContentStream(request);
  for await (const chunk of result.stream) void chunk;
  const response = await result.response;
  const ms = performance.now() - t0;
  return { ms, textLength: response.text().length };
}

async function timeToFirst(url: string): Promise<{ raw: number; ours: number }> {
  const t0 = performance.now();
  const res = await nodeFetch(`${url}/v1beta/models/bench:streamGenerateContent?alt=sse`, {
    method: 'POST',
    body: JSON.stringify(request),
    headers: { 'content-type': 'application/json' },
  });
  let raw = 0;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    if (!raw) raw = performance.now() - t0;
    void chunk;
  }
  let first = 0;
  const t1 = performance.now();
  await streamGenerateContent(
    { baseUrl: url, apiKey: 'bench', model: 'models/bench', request, retry: { maxAttempts: 1 } },
    () => {
      if (!first) first = performance.now() - t1;
    },
  );
  return { raw, ours: first };
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const round = (n: number) => Math.round(n * 100) / 100;

const suite: BenchSuite = async () => {
  const big = await serve(buildStream(SMOKE ? 5 * MB : 50 * MB));
  const small = await serve(buildStream(SMOKE ? MB / 2 : 5 * MB));
  const results: BenchResult[] = [];
  try {
    // Warm both clients up on the small stream so neither pays JIT costs in the measured runs.
    await ours(small.url);
    await peer(small.url);
    const oursBig: number[] = [];
    const peerBig: number[] = [];
    const oursSmall: number[] = [];
    let lengths: [number, number] = [0, 0];
    for (let i = 0; i < RUNS; i++) {
      gc();
      const a = await ours(big.url);
      gc();
      const b = await peer(big.url);
      gc();
      oursSmall.push((await ours(small.url)).ms);
      oursBig.push(a.ms);
      peerBig.push(b.ms);
      lengths = [a.textLength, b.textLength];
    }
    if (lengths[0] !== lengths[1])
      throw new Error(`the clients disagree on the text: ${lengths[0]} vs ${lengths[1]} characters`);
    const o = Math.min(...oursBig);
    const p = Math.min(...peerBig);
    const s = Math.min(...oursSmall);
    results.push({
      name: 'generation: parse+aggregate 50 MB SSE, ours vs @google/generative-ai 0.24.1',
      ratio: o / p,
      goal: '<= 0.333',
      met: o / p <= 1 / 3,
      detail: {
        oursMs: round(o),
        peerMs: round(p),
        speedup: round(p / o),
        mb: round(big.body.length / MB),
        textChars: lengths[0],
      },
    });
    const scaling = o / s / 10;
    results.push({
      name: 'generation: 50 MB vs 5 MB through our client (time ratio / 10)',
      ratio: scaling,
      goal: '<= 1.1',
      met: scaling <= 1.1,
      detail: { ms50: round(o), ms5: round(s) },
    });
  } finally {
    await big.close();
    await small.close();
  }

  // First token: a stream whose first event arrives at once and the rest later.
  const held = await serve(buildStream(64 * 1024), 200);
  try {
    const raws: number[] = [];
    const firsts: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = await timeToFirst(held.url);
      raws.push(t.raw);
      firsts.push(t.ours);
    }
    const raw = Math.min(...raws);
    const first = Math.min(...firsts);
    results.push({
      name: 'generation: time to first token, our client vs raw fetch of the same stream',
      ratio: first / raw,
      goal: 'report',
      met: true,
      detail: { rawMs: round(raw), oursMs: round(first), addedMs: round(first - raw) },
    });
  } finally {
    await held.close();
  }
  return results;
};

export default suite;
