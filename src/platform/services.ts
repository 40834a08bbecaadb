import type * as vscode from 'vscode';
import type { BoundCredential } from '../shared/http/credentialOrigin';

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
  /**
   * Resolves the endpoint, starting the in-process sandbox on first use when the setting is empty.
   * The stored credential comes along only for an origin it is bound to; for any other origin the
   * user is asked first (modal), and a refusal rejects with CredentialNotSentError.
   */
  resolve(service: ServiceId): Promise<ResolvedEndpoint>;
  /** The stored credential for a fixed real endpoint (not from settings), under the same consent rule. */
  credentialFor(service: ServiceId, baseUrl: string): Promise<string | undefined>;
  /** Fires when a base-URL setting or a credential changes. */
  readonly onDidChange: vscode.Event<ServiceId>;
}

export interface WorkbenchServices {
  readonly context: vscode.ExtensionContext;
  readonly endpoints: Endpoints;
  /** Secret storage wrapper: keys are namespaced per service; values never logged; each bound to origins. */
  readonly secrets: {
    get(service: ServiceId): Promise<BoundCredential | undefined>;
    /** Stores `value` bound to the origin of `origin` (any URL of the endpoint it is meant for). */
    set(service: ServiceId, value: string, origin: string): Promise<void>;
    /** Adds an origin the user approved for the stored value ("Always for this origin"). */
    allow(service: ServiceId, origin: string): Promise<void>;
    delete(service: ServiceId): Promise<void>;
  };
  readonly log: vscode.LogOutputChannel;
}

/**
 * What the entry created before the feature's code was loaded (src/platform/lazy): VS Code needs a view's
 * provider, a notebook serializer or a file system provider to exist from activation on, so the entry
 * registers forwarding shells and the feature, once loaded, hands each shell its real implementation.
 */
export interface FeatureShell {
  /** The entry's TreeView for a contributed tree view; `provide` attaches the real provider (and drag and drop). */
  treeView<T>(
    viewId: string,
    provider: vscode.TreeDataProvider<T>,
    dnd?: vscode.TreeDragAndDropController<T>,
  ): vscode.TreeView<T>;
  webviewView(viewId: string, provider: vscode.WebviewViewProvider): void;
  /** Restores editor-area panels of `viewType` (declared with an `onWebviewPanel:` activation event). */
  webviewPanelSerializer(viewType: string, serializer: vscode.WebviewPanelSerializer): void;
  /** Read-only virtual documents of `scheme` (a restored window reopens them before the feature is loaded). */
  textDocumentContent(scheme: string, provider: vscode.TextDocumentContentProvider): void;
  notebookSerializer(notebookType: string, serializer: vscode.NotebookSerializer): void;
  fileSystem(scheme: string, provider: vscode.FileSystemProvider): void;
  authenticationProvider(id: string, provider: vscode.AuthenticationProvider): void;
}

/** Each feature exports one of these from `src/<feature>/vscode/register.ts` (its chunk's entry point). */
export type FeatureRegistration = (services: WorkbenchServices, shell: FeatureShell) => vscode.Disposable[];
