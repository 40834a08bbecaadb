// Runs inside the extension host (as extensionTestsPath): opens the 4 MB aiplatform.v1beta1 document in
// an editor and times what a user waits for: the first diagnostics, updated diagnostics after an edit
// inside a description, and hover and completion answered by VS Code's commands (every provider
// registered for JSON, the built-in JSON language server included), and the longest block of this
// thread while typing outside a description. One JSON line per figure.
import * as fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import { performance as perf } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { measurePeer, RoundTrips } from './discovery-host-peer';

const SOURCE = 'discovery';

function discoveryDiagnostics(uri: vscode.Uri): readonly vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === SOURCE);
}

/**
 * Resolves with the milliseconds from `start` until our diagnostics for `uri` are next published. VS Code sends
 * a collection's findings to the workbench when they are set, but tells extensions 50 ms later
 * (onDidChangeDiagnostics is debounced in the extension host): the probe looks every millisecond for a new set
 * of ours instead (each publication is a new list of new objects), so the figure is when they left for the
 * workbench, not when VS Code's event said so.
 */
function nextPublish(uri: vscode.Uri, start: number, timeoutMs: number): Promise<number> {
  const before = discoveryDiagnostics(uri)[0];
  if (before && discoveryDiagnostics(uri)[0] !== before)
    throw new Error('getDiagnostics returned new objects for the same findings: the probe cannot tell a new set');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      clearInterval(poll);
      reject(new Error(`no diagnostics for ${uri.fsPath} within ${timeoutMs} ms`));
    }, timeoutMs);
    const poll = setInterval(() => {
      const now = discoveryDiagnostics(uri)[0];
      if (now === undefined || now === before) return;
      clearTimeout(timer);
      clearInterval(poll);
      resolve(performance.now() - start);
    }, 1);
  });
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Where hover and completion are asked, ours and the peer's alike: inside a "$ref" value past the middle. */
const refOffset = (text: string) => text.indexOf('"$ref": "', text.length >> 1) + 10;

/**
 * The longest gap between ticks of a 1 ms timer during `work`, and the longest stretch of it the
 * event loop was busy (not waiting): on a shared machine a gap can also be a thread waiting for a core.
 */
async function longestBlock(work: () => Promise<void>): Promise<{ gapMs: number; busyMs: number }> {
  let last = performance.now();
  let elu = perf.eventLoopUtilization();
  let gapMs = 0;
  let busyMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    const d = perf.eventLoopUtilization(elu);
    elu = perf.eventLoopUtilization();
    gapMs = Math.max(gapMs, now - last);
    busyMs = Math.max(busyMs, d.active);
    last = now;
  }, 1);
  try {
    await work();
  } finally {
    clearInterval(ticker);
  }
  return { gapMs: Math.round(gapMs), busyMs: Math.round(busyMs) };
}

export async function run(): Promise<void> {
  try {
    await measure();
  } catch (err) {
    // The bench prints what the probe said when it fails.
    fs.appendFileSync(process.env.API_WORKBENCH_TEST_REPORT!, `probe failed: ${(err as Error).stack ?? String(err)}\n`);
    throw err;
  }
}

