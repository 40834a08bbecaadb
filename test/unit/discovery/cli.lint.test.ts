import * as assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lintCommand, type LintRecord } from '../../../src/cli/lint';
import type { CliIO } from '../../../src/cli/io';
import { minimalDocument, realDocumentFiles } from './helpers';

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c) => {
    out += c;
  });
  stderr.on('data', (c) => {
    err += c;
  });
  const io: CliIO = { stdout, stderr, env: {}, interrupted: new Promise(() => undefined) };
  const code = await lintCommand(args, io);
  return { code, stdout: out, stderr: err };
}

describe('api-workbench lint', function () {
  this.timeout(30000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'lint-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('finds no errors in any shared real document (json output, exit 0)', async () => {
    const files = realDocumentFiles();
    const r = await run(['--format', 'json', ...files]);
    const records = JSON.parse(r.stdout) as LintRecord[];
    assert.deepEqual(
      records.filter((x) => x.severity === 'error'),
      [],
    );
    assert.equal(r.code, 0);
  });

  it('reports seeded defects with codes, 1-based lines and exit 1', async () => {
    const doc = minimalDocument();
    doc.resources.items.methods.get.response = { $ref: 'Nothing' };
    doc.resources.items.methods.get.parameterOrder = ['name', 'ghost'];
    const text = JSON.stringify(doc, null, 2);
    const file = join(dir, 'seeded.json');
    writeFileSync(file, text);
    const r = await run(['--format=json', file]);
    assert.equal(r.code, 1);
    const records = JSON.parse(r.stdout) as LintRecord[];
    const lines = text.split('\n');
    const byCode = new Map(records.map((x) => [x.code, x]));
    const ref = byCode.get('ref-unresolved')!;
    assert.ok(lines[ref.line - 1].includes('"Nothing"'));
    assert.equal(lines[ref.line - 1].indexOf('"Nothing"') + 1, ref.column);
    assert.equal(ref.endLine, ref.line);
    assert.equal(ref.endColumn - ref.column, '"Nothing"'.length);
    assert.ok(lines[byCode.get('parameter-order-unknown')!.line - 1].includes('"ghost"'));
    assert.equal(byCode.get('parameter-order-unknown')!.file, file);

    const t = await run([file]);
    assert.match(
      t.stdout,
      new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+ error ref-unresolved `, 'm'),
    );
    assert.match(t.stderr, /2 error\(s\)/);
  });

  it('applies a --rules file and exits 0 when only warnings remain', async () => {
    const doc = minimalDocument();
    doc.resources.items.methods.get.response = { $ref: 'Nothing' };
    const file = join(dir, 'ruled.json');
    writeFileSync(file, JSON.stringify(doc, null, 2));
    const rules = join(dir, 'settings.json');
    writeFileSync(rules, JSON.stringify({ 'apiWorkbench.discovery.rules': { 'ref-unresolved': 'warning' } }));
    const r = await run(['--rules', rules, file]);
    assert.equal(r.code, 0);
    assert.match(r.stdout, / warning ref-unresolved /);
    writeFileSync(rules, JSON.stringify({ 'no-such-rule': 'off' }));
    assert.equal((await run(['--rules', rules, file])).code, 2);
  });

  it('exits 2 on usage errors', async () => {
    assert.equal((await run([])).code, 2);
    assert.equal((await run(['--format', 'xml', 'x.json'])).code, 2);
    const bad = await run(['--bogus', 'x.json']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /usage: api-workbench lint/);
  });

  it('exits 1 with a message for missing, non-discovery, binary and broken files', async () => {
    const missing = await run([join(dir, 'nope.json')]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /cannot read .*nope\.json: ENOENT/);

    const other = join(dir, 'tsconfig.json');
    writeFileSync(other, '{"compilerOptions": {}}');
    const o = await run(['--format', 'json', other]);
    assert.equal(o.code, 1);
    assert.equal((JSON.parse(o.stdout) as LintRecord[])[0].code, 'not-a-discovery-document');

    const bin = join(dir, 'blob.json');
    writeFileSync(bin, Buffer.from(Array.from({ length: 2048 }, (_, i) => (i * 31) % 256)));
    assert.equal((await run([bin])).code, 1);

    const truncated = join(dir, 'truncated.json');
    writeFileSync(truncated, '{"kind": "discovery#restDescription", "schemas": {"A": ');
    const t = await run(['--format', 'json', truncated]);
    assert.equal(t.code, 1);
    assert.ok((JSON.parse(t.stdout) as LintRecord[]).some((x) => x.code === 'json-syntax'));
  });

  it('fails a 50 MB document it did not check with exit 3 and says so', async () => {
    const big = join(dir, 'big.json');
    writeFileSync(big, '{"kind": "discovery#restDescription", "description": "' + 'x'.repeat(50 * 1024 * 1024) + '"}');
    const r = await run(['--format', 'json', big]);
    assert.deepEqual(
      (JSON.parse(r.stdout) as LintRecord[]).map((x) => x.code),
      ['document-too-large'],
    );
    assert.equal(r.code, 3);
    assert.match(r.stderr, /big\.json was not checked: .*over the 24 MB analysis limit/);
  });

  it('fails a document nested deeper than the limit with exit 3, even beside clean files', async () => {
    const deep = join(dir, 'deep.json');
    writeFileSync(deep, '{"kind": "discovery#restDescription", "x": ' + '['.repeat(300) + ']'.repeat(300) + '}');
    const clean = join(dir, 'clean.json');
    writeFileSync(clean, JSON.stringify(minimalDocument()));
    const r = await run([clean, deep]);
    assert.equal(r.code, 3);
    assert.match(r.stderr, /deep\.json was not checked: /);
    assert.match(r.stderr, /1 file\(s\) not checked/);
  });
});
