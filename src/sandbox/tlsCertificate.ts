// A self-signed certificate for `api-workbench sandbox --tls`. Official client libraries built from a
// static discovery document keep its `https` scheme for media uploads even when pointed elsewhere, so
// the sandbox can serve TLS. The certificate is made once (with the system's openssl) and kept beside
// the sandbox state, so a user trusts one file once; it names only loopback addresses and localhost.
import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface SandboxCertificate {
  /** PEM certificate: the file a client trusts (its own CA). */
  certFile: string;
  keyFile: string;
  cert: Buffer;
  key: Buffer;
}

/** Names the certificate covers: what a local client puts in its URL. */
const SUBJECT_ALT_NAMES = 'DNS:localhost,IP:127.0.0.1,IP:0:0:0:0:0:0:0:1';
const VALID_DAYS = 825;
/** A certificate this close to expiry is replaced rather than served. */
const RENEW_BEFORE_MS = 7 * 86_400_000;

export class CertificateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CertificateError';
  }
}

function usable(certFile: string, keyFile: string, now: number): SandboxCertificate | undefined {
  try {
    const cert = fs.readFileSync(certFile);
    const key = fs.readFileSync(keyFile);
    const x509 = new X509Certificate(cert);
    if (Date.parse(x509.validTo) - RENEW_BEFORE_MS < now) return undefined;
    if (!x509.checkHost('localhost') || !x509.checkIP('127.0.0.1')) return undefined;
    return { certFile, keyFile, cert, key };
  } catch {
    return undefined;
  }
}

/** The certificate in `dir` (`sandbox-cert.pem`, `sandbox-key.pem`), made first when missing or expiring. */
export function sandboxCertificate(dir: string, now = Date.now()): SandboxCertificate {
  const certFile = path.join(dir, 'sandbox-cert.pem');
  const keyFile = path.join(dir, 'sandbox-key.pem');
  const existing = usable(certFile, keyFile, now);
  if (existing) return existing;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      String(VALID_DAYS),
      '-subj',
      '/CN=API Workbench sandbox',
      '-addext',
      `subjectAltName=${SUBJECT_ALT_NAMES}`,
      '-addext',
      'basicConstraints=critical,CA:FALSE',
      '-addext',
      'extendedKeyUsage=serverAuth',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { encoding: 'utf8' },
  );
  if (made.error || made.status !== 0) {
    const why = made.error ? made.error.message : made.stderr.trim().split('\n').pop();
    throw new CertificateError(
      `could not make a certificate with openssl (${why}); install openssl, or give your own with --tls-cert FILE --tls-key FILE`,
    );
  }
  fs.chmodSync(keyFile, 0o600);
  // openssl dates the new certificate from the real clock.
  const fresh = usable(certFile, keyFile, Date.now());
  if (!fresh) throw new CertificateError(`openssl wrote ${certFile}, but it is not a usable certificate`);
  return fresh;
}

/** A certificate and key the user supplies (e.g. from mkcert); read as they are. */
export function suppliedCertificate(certFile: string, keyFile: string): SandboxCertificate {
  try {
    const cert = fs.readFileSync(certFile);
    const key = fs.readFileSync(keyFile);
    new X509Certificate(cert);
    return { certFile, keyFile, cert, key };
  } catch (e) {
    throw new CertificateError(`cannot use ${certFile} / ${keyFile}: ${(e as Error).message}`);
  }
}
