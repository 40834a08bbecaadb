// `api-workbench sandbox --tls`: the certificate is made once beside the state and reused, names the
// loopback addresses, and a client trusting it (and nothing else) reaches the sandbox over HTTPS.
import * as assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import * as fs from 'node:fs';
import * as https from 'node:https';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { runCli } from '../../../src/cli/main';
import { startSandbox } from '../../../src/sandbox/server';
import { sandboxCertificate } from '../../../src/sandbox/tlsCertificate';

function get(url: string, ca: Buffer | undefined, token: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = https.get(url, { ca, headers: { authorization: `Bearer ${token}` } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
}

describe('sandbox --tls', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-cert-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('makes a certificate for localhost and the loopback addresses once, then reuses it', () => {
    const first = sandboxCertificate(dir);
    const x509 = new X509Certificate(first.cert);
    assert.ok(x509.checkHost('localhost'));
    assert.ok(x509.checkIP('127.0.0.1'));
    assert.ok(x509.checkIP('::1'));
    assert.equal(x509.checkHost('example.com'), undefined);
    assert.equal(fs.statSync(first.keyFile).mode & 0o077, 0, 'the key is readable by its owner only');
    const second = sandboxCertificate(dir);
    assert.deepEqual(second.cert, first.cert, 'a user trusts the file once');
  });

  it('replaces a certificate that is about to expire', () => {
    const first = sandboxCertificate(dir);
    const later = Date.parse(new X509Certificate(first.cert).validTo) - 86_400_000;
    assert.notDeepEqual(sandboxCertificate(dir, later).cert, first.cert);
  });

  it('serves HTTPS that a client trusting only that certificate reaches; an untrusting client is refused', async () => {
    const cert = sandboxCertificate(dir);
    const sb = await startSandbox({ tls: { cert: cert.cert, key: cert.key } });
    try {
      assert.match(sb.url, /^https:\/\//);
      const about = await get(`${sb.url}/drive/v2/about?fields=kind`, cert.cert, sb.accessToken);
      assert.equal(about.status, 200);
      assert.deepEqual(JSON.parse(about.body), { kind: 'drive#about' });
      await assert.rejects(get(`${sb.url}/drive/v2/about`, undefined, sb.accessToken), /self[- ]signed/i);
    } finally {
      await sb.close();
    }
  });

  it('--tls-cert without --tls-key is a usage error', async () => {
    const stderr = new PassThrough();
    let err = '';
    stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await runCli(['sandbox', '--tls-cert', path.join(dir, 'c.pem')], {
      stdout: new PassThrough(),
      stderr,
      env: {},
      interrupted: new Promise<void>(() => undefined),
    });
    assert.equal(code, 2);
    assert.match(err, /--tls-cert and --tls-key go together/);
  });
});
