import type * as vscode from 'vscode';

/** The services every feature adapter is handed by `extension.ts`. */
export type ServiceId = 'storage' | 'generation' | 'waterData' | 'directory';

export interface ResolvedEndpoint {
  /**
   * Base URL the spec's paths are relative to: for storage and generation the origin
   * (paths start with /store/v2, /v1beta); for waterData it ends in /v1/odata/v4; for
   * directory it is the full discovery.apis.list URL.
   */
  baseUrl: string;
  /** API key (generation, waterData) or bearer access token (storage); undefined when none is set. */
  credential: string | undefined;
  /** True when this is the embedded sandbox. */
  sandbox: boolean;
  /** Embedded sandbox only: the per-run secret its OAuth consent page requires (never shown or logged). */
  consentSecret?: string;
}

export interface Endpoints {
  /** Resolves the endpoint, starting the in-process sandbox on first use when the setting is empty. */
  resolve(service: ServiceId): Promise<ResolvedEndpoint>;
  /** Fires when a base-URL setting or a credential changes. */
  readonly onDidChange: vscode.Event<ServiceId>;
}

export interface WorkbenchServices {
  readonly context: vscode.ExtensionContext;
  readonly endpoints: Endpoints;
  /** Secret storage wrapper: keys are namespaced per service; values never logged. */
  readonly secrets: {
    get(service: ServiceId): Promise<string | undefined>;
    set(service: ServiceId, value: string): Promise<void>;
    delete(service: ServiceId): Promise<void>;
  };
  readonly log: vscode.LogOutputChannel;
}

/** Each feature exports one of these from `src/<feature>/vscode/register.ts`. */
export type FeatureRegistration = (services: WorkbenchServices) => vscode.Disposable[];
