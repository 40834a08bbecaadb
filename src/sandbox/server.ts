// The sandbox: one loopback HTTP server that mounts the four emulators under the real
// services' path layouts. Used in-process by the extension, by every test and by `api-workbench sandbox`.
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo, Server as NetServer, Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { BodyTooLargeError, sendJson, sendTooLarge } from './http';
import type { Emulator, SandboxContext, SandboxInfo, SandboxOptions } from './types';
import { createStorageEmulator } from './storage';
import { lockFolder } from './folderLock';
import { createGenerationEmulator } from './generation';
import { createWaterDataEmulator } from './waterData';
import { createDirectoryEmulator } from './directory';

/** How long an idle keep-alive connection stays open (real front ends: minutes). */
const KEEP_ALIVE_MS = 5 * 60_000;
/** How long close() lets requests in flight finish before cutting their connections. */
const CLOSE_GRACE_MS = 250;

/** The Google error shape every emulator's clients understand (v1 `errors[]` plus the v2 `status`). */
function googleError(code: number, message: string, status: string, reason: string): unknown {
  return { error: { code, message, status, errors: [{ domain: 'global', reason, message }] } };
}

/** Host headers the sandbox answers: loopback names and the bind address on its port, plus configured names. */
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

function expectedHosts(port: number, extra: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const name of ['localhost', '127.0.0.1', '[::1]', ...extra]) {
    const lower = name.toLowerCase();
    if (lower === '0.0.0.0' || lower === '[::]') continue;
    // A name given with its own port is taken as is; a bare name is expected on the sandbox's port.
    out.add(/^(\[[^\]]*\]|[^:]+):\d+$/.test(lower) ? lower : `${lower}:${port}`);
  }
  return out;
}

/**
 * Why a request's Host header is refused, or undefined. A browser page on another origin can resolve its
 * own name to 127.0.0.1 (DNS rebinding); its requests then carry that name, never one of ours.
 */
function hostRefusal(host: string | undefined, allowed: ReadonlySet<string>): string | undefined {
  if (allowed.size === 0) return undefined;
  if (host !== undefined && allowed.has(host.toLowerCase())) return undefined;
  // A loopback name on any port is a proxy on this machine (code-server's or a remote window's port
  // forwarding keeps its own Host); a rebinding page can never send one of these names.
  if (host !== undefined && LOOPBACK_NAMES.has(host.toLowerCase().replace(/:\d+$/, ''))) return undefined;
  return `Unexpected Host header ${JSON.stringify(host ?? '')}: the sandbox answers only ${[...allowed].join(', ')}. Start it with --allow-host NAME to accept another name.`;
}

export interface RunningSandbox extends SandboxInfo {
  readonly server: http.Server | https.Server;
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
  let allowedHosts = new Set<string>();
  const ctx: SandboxContext = {
    apiKey,
    accessToken,
    dataDir: options.dataDir,
    blobDir: options.blobDir,
    durability: options.durability,
    water: options.water,
    origin: () => origin,
    consentSecret,
  };
  // One process per data folder: a second one is refused here before it reads or writes anything.
  const lock = options.dataDir ? await lockFolder(options.dataDir) : undefined;
  let emulators: Emulator[];
  try {
    emulators = [
      createStorageEmulator(ctx),
      createGenerationEmulator(ctx),
      createWaterDataEmulator(ctx),
      createDirectoryEmulator(ctx),
    ];
  } catch (e) {
    await lock?.release();
    throw e;
  }
  // Longest prefix first so '/upload/store/v2' wins over a shorter overlapping prefix.
  const routes = emulators
    .flatMap((e) => e.prefixes.map((p) => ({ prefix: p, emulator: e })))
    .sort((a, b) => b.prefix.length - a.prefix.length);

  const handler: http.RequestListener = (req, res) => {
    const refusal = hostRefusal(req.headers.host, allowedHosts);
    if (refusal) {
      sendJson(res, 421, googleError(421, refusal, 'FAILED_PRECONDITION', 'misdirectedRequest'), {
        connection: 'close',
      });
      return;
    }
    let url: URL;
    try {
      url = new URL(req.url ?? '/', origin || 'http://127.0.0.1');
    } catch {
      sendJson(
        res,
        400,
        googleError(400, 'The request target is not a valid URL path.', 'INVALID_ARGUMENT', 'badRequest'),
        { connection: 'close' },
      );
      return;
    }
    const route = routes.find(
      (r) =>
        url.pathname === r.prefix || url.pathname.startsWith(r.prefix + '/') || url.pathname.startsWith(r.prefix + ':'),
    );
    if (!route) {
      sendJson(res, 404, {
        error: { code: 404, message: `No sandbox service at ${url.pathname}`, status: 'NOT_FOUND' },
      });
      return;
    }
    Promise.resolve()
      .then(() => route.emulator.handle(req, res, url))
      .catch((err: unknown) => {
        if (err instanceof BodyTooLargeError && !res.headersSent) {
          sendTooLarge(req, res, googleError(413, err.message, 'INVALID_ARGUMENT', 'uploadTooLarge'));
        } else if (!res.headersSent) {
          sendJson(
            res,
            500,
            googleError(
              500,
              `Sandbox ${route.emulator.name} failed: ${(err as Error)?.message ?? String(err)}`,
              'INTERNAL',
              'internalError',
            ),
          );
        } else {
          res.destroy(err as Error);
        }
      });
  };
  // With a certificate the same handler answers over TLS (`--tls`): clients built from a static discovery
  // document keep its https scheme for uploads even when pointed at the sandbox.
  const server = options.tls
    ? https.createServer({ cert: options.tls.cert, key: options.tls.key }, handler)
    : http.createServer(handler);
  // Streams are long-lived; do not let Node's default timeouts cut them. Idle keep-alive connections stay
  // open for minutes, like a real front end's: clients such as httplib2 reuse a pooled connection without
  // checking it, and a 5 s server-side close turns their next POST into a broken pipe.
  server.requestTimeout = 0;
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  // Must exceed keepAliveTimeout, or Node may cut a reused connection while the next request's headers arrive.
  server.headersTimeout = KEEP_ALIVE_MS + 5_000;

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
    });
  } catch (e) {
    for (const em of emulators) await em.close?.();
    await lock?.release();
    throw e;
  }
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  origin = `${options.tls ? 'https' : 'http'}://${host}:${addr.port}`;
  allowedHosts = expectedHosts(addr.port, [host, ...(options.allowedHosts ?? [])]);

  const sockets = new Set<Socket>();
  // The raw TCP connections, TLS or not (an https server is a net.Server underneath).
  const listener: NetServer = server;
  listener.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  return {
    ...sandboxInfo(origin, apiKey, accessToken),
    server,
    consentSecret,
    async close() {
      // Stop accepting, let idle keep-alive connections go at once, give requests in flight a moment to
      // finish, then cut what is left (long streams) so close() never waits minutes.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const grace = setTimeout(() => {
        for (const s of sockets) s.destroy();
      }, CLOSE_GRACE_MS);
      for (const e of emulators) await e.close?.();
      for (const s of sockets) s.destroy();
      await closed;
      clearTimeout(grace);
      await lock?.release();
    },
  };
}
