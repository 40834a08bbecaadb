// Worker-thread entry (bundled as dist/discoveryWorker.js): analyses big documents off the
// extension host's main thread so typing in a 4 MB document never waits for validation, and
// answers the editor's questions about the newest analysis of each document it holds.
import { parentPort } from 'node:worker_threads';
import {
  analyzeParsed,
  answerQuery,
  detectDiscoveryDocument,
  prepareAnswers,
  shiftedIndex,
  type Analysis,
  type Answer,
} from '../core';
import type { QueryReply, StructureSent, WorkerReply, WorkerRequest } from '../core/analysisWorker';

/**
 * Per document: the version whose analysis is held (its findings are the editor's business), and once built
 * the structure the editor's outline and folding are made from.
 */
interface Held {
  version: number;
  analysis: Analysis;
  structure?: Answer<'structure'>;
}
const held = new Map<string, Held>();

/**
 * The editor asks for the outline and folding of a document it just opened when its language has switched (a
 * second or more for a big one), and a hover or completion often follows. What they need is built in that
 * wait rather than when asked, where the first hover would pay for it: the structure is built and sent to the
 * editor's side at once (and not kept here: the editor keeps it), then the lookups of hover and completion.
 * Each step in its own turn of the event loop, so a question that arrives meanwhile waits for one step at
 * most. Only for a document's first analysis: while typing, each text's findings come first, and the editor's
 * own carried outline serves.
 */
/** Documents analysed since they were last forgotten (closed). */
const analysed = new Set<string>();

function prepare(key: string, version: number): void {
  const steps: ((h: Held) => void)[] = [
    (h) => {
      const structure = answerQuery(h.analysis, { what: 'structure' });
      parentPort?.postMessage({ id: 0, sent: 'structure', key, version, structure } satisfies StructureSent);
    },
    (h) => prepareAnswers(h.analysis),
  ];
  const next = (): void => {
    const h = held.get(key);
    const step = steps.shift();
    if (!step || h?.version !== version) return;
    step(h);
    setImmediate(next);
  };
  setImmediate(next);
}

function handle(req: WorkerRequest): WorkerReply | QueryReply | undefined {
  switch (req.op) {
    case 'analyze': {
      const first = !analysed.has(req.key);
      analysed.add(req.key);
      held.delete(req.key);
      const parsed = detectDiscoveryDocument(req.text);
      if (!parsed) return { id: req.id, isDiscovery: false, diagnostics: [] };
      const analysis = analyzeParsed(parsed, { rules: req.rules });
      if (analysis.model) {
        held.set(req.key, { version: req.version, analysis: { ...analysis, diagnostics: [] } });
        if (first) prepare(req.key, req.version);
      }
      return { id: req.id, isDiscovery: true, diagnostics: analysis.diagnostics, strict: parsed.strict };
    }
    case 'query': {
      const h = held.get(req.key);
      if (h?.version !== req.version) return { id: req.id, held: false };
      if (req.query.what === 'structure') {
        h.structure ??= answerQuery(h.analysis, { what: 'structure' });
        return { id: req.id, held: true, answer: h.structure };
      }
      return { id: req.id, held: true, answer: answerQuery(h.analysis, req.query) };
    }
    case 'edit': {
      const h = held.get(req.key);
      const moved = h?.version === req.version ? shiftedIndex(h.analysis, req.change) : undefined;
      if (moved) held.set(req.key, { version: req.next, analysis: moved });
      else held.delete(req.key);
      return undefined;
    }
    case 'forget':
      held.delete(req.key);
      analysed.delete(req.key);
      return undefined;
  }
}

parentPort?.on('message', (req: WorkerRequest) => {
  let reply: WorkerReply | QueryReply | undefined;
  try {
    reply = handle(req);
  } catch (err) {
    if (req.op === 'edit' || req.op === 'forget') held.delete(req.key);
    else if (req.op === 'query') reply = { id: req.id, held: false, error: (err as Error).message };
    else reply = { id: req.id, isDiscovery: false, diagnostics: [], error: (err as Error).message };
  }
  if (reply) parentPort?.postMessage(reply);
});
