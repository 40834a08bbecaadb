import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AnalysisWorker, StaleResult } from '../../../src/discovery/core';
import { REPO_ROOT } from './helpers';

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
