import * as vscode from 'vscode';
import { SandboxHost } from './platform/sandboxHost';
import { createSecrets } from './platform/secrets';
import { redactingLog } from './platform/log';
import { EndpointResolver } from './platform/endpoints';
import { createEndpointStatus } from './platform/statusBar';
import { registerPlatformCommands } from './platform/commands';
import { registerRequestLog } from './platform/requestLog/register';
import type { WorkbenchServices } from './platform/services';
import { register as registerDiscovery } from './discovery/vscode/register';
import { register as registerStorage } from './storage/vscode/register';
import { register as registerGeneration } from './generation/vscode/register';
import { register as registerWaterData } from './waterData/vscode/register';

export function activate(context: vscode.ExtensionContext): WorkbenchServices | undefined {
  const log = redactingLog(vscode.window.createOutputChannel('API Workbench', { log: true }));
  const sandbox = SandboxHost.forContext(context, log);
  const secrets = createSecrets(context.secrets);
  const endpoints = new EndpointResolver(sandbox, secrets, context.secrets);
  const services: WorkbenchServices = { context, endpoints, secrets, log };

  context.subscriptions.push(
    log,
    sandbox,
    endpoints,
    createEndpointStatus(endpoints, sandbox),
    ...registerPlatformCommands(services, sandbox),
    ...registerRequestLog(services),
  );
  for (const register of [registerDiscovery, registerStorage, registerGeneration, registerWaterData]) {
    context.subscriptions.push(...register(services));
  }
  // Any extension can read what activate returns: only the extension under test hands out its services
  // (host tests use them); an installed extension exports nothing, so no other extension reaches a secret.
  return __TEST_SEAMS__ && context.extensionMode === vscode.ExtensionMode.Test ? services : undefined;
}

export function deactivate(): void {
  // Everything, the sandbox included, is disposed through context.subscriptions.
}
