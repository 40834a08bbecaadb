// Client side of the analysis worker: one worker thread, the latest request per key wins, a
// crashed worker is replaced on the next request. Editor-free so tests and the bench can use it.
// At most one request per key is on the worker: a text sent while the previous one is analysed
// waits, and a newer one replaces it, so the editor can send every edit at once (no debounce)
// and the worker never analyses a text that is already stale when it starts.
import type { Worker } from 'node:worker_threads';
import type { RuleSettings } from './analyze';
import type { Diagnostic } from './diagnostic';

export interface WorkerRequest {
  id: number;
  text: string;
  rules: RuleSettings;
}

export interface WorkerReply {
  id: number;
  /** False when the text turned out not to be a description document. */
  isDiscovery: boolean;
  diagnostics: Diagnostic[];
  /** Whether the text was strict JSON (lets the editor move findings past an edit inside a description). */
  strict?: boolean;
  error?: string;
}

export class StaleResult extends Error {
  constructor() {
    super('superseded by a newer request');
  }
}

interface Waiting {
  id: number;
  text: string;
  rules: RuleSettings;
  resolve: (r: WorkerReply) => void;
  reject: (e: Error) => void;
}

export class AnalysisWorker {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(r: WorkerReply): void; reject(e: Error): void }>();
  private readonly latestByKey = new Map<string, number>();
  /** Keys with a request on the worker, and the newest text waiting behind it. */
  private readonly busy = new Map<string, Waiting | undefined>();

  /** `source` is the worker bundle's path, or with `{ eval: true }` a CommonJS bootstrap (tests load TypeScript that way). */
  constructor(
    private readonly source: string,
    private readonly options: { eval?: boolean } = {},
  ) {}

  private ensure(): Worker {
    if (this.worker) return this.worker;
    // Loaded with the first worker, not with the discovery feature: a couple of milliseconds where nothing
    // has loaded worker_threads yet, and loading the feature starts no worker (small documents never need one).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const threads = require('node:worker_threads') as typeof import('node:worker_threads');
    const w = new threads.Worker(this.source, { eval: this.options.eval === true });
    w.unref();
    w.on('message', (r: WorkerReply) => {
      const p = this.pending.get(r.id);
      if (!p) return;
      this.pending.delete(r.id);
      if (r.error) p.reject(new Error(r.error));
      else p.resolve(r);
    });
    const fail = (err: Error) => {
      if (this.worker !== w) return;
      this.worker = undefined;
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    w.on('error', fail);
    w.on('exit', (code) => fail(new Error(`analysis worker exited with code ${code}`)));
    this.worker = w;
    return w;
  }

  /** Starts the worker thread ahead of the first document, so that one does not wait for it to load. */
  warm(): void {
    this.ensure();
  }

  /** Analyses a text; rejects with StaleResult when a newer request for the same key was made meanwhile. */
  analyze(key: string, text: string, rules: RuleSettings): Promise<WorkerReply> {
    const id = this.nextId++;
    this.latestByKey.set(key, id);
    if (!this.busy.has(key)) return this.send(key, id, text, rules);
    this.busy.get(key)?.reject(new StaleResult());
    return new Promise((resolve, reject) => this.busy.set(key, { id, text, rules, resolve, reject }));
  }

  private async send(key: string, id: number, text: string, rules: RuleSettings): Promise<WorkerReply> {
    this.busy.set(key, undefined);
    let reply: WorkerReply;
    try {
      reply = await new Promise<WorkerReply>((resolve, reject) => {
        this.pending.set(id, { resolve, reject });
        this.ensure().postMessage({ id, text, rules } satisfies WorkerRequest);
      });
    } finally {
      const next = this.busy.get(key);
      this.busy.delete(key);
      if (next) this.send(key, next.id, next.text, next.rules).then(next.resolve, next.reject);
    }
    if (this.latestByKey.get(key) !== id) throw new StaleResult();
    return reply;
  }

  forget(key: string): void {
    this.latestByKey.delete(key);
    const waiting = this.busy.get(key);
    if (waiting) {
      this.busy.set(key, undefined);
      waiting.reject(new StaleResult());
    }
  }

  async dispose(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    for (const p of this.pending.values()) p.reject(new Error('analysis worker stopped'));
    this.pending.clear();
    for (const waiting of this.busy.values()) waiting?.reject(new Error('analysis worker stopped'));
    this.busy.clear();
    await w?.terminate();
  }
}
