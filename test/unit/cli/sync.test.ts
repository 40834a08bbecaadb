import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { runCli } from '../../../src/cli/main';
import { FOLDER_MIME } from '../../../src/shared/wire/storage';
import { bufferSource, upload } from '../../../src/storage/core/upload';
import { linkPerTest, localTree, md5, putLocal, storeTree } from '../storage/syncHarness';
import { parseAs } from '../../support/typedJson';

function io(env: NodeJS.ProcessEnv = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => (err += d));
  return {
    io: { stdout, stderr, env, interrupted: new Promise<void>(() => undefined) },
    out: () => out,
    err: () => err,
  };
}

describe('api-workbench sync', function () {
  this.timeout(30_000);
  const k = linkPerTest();
  const env = () => ({ API_WORKBENCH_STORAGE_BASE_URL: k.h.origin, API_WORKBENCH_STORAGE_TOKEN: k.h.token });

  it('misuse exits 2 with the usage line', async () => {
    const cases: [string[], RegExp, NodeJS.ProcessEnv][] = [
      [[k.localDir], /give LOCAL_DIR and STORE_FOLDER/, env()],
      [['--mode', 'both', k.localDir, 'root'], /--mode is two-way, upload or download/, env()],
      [['--max-delete', '150', k.localDir, 'root'], /--max-delete is a percentage/, env()],
      [[k.localDir, 'root'], /no service/, {}],
      [['--base-url', k.h.origin, k.localDir, 'root'], /no access token/, {}],
      [
        ['--base-url', `${k.h.origin}/store/v2`, k.localDir, 'root'],
        /service origin/,
        { API_WORKBENCH_STORAGE_TOKEN: 't' },
      ],
      [['--frob', k.localDir, 'root'], /unknown option --frob/, env()],
      [['--export', 'docs=pdf', k.localDir, 'root'], /--export: "docs" is not a kind of workspace document/, env()],
      [['--export', 'document=paper', k.localDir, 'root'], /--export: "paper" is not an export format/, env()],
    ];
    for (const [args, message, e] of cases) {
      const a = io(e);
      assert.equal(await runCli(['sync', ...args], a.io), 2, args.join(' '));
      assert.match(a.err(), message);
      assert.match(a.err(), /usage: api-workbench sync/);
    }
  });

  it('--json prints one object per action and a last summary line; the environment gives the origin and token', async () => {
    putLocal(k.localDir, 'a.txt', 'A');
    putLocal(k.localDir, 'sub/b.txt', 'B');
    const a = io(env());
    assert.equal(await runCli(['sync', '--json', k.localDir, k.folderId], a.io), 0, a.err());
    const lines = a
      .out()
      .trim()
      .split('\n')
      .map((l) => parseAs<Record<string, unknown>>(l));
    assert.deepEqual(
      lines
        .slice(0, -1)
        .map((l) => `${String(l.action)} ${String(l.path)}`)
        .sort(),
      ['mkdir-store sub', 'upload a.txt', 'upload sub/b.txt'], // transfers run in parallel: any order
    );
    const last = parseAs<{ summary: { counts: Record<string, number>; errors: number; storeRead: string } }>(
      a.out().trim().split('\n').pop()!,
    );
    assert.equal(last.summary.counts.upload, 2);
    assert.equal(last.summary.errors, 0);
    assert.deepEqual(await storeTree(k.client, k.folderId), localTree(k.localDir));
  });

  it('--export syncs the named kinds of workspace documents as their export; without it they are skipped', async () => {
    await upload(k.client, bufferSource(Buffer.from('a,b\n1,2\n')), {
      metadata: { title: 'Budget.csv', parents: [{ id: k.folderId }] },
      contentType: 'text/csv',
      query: { convert: true },
    });
    const plain = io(env());
    assert.equal(await runCli(['sync', '--json', k.localDir, k.folderId], plain.io), 0, plain.err());
    assert.match(plain.out(), /"action":"skip","path":"Budget".*no bytes to sync/);
    assert.deepEqual(localTree(k.localDir), {});
    const a = io(env());
    assert.equal(
      await runCli(['sync', '--json', '--export', 'spreadsheet=csv', k.localDir, k.folderId], a.io),
      0,
      a.err(),
    );
    const line = parseAs<Record<string, unknown>>(a.out().trim().split('\n')[0]);
    assert.deepEqual([line.action, line.path, line.export], ['download', 'Budget.csv', 'text/csv']);
    assert.equal(fs.readFileSync(path.join(k.localDir, 'Budget.csv'), 'utf8'), 'a,b\n1,2\n');
  });

  it('takes a path of titles from My files, and names the first missing title', async () => {
    const top = await k.client.call(
      'files.insert',
      {},
      { title: `cli-${Date.now()}`, mimeType: FOLDER_MIME, parents: [{ id: 'root' }] },
    );
    await k.client.call('files.insert', {}, { title: 'site', mimeType: FOLDER_MIME, parents: [{ id: top.id! }] });
    putLocal(k.localDir, 'index.html', '<p>');
    const ok = io(env());
    assert.equal(await runCli(['sync', k.localDir, `/${top.title}/site`], ok.io), 0, ok.err());
    assert.match(ok.out(), /upload +index\.html/);
    const missing = io(env());
    assert.equal(await runCli(['sync', k.localDir, `/${top.title}/nope/deeper`], missing.io), 1);
    assert.match(missing.err(), /No folder "nope" in \/cli-/);
  });

  it('exits 4 when the max-delete guard stops the run (and for the same plan in a dry run), deleting nothing', async () => {
    for (const n of ['1', '2', '3']) putLocal(k.localDir, `${n}.txt`, n);
    assert.equal(await runCli(['sync', k.localDir, k.folderId], io(env()).io), 0);
    for (const n of ['1', '2']) fs.rmSync(path.join(k.localDir, `${n}.txt`));
    const dry = io(env());
    assert.equal(await runCli(['sync', '--dry-run', k.localDir, k.folderId], dry.io), 4);
    assert.match(dry.out(), /^delete-store +1\.txt$/m);
    assert.match(dry.out(), /^plan \(two-way, .*\): 2 delete-store$/m);
    assert.match(dry.err(), /a run would stop here: it would delete 2 files, more than 50%/);
    const real = io(env());
    assert.equal(await runCli(['sync', k.localDir, k.folderId], real.io), 4);
    assert.match(real.err(), /stopped: the run would delete 2 files, more than 50%.*nothing was changed/);
    // The summary says the plan was not carried out (it once said "done" with the deletions it never made).
    assert.match(real.out(), /^stopped before any change; the plan was \(two-way, .*\): 2 delete-store$/m);
    assert.doesNotMatch(real.out(), /^done/m);
    assert.equal(Object.keys(await storeTree(k.client, k.folderId)).length, 3);
    assert.equal(await runCli(['sync', '--max-delete', '100', k.localDir, k.folderId], io(env()).io), 0);
    assert.deepEqual(await storeTree(k.client, k.folderId), { '3.txt': md5('3') });
  });

  it('says what to do when the local folder is missing or a file, and when the token is refused (never printing it)', async () => {
    putLocal(k.localDir, 'plain.txt', 'x');
    const cases: [string[], NodeJS.ProcessEnv, RegExp][] = [
      [[path.join(k.localDir, 'nope'), k.folderId], env(), /nope: no such folder; create it first/],
      [[path.join(k.localDir, 'plain.txt'), k.folderId], env(), /plain\.txt is a file, not a folder/],
      [
        [k.localDir, k.folderId],
        { ...env(), API_WORKBENCH_STORAGE_TOKEN: 'not-the-token-4471' },
        /refused the access token \(401 .*\): pass a valid one with --access-token or set API_WORKBENCH_STORAGE_TOKEN/,
      ],
    ];
    for (const [args, e, message] of cases) {
      const a = io(e);
      assert.equal(await runCli(['sync', ...args], a.io), 1, args.join(' '));
      assert.match(a.err(), message);
      assert.doesNotMatch(a.err() + a.out(), /not-the-token-4471/);
    }
  });
});
