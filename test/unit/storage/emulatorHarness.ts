// Starts only the storage emulator on a loopback port (the way the sandbox server mounts it), so
// conformance tests do not depend on the other emulators.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createStorage, type StorageEmulator } from '../../../src/sandbox/storage';
import { parseAs } from '../../support/typedJson';

/** Every `METHOD path` (query dropped) a harness served, for the §4.2 coverage check. */
export const served: { method: string; path: string; status: number }[] = [];

/**
 * A reply body as a test reads it: the wire types mark almost every field optional, while a test
 * reads only fields it expects the emulator to send (a missing one fails the assertion reading it).
 */
export type Present<T> = T extends (infer U)[]
  ? Present<U>[]
  : T extends object
    ? { [K in keyof T]-?: Present<NonNullable<T[K]>> }
    : T;

export interface Reply<T> {
  status: number;
  headers: Headers;
  /** The parsed body in the shape the test expects; `undefined` when the body is empty or not JSON. */
  json: Present<T>;
  text: string;
}

export interface Harness {
  origin: string;
  token: string;
  emulator: StorageEmulator;
  /** fetch against the emulator with the bearer token (unless `auth: false`). */
  call<T = unknown>(
    method: string,
    path: string,
    init?: { body?: unknown; headers?: Record<string, string>; auth?: boolean; raw?: Buffer | string },
  ): Promise<Reply<T>>;
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
    Promise.resolve(emulator.handle(req, res, url)).catch((e: unknown) => {
      res.statusCode = 500;
      res.end(e instanceof Error && e.stack !== undefined ? e.stack : String(e));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    token,
    emulator,
    async call<T>(
      method: string,
      path: string,
      init: { body?: unknown; headers?: Record<string, string>; auth?: boolean; raw?: Buffer | string } = {},
    ): Promise<Reply<T>> {
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
      let json: Present<T> | undefined;
      try {
        json = text ? parseAs<Present<T>>(text) : undefined;
      } catch {
        json = undefined;
      }
      // A test reads `json` only from replies it expects to carry a body; reading one that did not
      // fails that test's assertion, so the type leaves `undefined` out.
      return { status: res.status, headers: res.headers, json: json as Present<T>, text };
    },
    async close() {
      await emulator.close?.();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
