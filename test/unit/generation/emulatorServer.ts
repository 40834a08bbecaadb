// Mounts only the generation emulator on a loopback port, so these tests do not depend on the
// other emulators being present; routing mirrors src/sandbox/server.ts.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGenerationEmulator } from '../../../src/sandbox/generation';
import type { SandboxContext } from '../../../src/sandbox/types';

export interface TestServer {
  origin: string;
  apiKey: string;
  close(): Promise<void>;
}

export async function startGenerationEmulator(apiKey = 'test-key-123'): Promise<TestServer> {
  let origin = '';
  const ctx: SandboxContext = { apiKey, accessToken: 'unused', origin: () => origin };
  const emulator = createGenerationEmulator(ctx);
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    Promise.resolve(emulator.handle(req, res, url)).catch((err) => {
      if (!res.headersSent) {
        res.writeHead(500);
        res.end(String(err));
      } else res.destroy();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    apiKey,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        for (const s of sockets) s.destroy();
      }),
  };
}
