import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The water-data front end's limits, as `api-workbench sandbox --water-burst N --water-interval-ms MS` sets
 * them (over the API_WORKBENCH_WATER_* environment variables, which they replace).
 */
export interface WaterFrontEndSettings {
  /** Requests one key may send back to back after a pause (the token bucket's size); 1 is strict. */
  burst?: number;
  /** Sustained spacing of one key's requests in ms (500 = 2 per second); 0 turns the rate rule off. */
  minIntervalMs?: number;
}

/** What every emulator is given when the sandbox starts. */
export interface SandboxContext {
  /** Key accepted by the generation (x-goog-api-key / ?key=) and water-data (x-api-key) emulators. */
  readonly apiKey: string;
  /** Bearer token accepted by the storage emulator. */
  readonly accessToken: string;
  /** Origin of the running server, e.g. http://127.0.0.1:39123 (no trailing slash). */
  origin(): string;
  /** Directory for persistence (`--data DIR`); undefined means in memory. */
  readonly dataDir?: string;
  /** Per-run secret the OAuth consent page requires (see shared/wire/sandboxConsent); none: no consent is ever given. */
  readonly consentSecret?: string;
  /**
   * Directory for file contents (the storage emulator streams uploads there). Default: `<dataDir>/storage/blobs`
   * with a data directory, else a fresh temporary directory removed on close.
   */
  readonly blobDir?: string;
  /** `off` skips every sync to disk: only for the bench that measures what durability costs. Default `fsync`. */
  readonly durability?: 'fsync' | 'off';
  /** The water-data front end's limits given on the command line. */
  readonly water?: WaterFrontEndSettings;
}

/** An emulator mounted on the sandbox server. It answers the requests whose path it owns. */
export interface Emulator {
  readonly name: string;
  /** Path prefixes this emulator owns, e.g. ['/store/v2', '/upload/store/v2']. */
  readonly prefixes: readonly string[];
  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> | void;
  close?(): Promise<void> | void;
}

export type EmulatorFactory = (ctx: SandboxContext) => Emulator;

export interface SandboxOptions {
  port?: number;
  host?: string;
  dataDir?: string;
  /** See SandboxContext.blobDir. */
  blobDir?: string;
  /** See SandboxContext.durability. */
  durability?: 'fsync' | 'off';
  /** Host names (optionally `name:port`) accepted in the Host header besides localhost, 127.0.0.1 and [::1]. */
  allowedHosts?: string[];
  apiKey?: string;
  accessToken?: string;
  /** Secret of the OAuth consent page; random per run when not given. Never printed. */
  consentSecret?: string;
  /** Serve HTTPS with this PEM certificate and key instead of plain HTTP. */
  tls?: { cert: Buffer; key: Buffer };
  /** See SandboxContext.water. */
  water?: WaterFrontEndSettings;
}

/** The JSON line `api-workbench sandbox` prints, and what the extension keeps. */
export interface SandboxInfo {
  url: string;
  storage: string;
  generation: string;
  waterData: string;
  directory: string;
  apiKey: string;
  accessToken: string;
}
