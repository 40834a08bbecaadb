// `api-workbench diff` in-process: exit codes, the documented JSON shape, text lines, files and URLs.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { diffCommand } from '../../../src/cli/diff';
import type { CliIO } from '../../../src/cli/io';
import { runCli } from '../../../src/cli/main';
import { baseDocument, type Doc } from '../discovery/diff/fixture';

async function run(args: string[], viaMain = false): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c) => (out += String(c)));
  stderr.on('data', (c) => (err += String(c)));
  const io: CliIO = { stdout, stderr, env: {}, interrupted: new Promise(() => undefined) };
  const code = viaMain ? await runCli(['diff', ...args], io) : await diffCommand(args, io);
  return { code, stdout: out, stderr: err };
}

describe('api-workbench diff', function () {
  this.timeout(30000);
  let dir: string;
  const write = (name: string, doc: unknown, indent = 2) => {
    const file = join(dir, name);
    writeFileSync(file, typeof doc === 'string' ? doc : JSON.stringify(doc, null, indent));
    return file;
  };
  const seeded = (seed: (d: Doc) => void) => {
    const d = baseDocument();
    seed(d);
    return d;
  };
  before(() => (dir = mkdtempSync(join(tmpdir(), 'diff-cli-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 1 on a breaking change and prints the documented JSON shape', async () => {
    const oldFile = write('old.json', baseDocument());
    const newFile = write(
      'new.json',
      seeded((d) => {
        delete (d.resources.items.methods as Partial<Doc['resources']['items']['methods']>).create;
        d.revision = '20260301';
      }),
    );
    const r = await run(['--format', 'json', oldFile, newFile], true);
    assert.equal(r.code, 1, r.stderr);
    const out = JSON.parse(r.stdout) as unknown;
    assert.deepEqual(Object.keys(out as object), ['changes']);
    const changes = (out as { changes: Record<string, unknown>[] }).changes;
    assert.equal(changes.length, 2);
    for (const c of changes) assert.deepEqual(Object.keys(c), ['code', 'severity', 'message', 'old', 'new']);
    assert.deepEqual(changes[0], {
      code: 'method-removed',
      severity: 'breaking',
      message: 'Method demo.items.create was removed.',
      old: { pointer: '/resources/items/methods/create', line: lineOf(oldFile, '"create"') },
      new: null,
    });
    assert.equal(changes[1].code, 'revision-changed');
    assert.deepEqual(changes[1].new, { pointer: '/revision', line: 7 });
  });

  it('exits 0 when only non-breaking things changed, with one text line per change', async () => {
    const oldFile = write('old.json', baseDocument());
    const newFile = write(
      'new.json',
      seeded((d) => d.schemas.Status.properties.state.enum.push('ARCHIVED')),
    );
    const r = await run([oldFile, newFile]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^warning +response-enum-value-added: Enum value "ARCHIVED" of Status\.state was added\. \[- → .*new\.json:\d+\]\n$/,
    );
    assert.match(r.stderr, /0 breaking, 1 warning\(s\), 0 info/);
  });

  it('exits 0 (not 1, the breaking-change code) on self-referential schemas and reference cycles', async () => {
    const selfRef = seeded((d) => {
      Object.assign(d.schemas, { A: { id: 'A', $ref: 'A' }, X: { id: 'X', $ref: 'Y' }, Y: { id: 'Y', $ref: 'X' } });
      Object.assign(d.resources.items.methods.get, { response: { $ref: 'A' } });
      Object.assign(d.resources.items.methods.insert, { response: { $ref: 'X' } });
    });
    const inline = structuredClone(selfRef);
    Object.assign(inline.resources.items.methods.get, { response: { type: 'object' } });
    Object.assign(inline.resources.items.methods.insert, { response: { type: 'string' } });
    const a = write('self.json', selfRef);
    const b = write('inline.json', inline);
    for (const [o, n] of [
      [a, b],
      [b, a],
      [a, a],
    ]) {
      const r = await run([o, n], true);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /^(0 breaking|No changes)/m);
    }
  });

  it('exits 0 and reports nothing for a re-indented copy', async () => {
    const r = await run(['--format=json', write('a.json', baseDocument()), write('b.json', baseDocument(), 4)]);
    assert.equal(r.code, 0);
    assert.deepEqual(JSON.parse(r.stdout), { changes: [] });
  });

  it('exits 2 on usage errors and on inputs it cannot compare', async () => {
    const good = write('good.json', baseDocument());
    for (const args of [[], [good], [good, good, good], ['--format', 'xml', good, good], ['--bogus', good, good]]) {
      const r = await run(args);
      assert.equal(r.code, 2, JSON.stringify(args));
      assert.match(r.stderr, /usage: api-workbench diff/);
    }
    const notDiscovery = write('plain.json', { kind: 'something#else' });
    const missing = join(dir, 'missing.json');
    for (const [args, why] of [
      [[good, notDiscovery], /new document is not a discovery document/],
      [[missing, good], /cannot read .*missing\.json: ENOENT/],
      [
        [good, write('broken.json', '{"kind": "discovery#restDescription", ')],
        /new document was not compared: Invalid JSON: .* \(line 1\)/,
      ],
    ] as const) {
      const r = await run([...args]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, why);
      assert.equal(r.stdout, '');
    }
  });

  it('reads URLs through the shared HTTP layer (a minified answer is numbered as pretty-printed)', async () => {
    const body = JSON.stringify(seeded((d) => (d.rootUrl = 'https://elsewhere.example.com/')));
    const server = http.createServer((req, res) => {
      if (req.url === '/rest') res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      else res.writeHead(404).end('{"error":{"message":"no such document"}}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const r = await run(['--format', 'json', write('old.json', baseDocument()), `${base}/rest`]);
      assert.equal(r.code, 1, r.stderr);
      const { changes } = JSON.parse(r.stdout) as { changes: { code: string; new: { line: number } }[] };
      assert.deepEqual(
        changes.map((c) => c.code),
        ['root-url-changed'],
      );
      assert.equal(changes[0].new.line, 11);
      const missing = await run([write('old.json', baseDocument()), `${base}/gone`]);
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /answered 404: no such document/);
    } finally {
      server.close();
    }
  });
});

function lineOf(file: string, marker: string): number {
  const text = readFileSync(file, 'utf8');
  return text.slice(0, text.indexOf(marker)).split('\n').length;
}
