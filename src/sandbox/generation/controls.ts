// Sandbox-only controls of the generation emulator (not part of the API), under /v1beta/__sandbox/, for
// tests and demos of evaluations: added latency, a seeded storm of 429/503/500 answers, and a log of the
// generate requests served (model, a fingerprint of the body, status) so a test can count at the service.
//   POST /v1beta/__sandbox/faults   {latencyMs?, storm?: {rate, statuses?, seed?, retryDelaySeconds?}, reset?}
//   GET  /v1beta/__sandbox/faults   the current settings
//   GET  /v1beta/__sandbox/requests {requests: [{model, fingerprint, status}]}; DELETE clears the log
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readJson } from '../http';
import type { ErrorBody } from '../../shared/wire/generation';
import { internal, invalidArgument, rateLimited, sendError, unavailable } from './errors';

export const CONTROL_PATH = '/v1beta/__sandbox/';

interface Storm {
  /** Share of generate requests refused, 0 to 1. */
  rate: number;
  statuses: number[];
  seed: number;
  /** The RetryInfo delay of a stormy 429. */
  retryDelaySeconds: number;
}

export interface ServedRequest {
  model: string;
  fingerprint: string;
  status: number;
}

/** The log keeps this many entries at most (the oldest go first). */
const LOG_LIMIT = 100_000;

/** mulberry32: a small seeded generator, so a storm is the same on every run with the same seed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body) + '\n';
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
  res.end(text);
}

export class GenerationControls {
  latencyMs = 0;
  private storm: Storm | undefined;
  private random: () => number = Math.random;
  readonly served: ServedRequest[] = [];

  fingerprint(model: string, body: unknown): string {
    return createHash('sha256')
      .update(model + '\u0000' + JSON.stringify(body))
      .digest('hex')
      .slice(0, 32);
  }

  record(model: string, fingerprint: string, status: number): void {
    if (this.served.length >= LOG_LIMIT) this.served.shift();
    this.served.push({ model, fingerprint, status });
  }

  /** The storm's answer for the next generate request, if it is to be refused. */
  stormFault(model: string): ErrorBody | undefined {
    const s = this.storm;
    if (!s || this.random() >= s.rate) return undefined;
    const status = s.statuses[Math.floor(this.random() * s.statuses.length)];
    if (status === 429) return rateLimited(model, s.retryDelaySeconds);
    if (status === 500) return internal();
    return unavailable();
  }

  async handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const what = path.slice(CONTROL_PATH.length);
    const method = req.method ?? 'GET';
    if (what === 'requests' && method === 'GET') return send(res, 200, { requests: this.served });
    if (what === 'requests' && method === 'DELETE') {
      this.served.length = 0;
      return send(res, 200, { requests: [] });
    }
    if (what === 'faults' && method === 'GET') return send(res, 200, this.settings());
    if (what === 'faults' && method === 'POST') {
      let body: unknown;
      try {
        body = await readJson(req);
      } catch {
        return sendError(res, invalidArgument(['The request body must be JSON.']));
      }
      const problems = this.apply(body ?? {});
      if (problems.length) return sendError(res, invalidArgument(problems));
      return send(res, 200, this.settings());
    }
    sendError(res, invalidArgument([`No sandbox control ${method} ${what}.`]));
  }

  private settings() {
    return { latencyMs: this.latencyMs, storm: this.storm ?? null };
  }

  private apply(body: unknown): string[] {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return ['The body must be a JSON object.'];
    const b = body as { latencyMs?: unknown; storm?: unknown; reset?: unknown };
    const problems: string[] = [];
    if (b.reset === true) {
      this.latencyMs = 0;
      this.storm = undefined;
    }
    if (b.latencyMs !== undefined) {
      if (typeof b.latencyMs !== 'number' || !Number.isInteger(b.latencyMs) || b.latencyMs < 0 || b.latencyMs > 60_000)
        problems.push('latencyMs must be an integer from 0 to 60000');
      else this.latencyMs = b.latencyMs;
    }
    if (b.storm === null) this.storm = undefined;
    else if (b.storm !== undefined) {
      const s = b.storm as Partial<Storm>;
      const statuses = s.statuses ?? [429, 503];
      if (typeof s.rate !== 'number' || s.rate < 0 || s.rate > 1)
        problems.push('storm.rate must be a number from 0 to 1');
      else if (!Array.isArray(statuses) || !statuses.length || statuses.some((x) => ![429, 500, 503].includes(x)))
        problems.push('storm.statuses must list 429, 503 or 500');
      else if (s.seed !== undefined && !Number.isInteger(s.seed)) problems.push('storm.seed must be an integer');
      else if (
        s.retryDelaySeconds !== undefined &&
        (typeof s.retryDelaySeconds !== 'number' || s.retryDelaySeconds < 0 || s.retryDelaySeconds > 60)
      )
        problems.push('storm.retryDelaySeconds must be from 0 to 60');
      else {
        this.storm = { rate: s.rate, statuses, seed: s.seed ?? 1, retryDelaySeconds: s.retryDelaySeconds ?? 0.05 };
        this.random = seeded(this.storm.seed);
      }
    }
    return problems;
  }
}
