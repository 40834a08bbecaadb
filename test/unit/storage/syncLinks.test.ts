import * as assert from 'node:assert/strict';
import { overallStatus, parseLinks, type LinkStatus } from '../../../src/storage/core/sync/links';

const idle: LinkStatus = { phase: 'idle', done: 0, total: 0, conflicts: 0, errors: 0 };

describe('storage sync links (the workspace setting) and the status over them', () => {
  it('reads links from the setting, reporting entries that are not links by index', () => {
    const { links, problems } = parseLinks([
      { local: 'site/', storeFolderId: 'F1', storeName: '/Projects/site' },
      { local: '../outside', storeFolderId: 'F2' },
      { local: 'docs', storeFolderId: 'F3', mode: 'upload', exclude: ['big', 3] },
      { local: 'x', storeFolderId: 'F4', mode: 'sideways' },
      'nonsense',
    ]);
    assert.deepEqual(links, [
      { local: 'site', storeFolderId: 'F1', storeName: '/Projects/site', mode: 'two-way' },
      { local: 'docs', storeFolderId: 'F3', storeName: 'F3', mode: 'upload', exclude: ['big'] },
    ]);
    assert.equal(problems.length, 3);
    assert.match(problems[0], /syncLinks\[1\].*inside the workspace folder/);
    assert.match(problems[1], /syncLinks\[3\].*mode/);
    assert.match(problems[2], /syncLinks\[4\]/);
    assert.deepEqual(parseLinks(undefined), { links: [], problems: [] });
    assert.deepEqual(parseLinks({}).problems, ['syncLinks is not a list']);
  });

  it('the status bar names the most pressing state: syncing n of m, error, conflicts, plan, paused, in sync', () => {
    assert.equal(overallStatus([]), undefined);
    assert.equal(overallStatus([idle])?.kind, 'ok');
    assert.equal(overallStatus([{ ...idle, phase: 'paused' }])?.kind, 'paused');
    assert.equal(overallStatus([{ ...idle, phase: 'paused' }, idle])?.kind, 'ok');
    assert.equal(overallStatus([{ ...idle, phase: 'plan' }, idle])?.kind, 'plan');
    assert.equal(
      overallStatus([
        { ...idle, phase: 'plan' },
        { ...idle, phase: 'stopped' },
      ])?.kind,
      'stopped',
    );
    assert.equal(
      overallStatus([
        { ...idle, conflicts: 1 },
        { ...idle, phase: 'stopped' },
      ])?.kind,
      'conflicts',
    );
    assert.deepEqual(
      overallStatus([
        { ...idle, conflicts: 2 },
        { ...idle, conflicts: 1, phase: 'plan' },
      ]),
      { kind: 'conflicts', links: 2, done: 0, total: 0, conflicts: 3, failedLinks: 0, errors: 0 },
    );
    assert.equal(
      overallStatus([
        { ...idle, conflicts: 2 },
        { ...idle, phase: 'error' },
      ])?.kind,
      'error',
    );
    const running = overallStatus([
      { ...idle, phase: 'error' },
      { ...idle, phase: 'running', done: 3, total: 10 },
      { ...idle, phase: 'running', done: 9, total: 5 },
    ]);
    assert.equal(running?.kind, 'running');
    assert.equal(running?.total, 15);
    assert.equal(running?.done, 12);
  });
});
