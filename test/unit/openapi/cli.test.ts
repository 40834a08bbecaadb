import * as assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import type { CliIO } from '../../../src/cli/io';
import { REPO_ROOT } from '../discovery/helpers';

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  const io: CliIO = { stdout, stderr, env: {}, interrupted: new Promise(() => undefined) };
  const code = await runCli(['openapi', ...args], io);
  return { code, stdout: out, stderr: err };
}

describe('api-workbench openapi', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'openapi-cli-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const store = join(REPO_ROOT, 'schemas', 'store.v2.json');

  it('prints the OpenAPI 3.1 document as JSON by default', async () => {
    const r = await run([store]);
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout) as {
      openapi: string;
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.paths['/files'].get.operationId, 'store.files.list');
  });

  it('--version 3.0 writes 3.0.3', async () => {
    const r = await run(['--version', '3.0', store]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as { openapi: string }).openapi, '3.0.3');
  });

  it('exit 1 with a message for a JSON file that is not a discovery document, and for a file that is not JSON', async () => {
    const other = join(dir, 'other.json');
    writeFileSync(other, '{"openapi": "3.1.0"}');
    let r = await run([other]);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /Not a discovery document/);
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"kind": ');
    r = await run([broken]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /not JSON/);
  });

  it('exit 2 on usage errors', async () => {
    assert.equal((await run([])).code, 2);
    assert.equal((await run(['--version', '2.0', store])).code, 2);
    assert.equal((await run([store, store])).code, 2);
  });
});