async function measure(): Promise<void> {
  const report = process.env.API_WORKBENCH_TEST_REPORT!;
  const file = process.env.BENCH_DOCUMENT!;
  const edits = Number(process.env.BENCH_EDITS ?? '3');
  const line = (figure: string, ms: number, extra: Record<string, unknown> = {}) =>
    fs.appendFileSync(report, `DISCOVERY-HOST ${JSON.stringify({ figure, ms, ...extra })}\n`);
  const ours = vscode.extensions.all.find((e) => (e.packageJSON as { name?: string })?.name === 'api-workbench');
  if (!ours) throw new Error('api-workbench is not installed in this host');
  // Activation is the activation bench's figure; here the extension is already running when the file opens.
  await ours.activate();
  // BENCH_PROFILE=<file>: a CPU profile of this extension host over the whole probe, to see where the time goes.
  const profile = process.env.BENCH_PROFILE;
  const session = profile ? new Session() : undefined;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  const uri = vscode.Uri.file(file);

  let t0 = performance.now();
  // When the text reached this host: the rest of the wait is ours, the part before it the workbench's.
  let arrived = NaN;
  const arrival = vscode.workspace.onDidOpenTextDocument((d) => {
    if (d.uri.toString() === uri.toString() && Number.isNaN(arrived)) arrived = performance.now() - t0;
  });
  // When an edit reached this host, in the same way. Subscribed before the document opens (which loads our
  // feature): listeners run in the order they subscribed, so this one runs before ours.
  let editArrived = NaN;
  const editArrival = vscode.workspace.onDidChangeTextDocument((e) => {
    if (e.document.uri.toString() === uri.toString() && Number.isNaN(editArrived)) editArrived = performance.now();
  });
  const firstShown = nextPublish(uri, t0, 60_000);
  const doc = await vscode.workspace.openTextDocument(uri);
  const editor = await vscode.window.showTextDocument(doc);
  const shownMs = await firstShown;
  arrival.dispose();
  // The findings are shown while the workbench still switches the document's language to ours (a round
  // trip of a second or more for 5 MB): until it has, the editor asks the built-in JSON features, not ours.
  for (let i = 0; i < 3000 && doc.languageId !== 'discovery-json'; i++) await pause(10);
  const languageMs = performance.now() - t0;
  if (doc.languageId !== 'discovery-json') throw new Error(`the document stayed ${doc.languageId}`);
  line('open', shownMs, {
    findings: discoveryDiagnostics(uri).length,
    bytes: doc.getText().length,
    afterArrivalMs: Math.round(shownMs - arrived),
    languageMs: Math.round(languageMs),
  });

  // Hover and completion on a "$ref" value deep in the document, first right after it became ours, then warm.
  // The whole wait is the editor's command; a do-nothing provider of the probe's, asked in the same round as
  // ours, tells when the workbench got to asking the extension host: from then on the wait is our answer
  // (and its way back), before it the workbench's (the browser renders a 5 MB document, other extensions
  // scan it).
  // How long our provider took in this host (a test-mode seam of ours records it).
  const oursMs = async (what: string): Promise<number> => {
    const times = await vscode.commands.executeCommand<{ what: string; ms: number }[]>(
      'apiWorkbench._testDiscoveryAnswerTimes',
    );
    const mine = times.filter((t) => t.what === what);
    if (mine.length !== 1) throw new Error(`expected one ${what} answer to be timed, got ${JSON.stringify(times)}`);
    return mine[0].ms;
  };
  await vscode.commands.executeCommand('apiWorkbench._testDiscoveryAnswerTimes');
  const text = doc.getText();
  const trips = new RoundTrips({ language: 'discovery-json' }, uri, doc.positionAt(refOffset(text)));
  for (const state of ['first', 'warm', 'warm']) {
    const hover = await trips.hover();
    line('hover', hover.ms, { state, answers: hover.result.length });
    line('hoverAnswer', hover.answerMs, { state });
    line('hoverOurs', await oursMs('hover'), { state });
    const completion = await trips.completion();
    line('completion', completion.ms, { state, items: completion.result.items.length });
    line('completionAnswer', completion.answerMs, { state });
    line('completionOurs', await oursMs('completion'), { state });
  }
  trips.dispose();
  const times = await vscode.commands.executeCommand<unknown[]>('apiWorkbench._testDiscoveryAnswerTimes');
  if (times.length > 0) throw new Error(`answers timed that the probe did not ask: ${JSON.stringify(times)}`);

  // Typing one character into a description: the findings stay the same, only their offsets move.
  const descAt = text.indexOf('"description": "', text.length >> 2) + 16;
  for (let i = 0; i < edits; i++) {
    await pause(500);
    t0 = performance.now();
    editArrived = NaN;
    const updated = nextPublish(uri, t0, 60_000);
    const applied = await editor.edit((b) => b.insert(doc.positionAt(descAt + i), 'x'));
    if (!applied) throw new Error('the edit was not applied');
    const updatedMs = await updated;
    line('edit', updatedMs, { findings: discoveryDiagnostics(uri).length });
    line('editArrived', t0 + updatedMs - editArrived);
  }
  // Typing outside a description (each keystroke goes to the worker): the longest time this thread
  // did not answer a 1 ms timer, from the first keystroke until a second after the last one's
  // findings are shown (the outline and folding are asked for once typing pauses).
  const spaceAt = text.indexOf(',\n', text.length >> 1) + 1;
  await pause(2000);
  const typed = await longestBlock(async () => {
    let shown: Promise<number> | undefined;
    for (let i = 0; i < edits * 3; i++) {
      shown = nextPublish(uri, performance.now(), 60_000);
      if (!(await editor.edit((b) => b.insert(doc.positionAt(spaceAt), ' '))))
        throw new Error('the edit was not applied');
      await pause(120);
    }
    await shown;
    await pause(1000);
  });
  editArrival.dispose();
  line('typing', typed.gapMs, { busyMs: typed.busyMs, keystrokes: edits * 3 });
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  // The same bytes left to VS Code's JSON features, once ours is closed (one 4–8 MB document in the browser each).
  await measurePeer(line, process.env.BENCH_PEER_DOCUMENT!, refOffset, 2);
  if (session && profile) {
    const { profile: data } = await session.post('Profiler.stop');
    fs.writeFileSync(profile, JSON.stringify(data));
    session.disconnect();
  }
}
