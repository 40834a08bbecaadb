// The peer of the discovery host probe's hover and completion (runs inside the same extension host, after the
// probe has closed our document): the same bytes with the discovery marker changed, so our extension leaves
// the file to VS Code's built-in JSON language features, asked through the editor at the same offset, first
// and warm; then a do-nothing provider alone on a small document, the bare round trip through the workbench.
// What the editor's command costs beyond the answer itself (the way to the browser's workbench and back, the
// answer's serialisation, the browser's own work on a document this size) is in both figures of a pair: their
// ratio is ours against what VS Code itself achieves on the same document.
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';

type Line = (figure: string, ms: number, extra?: Record<string, unknown>) => void;

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves with the ms from `start` until the built-in JSON features show findings for `uri`. */
async function firstFindings(uri: vscode.Uri, start: number, timeoutMs: number) {
  const end = start + timeoutMs;
  while (vscode.languages.getDiagnostics(uri).length === 0) {
    if (performance.now() > end)
      throw new Error(
        `the built-in JSON features showed no findings for ${uri.fsPath} within ${timeoutMs} ms (the bench's ` +
          'schema makes its planted $ref an error): is vscode.json-language-features running and the schema associated?',
      );
    await pause(1);
  }
  return performance.now() - start;
}

/**
 * Hover and completion asked through the editor at one position, each timed from the call to the answer, and
 * from when the workbench got to asking this host (spies registered for the same languages) to the answer.
 */
export class RoundTrips {
  private askedAt = NaN;
  private readonly spies: vscode.Disposable[];

  constructor(
    selector: vscode.DocumentSelector,
    private readonly uri: vscode.Uri,
    private readonly position: vscode.Position,
  ) {
    const asked = (): undefined => {
      if (Number.isNaN(this.askedAt)) this.askedAt = performance.now();
      return undefined;
    };
    this.spies = [
      vscode.languages.registerHoverProvider(selector, { provideHover: asked }),
      vscode.languages.registerCompletionItemProvider(selector, { provideCompletionItems: asked }),
    ];
  }

  hover = () => this.time<vscode.Hover[]>('vscode.executeHoverProvider');
  completion = () => this.time<vscode.CompletionList>('vscode.executeCompletionItemProvider');

  private async time<T>(command: string): Promise<{ result: T; ms: number; answerMs: number }> {
    const start = performance.now();
    this.askedAt = NaN;
    const result = await vscode.commands.executeCommand<T>(command, this.uri, this.position);
    const end = performance.now();
    return { result, ms: end - start, answerMs: end - this.askedAt };
  }

  dispose(): void {
    for (const s of this.spies) s.dispose();
  }
}

/**
 * Hover and completion through the editor on `peerFile` at `offset`, as the probe asks ours: the first once the
 * built-in JSON features have shown their findings (ours is asked once our findings are shown), then `warm`
 * more; then once more just after a switch to JSON with Comments, the state our first answer is in: our
 * language's grammar is VS Code's JSON with Comments grammar (syntaxes/), so the browser re-tokenises the same
 * bytes with the same grammar after either switch. Every answer must hold something, or the figure would be
 * of a refusal.
 */
export async function measurePeer(line: Line, peerFile: string, offsetOf: (text: string) => number, warm: number) {
  const uri = vscode.Uri.file(peerFile);
  const t0 = performance.now();
  const findings = firstFindings(uri, t0, 120_000);
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc);
  line('peerOpen', await findings, { findings: vscode.languages.getDiagnostics(uri).length });
  // Still plain JSON: had our detector taken the copy over, the figures below would be ours again.
  if (doc.languageId !== 'json') throw new Error(`the peer copy became ${doc.languageId}: our extension took it`);
  const position = doc.positionAt(offsetOf(doc.getText()));
  // The built-in JSON client runs in this host and forwards to its server.
  const trips = new RoundTrips([{ language: 'json' }, { language: 'jsonc' }], uri, position);
  const ask = async (state: string) => {
    const hover = await trips.hover();
    if (hover.result.length === 0)
      throw new Error(`the built-in JSON features gave no hover at ${peerFile}:${position.line}`);
    line('peerHover', hover.ms, { state, answers: hover.result.length, answerMs: hover.answerMs });
    const completion = await trips.completion();
    if (completion.result.items.length === 0)
      throw new Error(`the built-in JSON features gave no completion at ${peerFile}:${position.line}`);
    line('peerCompletion', completion.ms, {
      state,
      items: completion.result.items.length,
      answerMs: completion.answerMs,
    });
  };
  try {
    for (let i = 0; i <= warm; i++) await ask(i === 0 ? 'first' : 'warm');
    // Asked as soon as this host has the switched document, as the probe asks ours once it sees our language.
    // The built-in features then take the document anew as JSON with Comments, so their server parses it again
    // for this answer, where ours had its analysis before the switch (part of our design: the document is
    // analysed while the workbench switches its language).
    const switched = await vscode.languages.setTextDocumentLanguage(doc, 'jsonc');
    if (switched.languageId !== 'jsonc') throw new Error(`the peer copy became ${switched.languageId}, not jsonc`);
    await ask('switched');
  } finally {
    trips.dispose();
  }
  await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  await measureFloor(line, warm);
}

/**
 * A provider that does nothing but answer one line, alone on a small untitled document of a language no other
 * extension here serves: what any hover or completion through the editor costs at least in this workbench.
 */
async function measureFloor(line: Line, warm: number) {
  const language = 'plaintext';
  const doc = await vscode.workspace.openTextDocument({ language, content: '{ "$ref": "Floor" }\n' });
  const selector = { language, scheme: 'untitled' };
  const regs = [
    vscode.languages.registerHoverProvider(selector, { provideHover: () => new vscode.Hover('floor') }),
    vscode.languages.registerCompletionItemProvider(selector, {
      provideCompletionItems: () => [new vscode.CompletionItem('floor')],
    }),
  ];
  const position = new vscode.Position(0, 12);
  try {
    // More warm rounds than the big documents get: they are cheap, and the floor is the figure others are read against.
    for (let i = 0; i <= warm * 3; i++) {
      const state = i === 0 ? 'first' : 'warm';
      let start = performance.now();
      const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
        'vscode.executeHoverProvider',
        doc.uri,
        position,
      );
      line('floorHover', performance.now() - start, { state, answers: hovers.length });
      start = performance.now();
      const list = await vscode.commands.executeCommand<vscode.CompletionList>(
        'vscode.executeCompletionItemProvider',
        doc.uri,
        position,
      );
      line('floorCompletion', performance.now() - start, { state, items: list.items.length });
    }
  } finally {
    for (const r of regs) r.dispose();
  }
}
