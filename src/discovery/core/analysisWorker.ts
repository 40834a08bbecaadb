// Client side of the analysis worker: one worker thread, the latest request per key wins, a
// crashed worker is replaced on the next request. Editor-free so tests and the bench can use it.
// At most one request per key is on the worker: a text sent while the previous one is analysed
// waits, and a newer one replaces it, so the editor can send every edit at once (no debounce)
// and the worker never analyses a text that is already stale when it starts.
// The worker keeps each document's newest analysis and answers questions about it (hover, completion,
// navigation, fixes) for the version it holds; a description edit moves what it holds, as the
// editor's own index moves, so it stays current while an author writes prose.
import type { Worker } from 'node:worker_threads';
import type { RuleSettings } from './analyze';
import type { Diagnostic } from './diagnostic';
import type { TextChange } from './incremental';
import type { Answer, Query, QueryKind, Structure } from './queries';

export type WorkerRequest =
  | { op: 'analyze'; id: number; key: string; version: number; text: string; rules: RuleSettings }
  | { op: 'query'; id: number; key: string; version: number; query: Query }
  /** A description edit from `version` to `next`: the worker moves its analysis instead of redoing it. */
  | { op: 'edit'; key: string; version: number; next: number; change: TextChange }
  | { op: 'forget'; key: string };

/** The answer to a query; `held: false` when the worker does not hold that version (any more). */
export interface QueryReply {
  id: number;
  held: boolean;
  answer?: unknown;
  error?: string;
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

/**
 * Sent by the worker unasked, after a document's first analysis: the structure the editor's outline and
 * folding will be asked for when its language has switched (a second or more later). Received in that wait,
 * it does not queue in front of the first hover or completion, as it did when fetched with them.
 */
export interface StructureSent {
  id: 0;
  sent: 'structure';
  key: string;
  version: number;
  structure: Structure | undefined;
}

export class StaleResult extends Error {
  constructor() {
    super('superseded by a newer request');
  }
}

interface Waiting {
  id: number;
  version: number;
  text: string;
  rules: RuleSettings;
  resolve: (r: WorkerReply) => void;
  reject: (e: Error) => void;
}

export class AnalysisWorker {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(r: never): void; reject(e: Error): void }>();
  /** The version of each document whose analysis the worker holds, as far as this side knows. */
  private readonly held = new Map<string, number>();
  private readonly latestByKey = new Map<string, number>();
  /** Keys with a request on the worker, and the newest text waiting behind it. */
  private readonly busy = new Map<string, Waiting | undefined>();
  /** Structures the worker sent ahead of the question, until asked for. */
  private readonly sent = new Map<string, { version: number; structure: Structure | undefined }>();

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
    w.on('message', (r: WorkerReply | QueryReply | StructureSent) => {
      if ('sent' in r) {
        if (this.held.get(r.key) === r.version) this.sent.set(r.key, { version: r.version, structure: r.structure });
        return;
      }
      const p = this.pending.get(r.id);
      if (!p) return;
      this.pending.delete(r.id);
      if (r.error) p.reject(new Error(r.error));
      else p.resolve(r as never);
    });
    const fail = (err: Error) => {
      if (this.worker !== w) return;
      this.worker = undefined;
      this.held.clear();
      this.sent.clear();
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

  /**
   * Analyses a text (`version` names it for later questions); rejects with StaleResult when a newer
   * request for the same key was made meanwhile.
   */
  analyze(key: string, text: string, rules: RuleSettings, version = -1): Promise<WorkerReply> {
    const id = this.nextId++;
    this.latestByKey.set(key, id);
    if (!this.busy.has(key)) return this.send(key, { id, version, text, rules });
    this.busy.get(key)?.reject(new StaleResult());
    return new Promise((resolve, reject) => this.busy.set(key, { id, version, text, rules, resolve, reject }));
  }

  private async send(key: string, job: Omit<Waiting, 'resolve' | 'reject'>): Promise<WorkerReply> {
    this.busy.set(key, undefined);
    let reply: WorkerReply;
    try {
      const { id, version, text, rules } = job;
      reply = await this.post<WorkerReply>({ op: 'analyze', id, key, version, text, rules });
      // The worker keeps what it analysed last, stale here or not.
      if (reply.isDiscovery) this.held.set(key, job.version);
      else this.held.delete(key);
    } finally {
      const next = this.busy.get(key);
      this.busy.delete(key);
      if (next) this.send(key, next).then(next.resolve, next.reject);
    }
    if (this.latestByKey.get(key) !== job.id) throw new StaleResult();
    return reply;
  }

  private post<R>(request: WorkerRequest & { id: number }): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.pending.set(request.id, { resolve, reject });
      this.ensure().postMessage(request);
    });
  }

  /** Whether the worker holds the analysis of this version of the document. */
  holds(key: string, version: number): boolean {
    return this.worker !== undefined && this.held.get(key) === version;
  }

  /**
   * Asks the worker about the version it holds; resolves `{ held: false }` when it no longer holds it
   * (a newer text replaced it, or an edit could not be moved), so the caller answers another way.
   */
  async query<K extends QueryKind>(
    key: string,
    version: number,
    query: Query<K>,
  ): Promise<{ held: true; answer: Answer<K> } | { held: false }> {
    if (!this.holds(key, version)) return { held: false };
    const ahead = this.sent.get(key);
    if (ahead && (ahead.version !== version || query.what === 'structure')) this.sent.delete(key);
    if (ahead?.version === version && query.what === 'structure')
      return { held: true, answer: ahead.structure as Answer<K> };
    const r = await this.post<QueryReply>({ op: 'query', id: this.nextId++, key, version, query });
    if (r.held) return { held: true, answer: r.answer as Answer<K> };
    // The worker let go of it (an edit it could not follow): later questions need not ask.
    if (this.held.get(key) === version) this.held.delete(key);
    return { held: false };
  }

  /** A description edit the editor moved its findings across: the worker moves its analysis the same way. */
  edit(key: string, version: number, next: number, change: TextChange): void {
    if (!this.holds(key, version)) return;
    this.held.set(key, next);
    this.worker!.postMessage({ op: 'edit', key, version, next, change } satisfies WorkerRequest);
  }

  forget(key: string): void {
    this.sent.delete(key);
    if (this.held.delete(key)) this.worker?.postMessage({ op: 'forget', key } satisfies WorkerRequest);
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
    this.held.clear();
    this.sent.clear();
    for (const waiting of this.busy.values()) waiting?.reject(new Error('analysis worker stopped'));
    this.busy.clear();
    await w?.terminate();
  }
}
