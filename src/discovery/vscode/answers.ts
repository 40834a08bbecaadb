// Where a language question about a document is answered: the index this thread already built for
// the current version; else the analysis worker, when it holds that version (a big document's
// findings were just shown, or only descriptions changed since); else an index built here now.
import type * as vscode from 'vscode';
import { answerQuery, type Analysis, type AnalysisWorker, type Answer, type Query, type QueryKind } from '../core';
import { textLength, WORKER_THRESHOLD, type DiscoveryDocuments } from './documents';

export class Answers {
  /** `analysing`: the worker's analysis of the document's current version, while it is under way. */
  constructor(
    private readonly documents: DiscoveryDocuments,
    private readonly worker?: AnalysisWorker,
    private readonly analysing: (doc: vscode.TextDocument) => Promise<unknown> | undefined = () => undefined,
  ) {}

  /** `local` is the index to build here when neither holds one (by default the current version's). */
  ask<K extends QueryKind>(
    doc: vscode.TextDocument,
    query: Query<K>,
    local: (doc: vscode.TextDocument) => Analysis | undefined = (d) => this.documents.index(d),
  ): Promise<Answer<K> | undefined> {
    const answer = this.answer(doc, query, local);
    if (query.what === 'structure') return answer;
    this.inFlight.add(answer);
    const done = () => this.inFlight.delete(answer);
    answer.then(done, done);
    return answer;
  }

  /**
   * Settles once the questions being answered now (hover, completion, …) have been handed back. A bulk answer
   * is serialised on this thread when its provider returns (a 5,000-symbol outline: about 20 ms), and the
   * editor asks for the outline, the folding and the first hover of a document together: the hover waited
   * for that. Bulk answers wait for the questions instead; later questions do not hold them back.
   */
  async questionsAnswered(): Promise<void> {
    if (this.inFlight.size === 0) return;
    await Promise.allSettled([...this.inFlight]);
    // The providers build their replies, and VS Code sends them, in the microtasks after the answers settle.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }

  private readonly inFlight = new Set<Promise<unknown>>();

  private async answer<K extends QueryKind>(
    doc: vscode.TextDocument,
    query: Query<K>,
    local: (doc: vscode.TextDocument) => Analysis | undefined,
  ): Promise<Answer<K> | undefined> {
    const ready = this.documents.ready(doc);
    if (ready) return answerQuery(ready, query);
    const key = doc.uri.toString();
    const version = doc.version;
    if (this.worker) {
      // A question right after an edit waits for the worker's findings of it rather than parse the text here;
      // completion does not wait: while typing it answers from the last index and the current structure.
      if (!this.worker.holds(key, version) && query.what !== 'completion') await this.analysing(doc);
      if (doc.isClosed || doc.version !== version) return undefined;
      if (this.worker.holds(key, version)) {
        try {
          const r = await this.worker.query(key, version, query);
          if (r.held) return r.answer;
        } catch {
          // The worker failed on it: answer here.
        }
        if (doc.isClosed || doc.version !== version) return undefined;
      }
    }
    const a = local(doc);
    return a && answerQuery(a, query);
  }

  /**
   * Before the outline or folding of a big document is built here: the worker's structural index, outline and
   * folding of the version it holds (waiting for its analysis under way), taken over by the documents' cache.
   */
  structure(doc: vscode.TextDocument): Promise<void> {
    if (!this.worker || textLength(doc) <= WORKER_THRESHOLD || this.documents.hasStructure(doc))
      return Promise.resolve();
    // The outline and folding are asked for together: one request to the worker serves both.
    const key = doc.uri.toString();
    const version = doc.version;
    const asked = this.structures.get(key);
    if (asked?.version === version) return asked.done;
    const done = this.ask(doc, { what: 'structure' }, () => undefined).then(
      (s) => {
        if (s && !doc.isClosed && doc.version === version) this.documents.adoptStructure(doc, s);
      },
      () => undefined,
    );
    this.structures.set(key, { version, done });
    void done.then(() => {
      if (this.structures.get(key)?.done === done) this.structures.delete(key);
    });
    return done;
  }

  private readonly structures = new Map<string, { version: number; done: Promise<void> }>();
}
