// What a chat session gets from VS Code: the settings drawer's values (per workspace), the
// endpoint and key, the tools, and the user's answer for a declared tool's result.
import * as vscode from 'vscode';
import type { WorkbenchServices } from '../../platform/services';
import type { FunctionDeclaration, Tool } from '../../shared/wire/generation';
import type { ChatEnvironment } from '../core/chatTypes';
import { normalizeSettings } from '../core/settings';
import type { FunctionCallView, PanelSettings } from '../protocol';
import { BUILTIN_DECLARATIONS, declaredTools, isBuiltin, runBuiltin } from './tools';

const SETTINGS_KEY = 'apiWorkbench.generation.panelSettings';

function config(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration('apiWorkbench.generation');
}

export function keyInQuery(): boolean {
  return config().get<boolean>('sendKeyAsQueryParameter', false);
}

/** The settings drawer's values, shared by every chat surface of the workspace. */
export function panelSettings(context: vscode.ExtensionContext): PanelSettings {
  return normalizeSettings(context.workspaceState.get(SETTINGS_KEY) ?? { model: config().get<string>('model') });
}

export async function savePanelSettings(
  context: vscode.ExtensionContext,
  patch: Partial<PanelSettings> | null,
): Promise<void> {
  const next = patch === null ? normalizeSettings({}) : normalizeSettings({ ...panelSettings(context), ...patch });
  await context.workspaceState.update(SETTINGS_KEY, next);
}

async function tools(settings: PanelSettings): Promise<{ tools: Tool[]; problems: string[] }> {
  const declared = await declaredTools();
  const decls: FunctionDeclaration[] = [
    ...(settings.builtinTools ? BUILTIN_DECLARATIONS : []),
    ...declared.tools.flatMap((t) => t.functionDeclarations ?? []),
  ];
  return {
    tools: decls.length ? [{ functionDeclarations: decls }] : [],
    problems: declared.problem ? [declared.problem] : [],
  };
}

function isJsonObject(v: string): boolean {
  try {
    const p: unknown = JSON.parse(v);
    return !!p && typeof p === 'object' && !Array.isArray(p);
  } catch {
    return false;
  }
}

/** A declared tool runs outside the editor: the user types its result. */
async function askForResult(call: FunctionCallView): Promise<Record<string, unknown> | undefined> {
  const answer = await vscode.window.showInputBox({
    title: vscode.l10n.t('Result of {0}', call.name),
    prompt: vscode.l10n.t('The model called {0}({1}). Enter the result as JSON.', call.name, JSON.stringify(call.args)),
    value: '{}',
    validateInput: (v) => (isJsonObject(v) ? undefined : 'Enter a JSON object'),
  });
  return answer === undefined ? undefined : (JSON.parse(answer) as Record<string, unknown>);
}

export function chatEnvironment(services: WorkbenchServices): ChatEnvironment {
  return {
    connection: async () => {
      const ep = await services.endpoints.resolve('generation');
      return {
        baseUrl: ep.baseUrl,
        apiKey: ep.credential,
        keyInQuery: keyInQuery(),
        sandbox: ep.sandbox,
        maxAttempts: config().get<number>('maxAttempts', 3),
      };
    },
    settings: () => panelSettings(services.context),
    tools,
    runTool: (call) => (isBuiltin(call.name) ? runBuiltin(call.name, call.args) : askForResult(call)),
    autoRun: (calls) => config().get<boolean>('autoRunReadOnlyTools', false) && calls.every((c) => isBuiltin(c.name)),
    log: (level, line) => (level === 'error' ? services.log.error(line) : services.log.info(line)),
  };
}
