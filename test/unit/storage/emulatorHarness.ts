// Starts only the storage emulator on a loopback port (the way the sandbox server mounts it), so
// conformance tests do not depend on the other emulators.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createStorage, type StorageEmulator } from '../../../src/sandbox/storage';

/** Every `METHOD path` (query dropped) a harness served, for the §4.2 coverage check. */
export const served: { method: string; path: string; status: number }[] = [];

export interface Harness {
  origin: string;
  token: string;
  emulator: StorageEmulator;
  /** fetch against the emulator with the bearer token (unless `auth: false`). */
  call(
    method: string,
    path: string,
    init?: { body?: unknown; headers?: Record<string, string>; auth?: boolean; raw?: Buffer | string },
  ): Promise<{ status: number; headers: Headers; json: any; text: string }>;
  close(): Promise<void>;
}

export async function startStorage(opts: { dataDir?: string; now?: () => Date } = {}): Promise<Harness> {
  const token = 'test-token-' + Math.random().toString(36).slice(2);
  let origin = '';
  const emulator = createStorage(
    { apiKey: 'k', accessToken: token, origin: () => origin, dataDir: opts.dataDir },
    { now: opts.now },
  );
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    Promise.resolve(emulator.handle(req, res, url)).catch((e) => {
      res.statusCode = 500;
      res.end(String(e?.stack ?? e));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    token,
    emulator,
    async call(method, path, init = {}) {
      const headers: Record<string, string> = { ...(init.headers ?? {}) };
      if (init.auth !== false) headers.authorization = `Bearer ${token}`;
      let body: string | Buffer | undefined;
      if (init.raw !== undefined) body = init.raw;
      else if (init.body !== undefined) {
        body = JSON.stringify(init.body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await fetch(origin + path, { method, headers, body: body as BodyInit | undefined });
      served.push({
        method: headers['x-http-method-override'] ?? method,
        path: new URL(origin + path).pathname,
        status: res.status,
      });
      const text = await res.text();
      let json: any;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      return { status: res.status, headers: res.headers, json, text };
    },
    async close() {
      await emulator.close?.();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
