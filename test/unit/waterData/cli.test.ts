import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { queryCommand } from '../../../src/cli/query';
import type { CliIO } from '../../../src/cli/io';
import { parseAs } from '../../support/typedJson';
import { startWaterEmulator, type TestServer } from './emulatorServer';

function io(env: NodeJS.ProcessEnv = {}) {
  const out = { stdout: '', stderr: '' };
  const sink = (k: 'stdout' | 'stderr') =>
    new Writable({
      write(c, _e, cb) {
        out[k] += String(c);
        cb();
      },
    });
  const value: CliIO = {
    stdout: sink('stdout'),
    stderr: sink('stderr'),
    env,
    interrupted: new Promise(() => undefined),
  };
  return { io: value, out };
}

describe('waterData CLI: api-workbench query', () => {
  let s: TestServer;
  // The emulator enforces the real 2 requests/s rule: these tests also show the CLI never trips it.
  before(async () => {
    s = await startWaterEmulator();
  });
  after(() => s.close());

  it('--dry-run prints the first request URL fully encoded and exits 0', async () => {
    const { io: c, out } = io();
    const code = await queryCommand(
      [
        '--dry-run',
        '--base-url',
        'https://api.datastream.org/v1/odata/v4',
        "/Observations?$filter=CharacteristicName eq 'pH' and RegionId eq 'admin.4.ca.ab'&$top=20",
      ],
      c,
    );
    assert.equal(code, 0);
    assert.equal(
      out.stdout,
      'https://api.datastream.org/v1/odata/v4/Observations?%24filter=CharacteristicName%20eq%20%27pH%27%20and%20RegionId%20eq%20%27admin.4.ca.ab%27&%24top=20\n',
    );
  });

  it('--dry-run prints the validation error with line:column and exits 1', async () => {
    const { io: c, out } = io();
    const code = await queryCommand(['--dry-run', '/Locations?$top=20000'], c);
    assert.equal(code, 1);
    assert.match(out.stdout, /^1:17: error: \$top is at most 10000/);
  });

  it('streams JSON lines, with citations on stderr and no key anywhere in the output', async () => {
    const { io: c, out } = io({ DATASTREAM_API_KEY: s.apiKey });
    const code = await queryCommand(
      ['--base-url', s.baseUrl, '--max-rows', '3', '/Locations?$select=Id,Name&$top=3'],
      c,
    );
    assert.equal(code, 0, out.stderr);
    const lines = out.stdout
      .trimEnd()
      .split('\n')
      .map((l) => parseAs<Record<string, unknown>>(l));
    assert.equal(lines.length, 3);
    assert.deepEqual(Object.keys(lines[0]), ['Id', 'Name']);
    assert.match(out.stderr, /Data sources[\s\S]*https:\/\/doi\.org\/10\./);
    assert.ok(!out.stdout.includes(s.apiKey) && !out.stderr.includes(s.apiKey));
    assert.doesNotMatch(out.stderr, /HTTP 403/, 'never rate limited');
  });

  it('streams CSV with a header; --max-rows caps the rows', async () => {
    const { io: c, out } = io();
    const code = await queryCommand(
      [
        '--base-url',
        s.baseUrl,
        '--api-key',
        s.apiKey,
        '--format',
        'csv',
        '--max-rows',
        '4',
        "/Observations\n$select = Id, CharacteristicName, ResultValue\n$filter = CharacteristicName eq 'Temperature, water'",
      ],
      c,
    );
    assert.equal(code, 0, out.stderr);
    const lines = out.stdout.trimEnd().split('\r\n');
    assert.equal(lines[0], 'Id,CharacteristicName,ResultValue');
    assert.equal(lines.length, 5);
    assert.match(lines[1], /^\d+,"Temperature, water",-?[\d.]+$/);
  });

  it('$count=true prints the count; a bad key exits 1 with advice', async () => {
    const { io: c, out } = io();
    assert.equal(await queryCommand(['--base-url', s.baseUrl, '--api-key', s.apiKey, '/Locations?$count=true'], c), 0);
    assert.match(out.stdout, /^\{"count":\d+,"estimate":false\}\n$/);
    const bad = io();
    assert.equal(await queryCommand(['--base-url', s.baseUrl, '--api-key', 'nope', '/Locations?$top=1'], bad.io), 1);
    assert.match(bad.out.stderr, /rejected the API key/);
  });

  it('$top is the page size: paging follows @odata.nextLink until it is absent', async () => {
    const { io: c, out } = io();
    const code = await queryCommand(
      ['--base-url', s.baseUrl, '--api-key', s.apiKey, '/Metadata?$select=DOI&$top=5'],
      c,
    );
    assert.equal(code, 0, out.stderr);
    const dois = out.stdout
      .trimEnd()
      .split('\n')
      .map((l) => (JSON.parse(l) as { DOI: string }).DOI);
    assert.equal(dois.length, 24, 'every dataset of the sandbox, not just the first page');
    assert.equal(new Set(dois).size, 24);
    assert.match(out.stderr, /24 rows in 5 pages/);
  });

  it("--max-rows caps the rows; the user's $top stays the size of every page asked for", async () => {
    // A recording proxy in front of the emulator shows the URLs actually sent.
    const seen: string[] = [];
    const target = new URL(s.baseUrl);
    const proxy = http.createServer((req, res) => {
      seen.push(req.url ?? '');
      const up = http.request(
        { host: target.hostname, port: target.port, path: req.url, headers: req.headers },
        (r) => {
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res);
        },
      );
      req.pipe(up);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
    const base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}${target.pathname}`;
    const { io: c, out } = io();
    try {
      const code = await queryCommand(
        ['--base-url', base, '--api-key', s.apiKey, '--max-rows', '3', '/Metadata?$select=DOI&$top=5'],
        c,
      );
      assert.equal(code, 0, out.stderr);
    } finally {
      proxy.closeAllConnections();
      await new Promise((r) => proxy.close(r));
    }
    assert.equal(out.stdout.trimEnd().split('\n').length, 3);
    const rowsRequest = seen.find((u) => u.startsWith('/v1/odata/v4/Metadata?') && u.includes('%24select=DOI&'));
    assert.ok(rowsRequest, seen.join('\n'));
    assert.match(rowsRequest, /%24top=5(&|$)/);
  });

  it('usage errors exit 2', async () => {
    assert.equal(await queryCommand(['--format', 'xml', '/Locations'], io().io), 2);
    assert.equal(await queryCommand([], io().io), 2);
  });
});
