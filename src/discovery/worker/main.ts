// Worker-thread entry (bundled as dist/discoveryWorker.js): analyses big documents off the
// extension host's main thread so typing in a 4 MB document never waits for validation.
import { parentPort } from 'node:worker_threads';
import { analyzeParsed, detectDiscoveryDocument } from '../core';
import type { WorkerReply, WorkerRequest } from '../core/analysisWorker';

parentPort?.on('message', (req: WorkerRequest) => {
  let reply: WorkerReply;
  try {
    const parsed = detectDiscoveryDocument(req.text);
    reply = parsed
      ? {
          id: req.id,
          isDiscovery: true,
          diagnostics: analyzeParsed(parsed, { rules: req.rules }).diagnostics,
          strict: parsed.strict,
        }
      : { id: req.id, isDiscovery: false, diagnostics: [] };
  } catch (err) {
    reply = { id: req.id, isDiscovery: false, diagnostics: [], error: (err as Error).message };
  }
  parentPort?.postMessage(reply);
});
