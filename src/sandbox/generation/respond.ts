// Writes a plan to the wire: SSE with CRLF framing (like the recordings), a streamed JSON
// array without alt=sse, or one unary body. Faults are injected here.
import type { ServerResponse } from 'node:http';
import type { GenerateContentResponse } from '../../shared/wire/generation';
import { errorText, rpcError, unavailable } from './errors';
import { unaryFrom, type Plan } from './reply';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Pause before a mid-stream error so that it reaches the client as a read of its own. */
const ERROR_GAP_MS = 25;

/**
 * Resolves once everything written so far has been handed to the operating system: an empty write goes
 * straight to the socket, and a stream calls write callbacks in order, after the writes before it.
 */
function flushed(res: ServerResponse): Promise<void> {
  if (res.destroyed || res.writableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    res.write('', () => resolve());
  });
}

function streamHeaders(contentType: string): Record<string, string> {
  return {
    'content-type': contentType,
    'content-disposition': 'attachment',
    vary: 'Origin, X-Origin, Referer',
    'x-content-type-options': 'nosniff',
  };
}

/** Writes one piece; resolves when the socket accepted it (or it closed), so slow readers apply back-pressure. */
function write(res: ServerResponse, text: string): Promise<boolean> {
  if (res.destroyed || res.writableEnded) return Promise.resolve(false);
  return new Promise((resolve) => {
    const ok = res.write(text);
    if (ok) resolve(true);
    else {
      const done = () => {
        res.off('drain', done);
        res.off('close', done);
        resolve(!res.destroyed);
      };
      res.once('drain', done);
      res.once('close', done);
    }
  });
}

export async function writeStream(res: ServerResponse, plan: Plan, sse: boolean): Promise<void> {
  res.writeHead(200, streamHeaders(sse ? 'text/event-stream' : 'application/json; charset=UTF-8'));
  res.flushHeaders();
  const { chunks, fault, delayMs } = plan;
  for (let i = 0; i < chunks.length; i++) {
    if (fault && i === fault.afterChunks) {
      if (fault.kind === 'reset') {
        // Let the events already written reach the client first, as on a real dropped connection.
        await sleep(Math.max(delayMs, 30));
        if (res.socket?.resetAndDestroy) res.socket.resetAndDestroy();
        else res.destroy();
        return;
      }
      // The real service appends the pretty-printed error to the 200 body without `data:`, in its own
      // network read after the events before it (clients such as @google/genai only recognise it that
      // way): let the events leave the socket and the reader take them before the error goes out whole.
      await flushed(res);
      await sleep(Math.max(delayMs, ERROR_GAP_MS));
      await write(res, (sse ? '' : ',\r\n') + errorText(unavailable()));
      res.end();
      return;
    }
    if (i > 0 && delayMs > 0) await sleep(delayMs);
    if (res.destroyed) return;
    const ok = await write(res, sse ? sseEvent(chunks[i]) : arrayElement(chunks[i], i));
    if (!ok) return;
  }
  if (!sse) await write(res, '\n]');
  res.end();
}

export function sseEvent(chunk: GenerateContentResponse): string {
  return `data: ${JSON.stringify(chunk)}\r\n\r\n`;
}

function arrayElement(chunk: GenerateContentResponse, i: number): string {
  return (i === 0 ? '[' : '\n,\r\n') + JSON.stringify(chunk, null, 2);
}

export function writeUnary(res: ServerResponse, plan: Plan): void {
  if (plan.fault) {
    // A unary call cannot fail mid-body; it fails as a whole.
    if (plan.fault.kind === 'reset') {
      if (res.socket?.resetAndDestroy) res.socket.resetAndDestroy();
      else res.destroy();
      return;
    }
    const text = errorText(rpcError(503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.'));
    res.writeHead(503, {
      'content-type': 'application/json; charset=UTF-8',
      'content-length': String(Buffer.byteLength(text)),
    });
    res.end(text);
    return;
  }
  const text = JSON.stringify(unaryFrom(plan.chunks), null, 2) + '\n';
  res.writeHead(200, {
    'content-type': 'application/json; charset=UTF-8',
    'content-length': String(Buffer.byteLength(text)),
    vary: 'Origin, X-Origin, Referer',
  });
  res.end(text);
}
