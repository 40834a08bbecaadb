import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  AnalysisWorker,
  analyzeText,
  answerQuery,
  applyChange,
  buildJsonTree,
  documentSymbols,
  foldingSpans,
  type JsonTree,
  StaleResult,
  type Query,
} from '../../../src/discovery/core';
import { REPO_ROOT } from './helpers';

/** The index's arrays cut to its node count (the builder's arrays have spare room). */
function sliced(t: JsonTree): Partial<JsonTree> {
  const cut = <T extends { slice(a: number, b: number): T }>(a: T) => a.slice(0, t.count);
  return {
    kind: cut(t.kind),
    start: cut(t.start),
    end: cut(t.end),
    parent: cut(t.parent),
    keyStart: cut(t.keyStart),
    keyEnd: cut(t.keyEnd),
    firstChild: cut(t.firstChild),
    nextSibling: cut(t.nextSibling),
    childCount: cut(t.childCount),
  };
}

describe('analysis worker', function () {
  this.timeout(20000);
  const entry = join(REPO_ROOT, 'src/discovery/worker/main.ts');
  const worker = new AnalysisWorker(`require('tsx/cjs'); require(${JSON.stringify(entry)});`, { eval: true });
  after(() => worker.dispose());
  const sample = readFileSync(join(REPO_ROOT, 'samples/discovery/bookshelf.v1.json'), 'utf8');

  it('analyses off the main thread with the given rule settings', async () => {
    const r = await worker.analyze('a', sample, {});
    assert.equal(r.isDiscovery, true);
    assert.deepEqual(
      r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code),
      ['ref-unresolved'],
    );
    const quiet = await worker.analyze('a', sample, { 'ref-unresolved': 'off' });
    assert.equal(quiet.diagnostics.filter((d) => d.code === 'ref-unresolved').length, 0);
  });

  it('drops a result superseded by a newer request for the same document', async () => {
    const first = worker.analyze('b', sample, {});
    const second = worker.analyze('b', sample.replace('"Note"', '"Author"'), {});
    await assert.rejects(first, StaleResult);
    const r = await second;
    assert.equal(r.diagnostics.filter((d) => d.severity === 'error').length, 0);
  });

  it('says when a text is not a description document', async () => {
    const r = await worker.analyze('c', '{"compilerOptions": {}}', {});
    assert.equal(r.isDiscovery, false);
  });
});

describe('analysis worker: one text per document at a time', function () {
  this.timeout(20000);
  const entry = join(REPO_ROOT, 'src/discovery/worker/main.ts');
  const worker = new AnalysisWorker(`require('tsx/cjs'); require(${JSON.stringify(entry)});`, { eval: true });
  after(() => worker.dispose());
  const sample = readFileSync(join(REPO_ROOT, 'samples/discovery/bookshelf.v1.json'), 'utf8');

  it('drops a waiting text the moment a newer one arrives, before the one on the worker is done', async () => {
    worker.warm();
    const settled: string[] = [];
    const track = (name: string, p: Promise<unknown>) =>
      p.then(
        () => settled.push(`${name} ok`),
        (e: unknown) => settled.push(`${name} ${e instanceof StaleResult ? 'stale' : String(e)}`),
      );
    const first = track('first', worker.analyze('d', sample, {}));
    const second = track('second', worker.analyze('d', sample, {}));
    const third = worker.analyze('d', sample.replace('"Note"', '"Author"'), {});
    await Promise.all([first, second, track('third', third)]);
    // The second never reached the worker: it was dropped while the first was analysed.
    assert.deepEqual(settled, ['second stale', 'first stale', 'third ok']);
    assert.equal((await third).diagnostics.filter((d) => d.severity === 'error').length, 0);
  });

  it('forgetting a document drops its waiting text', async () => {
    const first = worker.analyze('e', sample, {});
    const waiting = worker.analyze('e', sample, {});
    worker.forget('e');
    await assert.rejects(waiting, StaleResult);
    await assert.rejects(first, StaleResult);
  });
});

