// The sandbox: one loopback HTTP server that mounts the four emulators under the real
// services' path layouts. Used in-process by the extension, by every test and by `api-workbench sandbox`.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { sendJson } from './http';
import type { Emulator, SandboxContext, SandboxInfo, SandboxOptions } from './types';
import { createStorageEmulator } from './storage';
import { createGenerationEmulator } from './generation';
import { createWaterDataEmulator } from './waterData';
import { createDirectoryEmulator } from './directory';

export interface RunningSandbox extends SandboxInfo {
  readonly server: http.Server;
  /** Only the process that started the sandbox knows it: it signs consent tickets for sign-in. */
  readonly consentSecret: string;
  close(): Promise<void>;
}

export function sandboxInfo(origin: string, apiKey: string, accessToken: string): SandboxInfo {
  return {
    url: origin,
    storage: origin,
    generation: origin,
    waterData: `${origin}/v1/odata/v4`,
    directory: `${origin}/discovery/v1/apis`,
    apiKey,
    accessToken,
  };
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const apiKey = options.apiKey ?? `sandbox-key-${randomBytes(12).toString('hex')}`;
  const accessToken = options.accessToken ?? `sandbox-token-${randomBytes(16).toString('hex')}`;
  const consentSecret = options.consentSecret ?? randomBytes(32).toString('base64url');
  let origin = '';
  const ctx: SandboxContext = { apiKey, accessToken, dataDir: options.dataDir, origin: () => origin, consentSecret };
  const emulators: Emulator[] = [
    createStorageEmulator(ctx),
    createGenerationEmulator(ctx),
    createWaterDataEmulator(ctx),
    createDirectoryEmulator(ctx),
  ];
  // Longest prefix first so '/upload/store/v2' wins over a shorter overlapping prefix.
  const routes = emulators
    .flatMap((e) => e.prefixes.map((p) => ({ prefix: p, emulator: e })))
    .sort((a, b) => b.prefix.length - a.prefix.length);

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin || 'http://127.0.0.1');
    const route = routes.find((r) => url.pathname === r.prefix || url.pathname.startsWith(r.prefix + '/') || url.pathname.startsWith(r.prefix + ':'));
    if (!route) {
      sendJson(res, 404, { error: { code: 404, message: `No sandbox service at ${url.pathname}`, status: 'NOT_FOUND' } });
      return;
    }
    Promise.resolve()
      .then(() => route.emulator.handle(req, res, url))
      .catch((err: unknown) => {
        if (!res.headersSent) {
          sendJson(res, 500, { error: { code: 500, message: `Sandbox ${route.emulator.name} failed: ${(err as Error)?.message ?? err}`, status: 'INTERNAL' } });
        } else {
          res.destroy(err as Error);
        }
      });
  });
  // Streams are long-lived; do not let Node's default timeouts cut them.
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  origin = `http://${host}:${addr.port}`;

  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  return {
    ...sandboxInfo(origin, apiKey, accessToken),
    server,
    consentSecret,
    async close() {
      for (const e of emulators) await e.close?.();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
  };
}
