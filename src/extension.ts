import * as vscode from 'vscode';
import { SandboxHost, type SandboxModule } from './platform/sandboxHost';
import { createSecrets } from './platform/secrets';
import { redactingLog } from './platform/log';
import { EndpointResolver } from './platform/endpoints';
import { createEndpointStatus } from './platform/statusBar';
import { registerPlatformCommands } from './platform/commands';
import { registerWelcome } from './platform/welcome';
import { registerRequestLog } from './platform/requestLog/register';
import type { WorkbenchServices } from './platform/services';
import { loadChunk, SANDBOX_CHUNK, type Feature } from './platform/lazy/chunks';
import { watchDocuments } from './platform/lazy/detectors';
import { LazyFeatures, type ShellLayout } from './platform/lazy/features';

/**
 * Everything VS Code must find registered from activation on, and which feature fills it. The ids are
 * the contributed ones (package.json); the storage tree's mime types are those of its drag and drop.
 */
const LAYOUT: ShellLayout = {
  trees: [
    { viewId: 'apiWorkbench.directory', feature: 'discovery', options: { showCollapseAll: false } },
    { viewId: 'apiWorkbench.diffReport', feature: 'discovery', options: { showCollapseAll: true } },
    {
      viewId: 'apiWorkbench.storage',
      feature: 'storage',
      options: {
        showCollapseAll: true,
        canSelectMany: true,
        dragMimeTypes: ['application/vnd.code.tree.apiworkbench.storage'],
        dropMimeTypes: ['application/vnd.code.tree.apiworkbench.storage', 'text/uri-list'],
      },
    },
    { viewId: 'apiWorkbench.storage.sync', feature: 'storage', options: { showCollapseAll: false } },
    {
      viewId: 'apiWorkbench.storage.syncPlan',
      feature: 'storage',
      options: { showCollapseAll: false, manageCheckboxStateManually: true },
    },
  ],
  webviewViews: [
    { viewId: 'apiWorkbench.generation', feature: 'generation', options: { retainContextWhenHidden: true } },
  ],
  // The chat in the editor area, restored with the window (activation event onWebviewPanel:…).
  webviewPanels: [
    { viewType: 'apiWorkbench.generation.chat', feature: 'generation' },
    { viewType: 'apiWorkbench.discoveryPreview', feature: 'discovery' },
    // The evaluation results grid: reopened from its run's file.
    { viewType: 'apiWorkbench.generation.evalGrid', feature: 'generation' },
  ],
  contentProviders: [
    { scheme: 'apiworkbench-directory', feature: 'discovery' },
    { scheme: 'store-revision', feature: 'storage' },
    { scheme: 'store-details', feature: 'storage' },
  ],
  notebooks: [
    { notebookType: 'apiWorkbench.waterNotebook', feature: 'waterData', options: { transientOutputs: false } },
  ],
  fileSystems: [{ scheme: 'store', feature: 'storage', options: { isCaseSensitive: true } }],
  authentication: [
    {
      id: 'api-workbench-storage',
      label: 'API Workbench Storage',
      feature: 'storage',
      secretKey: 'apiWorkbench.storage.oauthSession',
      options: { supportsMultipleAccounts: false },
    },
  ],
};

interface ContributedCommand {
  command: string;
}

export function activate(context: vscode.ExtensionContext): WorkbenchServices | undefined {
  const log = redactingLog(vscode.window.createOutputChannel('API Workbench', { log: true }));
  const sandbox = SandboxHost.forContext(context, log, () =>
    loadChunk<SandboxModule>(context.extensionPath, SANDBOX_CHUNK),
  );
  const secrets = createSecrets(context.secrets);
  const endpoints = new EndpointResolver(sandbox, secrets, context.secrets);
  const services: WorkbenchServices = { context, endpoints, secrets, log };

  const contributed = (context.extension.packageJSON as { contributes?: { commands?: ContributedCommand[] } })
    .contributes?.commands;
  const features = new LazyFeatures(
    services,
    LAYOUT,
    (contributed ?? []).map((c) => c.command),
  );
  const load = (feature: Feature) => {
    try {
      features.ensure(feature);
    } catch {
      // Logged by ensure; the document stays open without the feature's checks.
    }
  };

  context.subscriptions.push(
    log,
    sandbox,
    endpoints,
    createEndpointStatus(endpoints, sandbox),
    ...registerPlatformCommands(services, sandbox),
    features,
    watchDocuments(load, (f) => features.isLoaded(f)),
    ...registerRequestLog(services),
    ...registerWelcome(context, log),
  );
  // A workspace with folder sync links loads storage once activation is over: an unfinished run resumes
  // and the links' watchers start. Reading the setting is all activation pays; without links nothing loads.
  const linked = () =>
    (vscode.workspace.workspaceFolders ?? []).some((f) => {
      const links = vscode.workspace.getConfiguration('apiWorkbench.storage', f.uri).get<unknown[]>('syncLinks');
      return Array.isArray(links) && links.length > 0;
    });
  if (linked()) setTimeout(() => load('storage'), 0);
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('apiWorkbench.storage.syncLinks') && linked()) load('storage');
    }),
  );
  // Any extension can read what activate returns: only the extension under test hands out its services
  // (host tests use them); an installed extension exports nothing, so no other extension reaches a secret.
  return __TEST_SEAMS__ && context.extensionMode === vscode.ExtensionMode.Test ? services : undefined;
}

export function deactivate(): void {
  // Everything, the sandbox included, is disposed through context.subscriptions.
}