describe('analysis worker: answers about the version it holds', function () {
  this.timeout(20000);
  const entry = join(REPO_ROOT, 'src/discovery/worker/main.ts');
  const worker = new AnalysisWorker(`require('tsx/cjs'); require(${JSON.stringify(entry)});`, { eval: true });
  after(() => worker.dispose());
  const sample = readFileSync(join(REPO_ROOT, 'samples/discovery/bookshelf.v1.json'), 'utf8');
  const refAt = sample.indexOf('"$ref": "') + 10;
  const here = (text: string) => analyzeText(text);

  it('answers hover, completion, definition, references and fixes as this thread would', async () => {
    const r = await worker.analyze('q', sample, {}, 7);
    assert.equal(worker.holds('q', 7), true);
    assert.equal(worker.holds('q', 8), false);
    const local = here(sample);
    for (const query of [
      { what: 'hover', offset: refAt },
      { what: 'completion', offset: refAt },
      { what: 'definition', offset: refAt },
      { what: 'references', offset: refAt, includeDeclaration: true },
      { what: 'fixes', findings: r.diagnostics },
      { what: 'structure' },
    ] as Query[]) {
      const remote = await worker.query('q', 7, query);
      assert.equal(remote.held, true, query.what);
      assert.deepEqual(remote.held && remote.answer, answerQuery(local, query), query.what);
    }
    const hover = await worker.query('q', 7, { what: 'hover', offset: refAt });
    assert.match(String(hover.held && hover.answer?.markdown), /\S/);
    assert.ok((await worker.query('q', 7, { what: 'fixes', findings: r.diagnostics })).held);
    // The structure sent back is the index, outline and folding this thread would build from the text.
    const structure = await worker.query('q', 7, { what: 'structure' });
    const tree = buildJsonTree(sample);
    const sent = structure.held ? structure.answer : undefined;
    assert.ok(sent);
    assert.deepEqual({ ...sent.tree, text: sample }, { ...tree, ...sliced(tree) });
    assert.deepEqual(sent.symbols, documentSymbols(tree));
    assert.deepEqual(sent.folding, foldingSpans(tree));
  });

  it('answers the same after building its lookups in the wait after a first analysis', async () => {
    // The worker builds the reference index and the model's completion lists between two turns of its event
    // loop, before any question: every $ref, scope and method answer must be what a fresh index gives.
    await worker.analyze('p', sample, {}, 1);
    await new Promise((r) => setTimeout(r, 100));
    const local = here(sample);
    const at = (needle: string) => [...sample.matchAll(new RegExp(needle, 'g'))].map((m) => m.index + m[0].length);
    const offsets = [...at('"\\$ref": "'), ...at('"scopes": \\[\\s*"'), ...at('"id": "')];
    assert.ok(offsets.length > 20, `only ${offsets.length} positions to ask about`);
    for (const offset of offsets)
      for (const query of [
        { what: 'hover', offset },
        { what: 'completion', offset },
        { what: 'definition', offset },
        { what: 'references', offset, includeDeclaration: false },
      ] as Query[]) {
        const remote = await worker.query('p', 1, query);
        assert.equal(remote.held, true);
        assert.deepEqual(remote.held && remote.answer, answerQuery(local, query), `${query.what} at ${offset}`);
      }
  });

  it('sends the structure of a first analysis ahead: asked for later, it is here, not behind the worker', async () => {
    await worker.analyze('ahead', sample, {}, 3);
    await new Promise((r) => setTimeout(r, 200));
    // A big text keeps the worker busy; a structure fetched from it would come after that analysis.
    const doc = JSON.parse(sample) as { schemas: Record<string, unknown> };
    for (let i = 0; i < 4000; i++)
      doc.schemas[`Pad${i}`] = { id: `Pad${i}`, type: 'object', description: 'x'.repeat(200) };
    const order: string[] = [];
    const busy = worker.analyze('busy', JSON.stringify(doc, null, 2), {}, 1).then(() => order.push('busy'));
    const structure = await worker.query('ahead', 3, { what: 'structure' });
    order.push('structure');
    await busy;
    assert.deepEqual(order, ['structure', 'busy']);
    assert.deepEqual(structure.held && structure.answer, answerQuery(here(sample), { what: 'structure' }));
    // Taken once: asked again, the worker answers.
    const again = await worker.query('ahead', 3, { what: 'structure' });
    assert.deepEqual(again.held && again.answer, structure.held && structure.answer);
  });

  it('follows a description edit, and lets go of the text after any other edit', async () => {
    await worker.analyze('e', sample, {}, 1);
    // Not a scope's description: those are copied into the model, and an edit there is analysed again.
    const at = sample.indexOf('"description": "', sample.indexOf('"schemas"')) + 16;
    const change = { offset: at, length: 0, text: 'More words. ' };
    worker.edit('e', 1, 2, change);
    const edited = applyChange(sample, change);
    const offset = edited.indexOf('"$ref": "') + 10;
    const moved = await worker.query('e', 2, { what: 'hover', offset });
    assert.equal(moved.held, true);
    assert.deepEqual(moved.held && moved.answer, answerQuery(here(edited), { what: 'hover', offset }));
    const structure = await worker.query('e', 2, { what: 'structure' });
    assert.deepEqual(structure.held && structure.answer, answerQuery(here(edited), { what: 'structure' }));
    assert.equal((await worker.query('e', 1, { what: 'hover', offset })).held, false);
    // A space between two tokens is not a description edit: the worker drops what it held.
    const between = { offset: edited.indexOf(',\n') + 1, length: 0, text: ' ' };
    worker.edit('e', 2, 3, between);
    assert.equal((await worker.query('e', 3, { what: 'hover', offset })).held, false);
    assert.equal(worker.holds('e', 3), false);
  });

  it('holds nothing of a document it was told to forget, or of a text that is not a description', async () => {
    await worker.analyze('f', sample, {}, 1);
    worker.forget('f');
    assert.equal((await worker.query('f', 1, { what: 'hover', offset: refAt })).held, false);
    await worker.analyze('g', '{"compilerOptions": {}}', {}, 1);
    assert.equal(worker.holds('g', 1), false);
  });
});
