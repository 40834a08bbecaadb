// Client side of the analysis worker: one worker thread, the latest request per key wins, a
// crashed worker is replaced on the next request. Editor-free so tests and the bench can use it.
import { Worker } from 'node:worker_threads';
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

export class AnalysisWorker {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(r: WorkerReply): void; reject(e: Error): void }>();
  private readonly latestByKey = new Map<string, number>();

  /** `source` is the worker bundle's path, or with `{ eval: true }` a CommonJS bootstrap (tests load TypeScript that way). */
  constructor(
    private readonly source: string,
    private readonly options: { eval?: boolean } = {},
  ) {}

  private ensure(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(this.source, { eval: this.options.eval === true });
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

  /** Analyses a text; rejects with StaleResult when a newer request for the same key was made meanwhile. */
  async analyze(key: string, text: string, rules: RuleSettings): Promise<WorkerReply> {
    const id = this.nextId++;
    this.latestByKey.set(key, id);
    const reply = await new Promise<WorkerReply>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.ensure().postMessage({ id, text, rules } satisfies WorkerRequest);
    });
    if (this.latestByKey.get(key) !== id) throw new StaleResult();
    return reply;
  }

  forget(key: string): void {
    this.latestByKey.delete(key);
  }

  async dispose(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    for (const p of this.pending.values()) p.reject(new Error('analysis worker stopped'));
    this.pending.clear();
    await w?.terminate();
  }
}
