// Run for .prompt files: a CodeLens on the first line, and a command that renders the file with its default
// input, sends the request to the configured endpoint (the sandbox or the real API) and streams the reply
// into an output pane, with the finish reason and token usage at the end.
import * as vscode from 'vscode';
import { readPartial } from './promptPartials';
import type { WorkbenchServices } from '../../platform/services';
import { streamGenerateContent } from '../core/client';
import { chunkDelta, primaryCandidate } from '../core/delta';
import { PromptFile, PromptRenderError } from '../core/prompt/promptFile';
import { keyInQuery, panelSettings } from './chatEnvironment';

export const RUN_COMMAND = 'apiWorkbench.generation.runPrompt';

/** What a run ended with (the command's result). */
export interface PromptRunResult {
  model: string;
  text: string;
  finishReason: string | null;
  error: string | null;
}

export class PromptRunner implements vscode.CodeLensProvider, vscode.Disposable {
  private output: vscode.OutputChannel | undefined;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly services: WorkbenchServices) {
    this.subscriptions = [vscode.languages.registerCodeLensProvider({ language: 'dotprompt' }, this)];
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    if (/^_[^/]*\.prompt$/.test(doc.uri.path.replace(/^.*\//, ''))) return []; // a partial is not run on its own
    return [
      new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), {
        title: vscode.l10n.t('$(play) Run'),
        command: RUN_COMMAND,
        arguments: [doc.uri],
      }),
    ];
  }

  async run(uri?: vscode.Uri): Promise<PromptRunResult | undefined> {
    const target = uri ?? vscode.window.activeTextEditor?.document.uri;
    if (!target) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Open a .prompt file to run it.'));
      return undefined;
    }
    const doc = await vscode.workspace.openTextDocument(target);
    const { prompt, problems } = await PromptFile.load(doc.getText(), { partials: (n) => readPartial(doc, n) });
    const first = problems.find((p) => p.severity === 'error');
    if (!prompt || first) {
      void vscode.window.showErrorMessage(
        vscode.l10n.t('The prompt file has a problem on line {0}: {1}', first?.line ?? 1, first?.message ?? ''),
      );
      return undefined;
    }
    let rendered;
    try {
      rendered = await prompt.render({}, { model: prompt.model ?? panelSettings(this.services.context).model });
    } catch (err) {
      if (!(err instanceof PromptRenderError)) throw err;
      void vscode.window.showErrorMessage(vscode.l10n.t('The prompt file does not render: {0}', err.message));
      return undefined;
    }
    const ep = await this.services.endpoints.resolve('generation');
    if (!ep.credential) {
      void vscode.window.showErrorMessage(
        vscode.l10n.t('Set a generation API key (API Workbench: Set Generation API Key) before running a prompt.'),
      );
      return undefined;
    }
    const out = (this.output ??= vscode.window.createOutputChannel(vscode.l10n.t('API Workbench: Prompt Run')));
    out.show(true);
    out.appendLine(vscode.l10n.t('▶ {0} on {1}', vscode.workspace.asRelativePath(doc.uri), rendered.model));
    let text = '';
    const result = await streamGenerateContent(
      {
        baseUrl: ep.baseUrl,
        apiKey: ep.credential,
        keyInQuery: keyInQuery(),
        model: `models/${rendered.model}`,
        request: rendered.request,
      },
      (chunk) => {
        const piece = chunkDelta(chunk).text;
        if (piece) {
          text += piece;
          out.append(piece);
        }
      },
    );
    const candidate = primaryCandidate(result.response);
    const usage = result.response.usageMetadata;
    out.appendLine('');
    if (result.error)
      out.appendLine(vscode.l10n.t('Error {0} {1}: {2}', result.error.code, result.error.status, result.error.message));
    out.appendLine(
      vscode.l10n.t(
        'Finish reason: {0}; tokens in {1}, out {2}',
        candidate?.finishReason ?? result.response.promptFeedback?.blockReason ?? '—',
        usage?.promptTokenCount ?? 0,
        usage?.candidatesTokenCount ?? 0,
      ),
    );
    return {
      model: rendered.model,
      text,
      finishReason: candidate?.finishReason ?? null,
      error: result.error ? `${result.error.code} ${result.error.status}: ${result.error.message}` : null,
    };
  }

  dispose(): void {
    this.output?.dispose();
    vscode.Disposable.from(...this.subscriptions).dispose();
  }
}
