// The generation side panel: a WebviewViewProvider that owns the conversation, sends requests
// through the editor-free core, streams deltas to the webview and records what it rendered.
import * as vscode from 'vscode';
import type { WorkbenchServices } from '../../platform/services';
import type { Content, FunctionDeclaration, GenerateContentResponse, Part, Tool } from '../../shared/wire/generation';
import { historyParts } from '../core/aggregate';
import { streamGenerateContent, listModels, countTokens } from '../core/client';
import { fileDataPart, uploadFile, waitForActive } from '../core/files';
import { errorView, summarize } from '../core/summary';
import { buildRequest, normalizeSettings } from '../core/settings';
import { validateRequest } from '../core/validate';
import {
  ConversationStore, historyOf, newConversation, titleFrom, toMarkdown, type Conversation, type StoredTurn,
} from '../core/conversation';
import {
  GENERATION_VIEW_ID, type HostToWebview, type PanelSettings, type RenderedAck, type TurnSummary, type WebviewToHost,
} from '../protocol';
import { panelHtml } from './html';
import { BUILTIN_DECLARATIONS, declaredTools, isBuiltin, runBuiltin } from './tools';

const SETTINGS_KEY = 'apiWorkbench.generation.panelSettings';
/** Images up to this size travel inline; larger ones go through the Files API. */
const INLINE_LIMIT_BYTES = 4 * 1024 * 1024;
const CURRENT_KEY = 'apiWorkbench.generation.currentConversation';

interface Running {
  turnId: string;
  controller: AbortController;
  done: Promise<void>;
}

type AckWaiter = { match: (a: RenderedAck) => boolean; resolve: (a: RenderedAck) => void };

export class GenerationPanel implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private ready = new Deferred();
  private readonly store: ConversationStore;
  private conversation: Conversation;
  private running: Running | undefined;
  private models: string[] = [];
  private attachments: { label: string; parts: Part[] }[] = [];
  private lastAck: RenderedAck | undefined;
  /** The latest acknowledgement per turn, so a waiter can find one that arrived before it asked. */
  private readonly acks = new Map<string, RenderedAck>();
  /** Why the last send was refused (empty when it went out). */
  lastProblems: string[] = [];
  private waiters: AckWaiter[] = [];
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly services: WorkbenchServices) {
    this.store = new ConversationStore(services.context.workspaceState);
    this.conversation = this.loadCurrent();
  }

  dispose(): void {
    this.running?.controller.abort();
    for (const d of this.disposables) d.dispose();
  }

  private loadCurrent(): Conversation {
    const id = this.services.context.workspaceState.get<string>(CURRENT_KEY);
    return (id && this.store.get(id)) || newConversation();
  }

  private get settings(): PanelSettings {
    return normalizeSettings(this.services.context.workspaceState.get(SETTINGS_KEY) ?? {
      model: vscode.workspace.getConfiguration('apiWorkbench.generation').get<string>('model'),
    });
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const root = this.services.context.extensionUri;
    view.webview.options = {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(root, 'dist', 'webview'), vscode.Uri.joinPath(root, 'media', 'generation')],
    };
    // A waiter may already hold the pending promise (reveal() before the view existed): keep it.
    if (this.ready.settled) this.ready = new Deferred();
    view.webview.html = panelHtml(view.webview, root);
    this.disposables.push(
      view.webview.onDidReceiveMessage((m: WebviewToHost) => this.onMessage(m).catch((e) => this.services.log.error(`generation panel: ${(e as Error).message}`))),
      view.onDidDispose(() => {
        if (this.view === view) this.view = undefined;
      }),
    );
  }

  private post(message: HostToWebview): void {
    void this.view?.webview.postMessage(message);
  }

  private async pushInit(): Promise<void> {
    const endpoint = await this.services.endpoints.resolve('generation').catch(() => undefined);
    this.post({
      type: 'init',
      data: {
        settings: this.settings,
        models: this.models,
        conversation: { id: this.conversation.id, title: this.conversation.title, updated: this.conversation.updated },
        conversations: this.store.all().map(({ id, title, updated }) => ({ id, title, updated })),
        turns: this.conversation.turns.map(({ sent: _s, reply: _r, ...view }) => view),
        endpoint: { sandbox: !!endpoint?.sandbox, hasKey: !!endpoint?.credential },
        busy: !!this.running,
      },
    });
  }

  private async onMessage(m: WebviewToHost): Promise<void> {
    switch (m.type) {
      case 'ready':
        this.ready.resolve();
        await this.pushInit();
        if (!this.models.length) void this.refreshModels();
        return;
      case 'rendered':
        this.lastAck = m;
        this.acks.set(m.turnId, m);
        this.waiters = this.waiters.filter((w) => (w.match(m) ? (w.resolve(m), false) : true));
        return;
      case 'send':
        await this.send(m.prompt);
        return;
      case 'stop':
        this.stop();
        return;
      case 'newChat':
        await this.newChat();
        return;
      case 'openConversation': {
        const c = this.store.get(m.id);
        if (c && !this.running) {
          this.conversation = c;
          await this.services.context.workspaceState.update(CURRENT_KEY, c.id);
          await this.pushInit();
        }
        return;
      }
      case 'deleteConversation':
        await this.store.delete(m.id);
        if (this.conversation.id === m.id) this.conversation = newConversation();
        await this.pushInit();
        return;
      case 'settings':
        await this.services.context.workspaceState.update(SETTINGS_KEY, normalizeSettings(m.settings));
        return;
      case 'refreshModels':
        await this.refreshModels();
        return;
      case 'countTokens':
        await this.countPromptTokens(m.prompt);
        return;
      case 'setApiKey':
        await vscode.commands.executeCommand('apiWorkbench.generation.setApiKey');
        await this.pushInit();
        return;
      case 'openLink':
        if (/^(https?|mailto):/i.test(m.href)) await vscode.env.openExternal(vscode.Uri.parse(m.href));
        return;
      case 'copyCode':
        await vscode.env.clipboard.writeText(m.code);
        void vscode.window.setStatusBarMessage('Code copied', 2000);
        return;
      case 'insertCode':
        await this.insertCode(m.code);
        return;
      case 'newFile': {
        const doc = await vscode.workspace.openTextDocument({ content: m.code, language: languageId(m.language) });
        await vscode.window.showTextDocument(doc);
        return;
      }
      case 'decideCall':
        await this.decideCalls(m.turnId, m.approve);
        return;
      case 'export':
        await this.exportConversation(m.format);
        return;
      case 'attach':
        await this.attach(m.what);
        return;
    }
  }

  /** Brings the view up and waits until its page has loaded. */
  async reveal(): Promise<void> {
    if (!this.view) await vscode.commands.executeCommand(`${GENERATION_VIEW_ID}.focus`);
    else this.view.show(true);
    await withTimeout(this.ready.promise, 20_000, 'the generation panel did not load');
  }

  waitForAck(match: (a: RenderedAck) => boolean, timeoutMs = 30_000): Promise<RenderedAck> {
    for (const a of this.acks.values()) if (match(a)) return Promise.resolve(a);
    return withTimeout(new Promise<RenderedAck>((resolve) => this.waiters.push({ match, resolve })), timeoutMs, 'the panel did not render the reply');
  }

  get lastRendered(): RenderedAck | undefined {
    return this.lastAck;
  }

  get currentTurnId(): string | undefined {
    return this.running?.turnId;
  }

  /** Position of a turn in the open conversation (-1 when it is not there). */
  turnIndex(id: string): number {
    return this.conversation.turns.findIndex((t) => t.id === id);
  }

  async updateSettings(patch: Partial<PanelSettings> | null): Promise<void> {
    const next = patch === null ? normalizeSettings({}) : normalizeSettings({ ...this.settings, ...patch });
    await this.services.context.workspaceState.update(SETTINGS_KEY, next);
    await this.pushInit();
  }

  get lastTurnId(): string | undefined {
    return this.conversation.turns[this.conversation.turns.length - 1]?.id;
  }

  async newChat(): Promise<void> {
    this.stop();
    this.conversation = newConversation();
    this.attachments = [];
    await this.services.context.workspaceState.update(CURRENT_KEY, this.conversation.id);
    await this.pushInit();
  }

  /** Drops everything held in memory and rebuilds the panel from workspace storage, like a window reload. */
  async reload(): Promise<void> {
    this.stop();
    this.conversation = this.loadCurrent();
    this.lastAck = undefined;
    this.acks.clear();
    if (this.view) {
      this.ready = new Deferred();
      this.view.webview.html = panelHtml(this.view.webview, this.services.context.extensionUri);
      await withTimeout(this.ready.promise, 20_000, 'the generation panel did not reload');
    }
  }

  stop(): void {
    this.running?.controller.abort();
  }

  async refreshModels(): Promise<void> {
    const ep = await this.services.endpoints.resolve('generation');
    if (!ep.credential) return this.post({ type: 'models', models: this.models, error: 'Set an API key to load the model list.' });
    const r = await listModels({ baseUrl: ep.baseUrl, apiKey: ep.credential, keyInQuery: keyInQuery(), generateOnly: true, retry: { maxAttempts: 2 } });
    if (r.error) return this.post({ type: 'models', models: this.models, error: `${r.error.status}: ${r.error.message}` });
    this.models = r.models.map((m) => m.name);
    this.post({ type: 'models', models: this.models });
  }

  private async countPromptTokens(prompt: string): Promise<void> {
    const ep = await this.services.endpoints.resolve('generation');
    if (!ep.credential) return this.post({ type: 'tokens', error: 'no API key' });
    const contents = [...historyOf(this.conversation), { role: 'user', parts: [{ text: prompt || ' ' }] }];
    const built = buildRequest(this.settings, contents);
    const r = await countTokens({ baseUrl: ep.baseUrl, apiKey: ep.credential, keyInQuery: keyInQuery(), model: this.settings.model, request: { generateContentRequest: { model: this.settings.model, ...built.request } }, retry: { maxAttempts: 1 } });
    this.post(r.value ? { type: 'tokens', count: r.value.totalTokens } : { type: 'tokens', error: r.error?.message ?? 'unknown error' });
  }

  private async tools(): Promise<{ tools: Tool[]; problems: string[] }> {
    const declared = await declaredTools();
    const decls: FunctionDeclaration[] = [
      ...(this.settings.builtinTools ? BUILTIN_DECLARATIONS : []),
      ...declared.tools.flatMap((t) => t.functionDeclarations ?? []),
    ];
    return { tools: decls.length ? [{ functionDeclarations: decls }] : [], problems: declared.problem ? [declared.problem] : [] };
  }

  /** Sends a prompt; resolves with the new turn's id once it started, or undefined when refused. */
  async send(prompt: string, opts: { kind?: 'prompt' | 'functionResult'; sent?: Content[] } = {}): Promise<string | undefined> {
    if (this.running) {
      this.lastProblems = ['A reply is still streaming. Stop it first.'];
      this.post({ type: 'problems', messages: this.lastProblems });
      return undefined;
    }
    const settings = this.settings;
    const kind = opts.kind ?? 'prompt';
    const sent: Content[] = opts.sent ?? [{ role: 'user', parts: [...this.attachments.flatMap((a) => a.parts), { text: prompt }] }];
    const tools = await this.tools();
    const built = buildRequest(settings, [...historyOf(this.conversation), ...sent], tools.tools);
    const problems = [...tools.problems, ...built.problems, ...validateRequest(settings.model, built.request)];
    this.lastProblems = problems;
    if (problems.length) {
      this.post({ type: 'problems', messages: problems });
      return undefined;
    }
    if (kind === 'prompt') this.attachments = [];

    const turn: StoredTurn = {
      id: `t${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`,
      prompt,
      kind,
      model: settings.model,
      text: '',
      thoughts: '',
      summary: emptySummary(),
      sent,
      reply: null,
    };
    if (!this.conversation.turns.length && kind === 'prompt') this.conversation.title = titleFrom(prompt);
    this.conversation.turns.push(turn);
    this.conversation.updated = Date.now();
    const { sent: _s, reply: _r, ...view } = turn;
    this.post({ type: 'turnStart', turn: view });

    const controller = new AbortController();
    const done = this.stream(turn, built.request, controller).finally(() => {
      if (this.running?.turnId === turn.id) this.running = undefined;
    });
    this.running = { turnId: turn.id, controller, done };
    return turn.id;
  }

  private async stream(turn: StoredTurn, request: ReturnType<typeof buildRequest>['request'], controller: AbortController): Promise<void> {
    const ep = await this.services.endpoints.resolve('generation');
    if (!ep.credential) {
      const error = errorView({ code: 403, status: 'PERMISSION_DENIED', message: 'No API key is set for the generation service.' });
      error.action = 'setApiKey';
      error.advice = 'Set an API key (API Workbench: Set Generation API Key), then resend.';
      return this.finish(turn, { ...emptySummary(), state: 'error', error });
    }
    this.services.log.info(`generation: streaming ${turn.model} (${ep.sandbox ? 'sandbox' : 'service'})`);
    const result = await streamGenerateContent(
      {
        baseUrl: ep.baseUrl,
        apiKey: ep.credential,
        keyInQuery: keyInQuery(),
        model: turn.model,
        request,
        signal: controller.signal,
        retry: { maxAttempts: vscode.workspace.getConfiguration('apiWorkbench.generation').get<number>('maxAttempts', 3) },
        onRetry: ({ delayMs, error }) => this.post({ type: 'status', text: `${error.status}: retrying in ${(delayMs / 1000).toFixed(1)} s…` }),
      },
      (chunk) => {
        const { text, thought } = deltaOf(chunk);
        if (!text && !thought) return;
        turn.text += text;
        turn.thoughts += thought;
        this.post({ type: 'delta', turnId: turn.id, text, thought });
      },
    );
    const summary = summarize(result);
    const content = result.response.candidates?.[0]?.content;
    turn.reply = content && (content.parts?.length ?? 0) > 0 ? { role: content.role ?? 'model', parts: historyParts(content) } : null;
    this.services.log.info(`generation: ${summary.state}${summary.finish ? ` (${summary.finish.reason})` : ''}${summary.error ? ` ${summary.error.code} ${summary.error.status}` : ''}`);
    await this.finish(turn, summary);
    // This turn is over: release the panel before an automatic tool run starts the next one.
    if (this.running?.turnId === turn.id) this.running = undefined;
    if (summary.state === 'awaitingApproval' && this.autoRunAllowed(turn)) await this.decideCalls(turn.id, true, true);
  }

  private async finish(turn: StoredTurn, summary: TurnSummary): Promise<void> {
    turn.summary = summary;
    this.conversation.updated = Date.now();
    await this.store.save(this.conversation);
    await this.services.context.workspaceState.update(CURRENT_KEY, this.conversation.id);
    this.post({ type: 'turnEnd', turnId: turn.id, text: turn.text, summary });
  }

  private autoRunAllowed(turn: StoredTurn): boolean {
    const auto = vscode.workspace.getConfiguration('apiWorkbench.generation').get<boolean>('autoRunReadOnlyTools', false);
    return auto && turn.summary.functionCalls.every((c) => isBuiltin(c.name));
  }

  /** Runs (or declines) the function calls of a turn and sends the results back to the model. */
  async decideCalls(turnId: string, approve: boolean, auto = false): Promise<string | undefined> {
    const turn = this.conversation.turns.find((t) => t.id === turnId);
    if (!turn || turn.summary.state !== 'awaitingApproval' || this.running) return undefined;
    const parts: Part[] = [];
    for (const call of turn.summary.functionCalls) {
      let response: Record<string, unknown>;
      if (!approve) response = { error: 'The user declined to run this function.' };
      else if (isBuiltin(call.name)) response = await runBuiltin(call.name, call.args);
      else {
        const answer = await vscode.window.showInputBox({
          title: `Result of ${call.name}`,
          prompt: `The model called ${call.name}(${JSON.stringify(call.args)}). Enter the result as JSON.`,
          value: '{}',
          validateInput: (v) => {
            try {
              const p = JSON.parse(v);
              return p && typeof p === 'object' && !Array.isArray(p) ? undefined : 'Enter a JSON object';
            } catch {
              return 'Enter a JSON object';
            }
          },
        });
        if (answer === undefined) return undefined;
        response = JSON.parse(answer);
      }
      call.decision = approve ? (auto ? 'auto' : 'approved') : 'rejected';
      call.result = JSON.stringify(response).slice(0, 2000);
      parts.push({ functionResponse: { name: call.name, response } });
    }
    turn.summary = { ...turn.summary, state: 'done' };
    await this.store.save(this.conversation);
    this.post({ type: 'turnEnd', turnId: turn.id, text: turn.text, summary: turn.summary });
    const label = turn.summary.functionCalls.map((c) => `${c.name} → ${c.decision}`).join(', ');
    return this.send(`Function results: ${label}`, { kind: 'functionResult', sent: [{ role: 'function', parts }] });
  }

  private async insertCode(code: string): Promise<void> {
    const editor = vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors[0];
    if (!editor) {
      void vscode.window.showWarningMessage('Open an editor to insert the code into.');
      return;
    }
    await editor.edit((b) => {
      for (const sel of editor.selections) b.replace(sel, code);
    });
  }

  async attach(what: 'selection' | 'activeFile' | 'files' | 'image'): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    if (what === 'selection' || what === 'activeFile') {
      if (!editor) return void vscode.window.showWarningMessage('No active editor to attach from.');
      const rel = vscode.workspace.asRelativePath(editor.document.uri);
      const text = what === 'selection' && !editor.selection.isEmpty ? editor.document.getText(editor.selection) : editor.document.getText();
      const label = what === 'selection' && !editor.selection.isEmpty ? `selection of ${rel}` : rel;
      this.attachments.push({ label, parts: [{ text: `Context (${label}):\n\`\`\`${editor.document.languageId}\n${text}\n\`\`\`` }] });
    } else {
      const picked = await vscode.window.showOpenDialog({
        canSelectMany: what === 'files',
        defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
        filters: what === 'image' ? { Images: ['png', 'jpg', 'jpeg', 'webp', 'gif'] } : undefined,
      });
      for (const uri of picked ?? []) {
        const bytes = await vscode.workspace.fs.readFile(uri);
        const rel = vscode.workspace.asRelativePath(uri);
        if (what === 'image') {
          const ext = uri.path.split('.').pop()!.toLowerCase();
          const mimeType = ext === 'jpg' ? 'image/jpeg' : `image/${ext}`;
          if (bytes.length <= INLINE_LIMIT_BYTES) {
            this.attachments.push({ label: rel, parts: [{ inlineData: { mimeType, data: Buffer.from(bytes).toString('base64') } }] });
          } else {
            const part = await this.uploadLarge(bytes, mimeType, rel);
            if (part) this.attachments.push({ label: `${rel} (uploaded)`, parts: [part] });
          }
        } else {
          this.attachments.push({ label: rel, parts: [{ text: `Context (${rel}):\n\`\`\`\n${Buffer.from(bytes).toString('utf8')}\n\`\`\`` }] });
        }
      }
    }
    this.post({ type: 'status', text: `Attached: ${this.attachments.map((a) => a.label).join(', ') || 'nothing'}` });
  }

  /** Files API upload with a progress notification, then waits until the file is ACTIVE. */
  private async uploadLarge(bytes: Uint8Array, mimeType: string, label: string): Promise<Part | undefined> {
    const ep = await this.services.endpoints.resolve('generation');
    if (!ep.credential) {
      void vscode.window.showErrorMessage('Set a generation API key before uploading files.');
      return undefined;
    }
    const conn = { baseUrl: ep.baseUrl, apiKey: ep.credential, keyInQuery: keyInQuery() };
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Uploading ${label}`, cancellable: true },
      async (progress, token) => {
        const controller = new AbortController();
        token.onCancellationRequested(() => controller.abort());
        let reported = 0;
        const up = await uploadFile({
          ...conn, data: bytes, mimeType, displayName: label, signal: controller.signal,
          onProgress: (sent, total) => {
            const pct = total ? Math.floor((sent / total) * 90) : 90;
            progress.report({ increment: pct - reported, message: `${Math.round(sent / 1024)} of ${Math.round(total / 1024)} KiB` });
            reported = pct;
          },
        });
        if (!up.file) {
          if (up.error) void vscode.window.showErrorMessage(`Upload failed: ${up.error.status}: ${up.error.message}`);
          return undefined;
        }
        progress.report({ message: 'processing…' });
        const ready = await waitForActive({ ...conn, name: up.file.name, signal: controller.signal, intervalMs: 1000 });
        if (ready.error || !ready.file) {
          if (ready.error) void vscode.window.showErrorMessage(`${label}: ${ready.error.message}`);
          return undefined;
        }
        progress.report({ increment: 100 - reported, message: 'ready' });
        return fileDataPart(ready.file);
      },
    );
  }

  async exportConversation(format: 'markdown' | 'json'): Promise<void> {
    const content = format === 'markdown' ? toMarkdown(this.conversation) : JSON.stringify(this.conversation, null, 2);
    const doc = await vscode.workspace.openTextDocument({ content, language: format === 'markdown' ? 'markdown' : 'json' });
    await vscode.window.showTextDocument(doc);
  }
}

function keyInQuery(): boolean {
  return vscode.workspace.getConfiguration('apiWorkbench.generation').get<boolean>('sendKeyAsQueryParameter', false);
}

function emptySummary(): TurnSummary {
  return { state: 'streaming', promptRatings: [], ratings: [], citations: [], incomplete: false, functionCalls: [] };
}

function deltaOf(chunk: GenerateContentResponse): { text: string; thought: string } {
  let text = '';
  let thought = '';
  const c = chunk.candidates?.find((x) => (x.index ?? 0) === 0) ?? chunk.candidates?.[0];
  for (const p of c?.content?.parts ?? []) {
    if (typeof p.text !== 'string') continue;
    if (p.thought) thought += p.text;
    else text += p.text;
  }
  return { text, thought };
}

const LANGUAGE_ALIASES: Record<string, string> = { js: 'javascript', ts: 'typescript', py: 'python', sh: 'shellscript', bash: 'shellscript', yml: 'yaml', md: 'markdown' };

function languageId(fence: string): string {
  const l = fence.toLowerCase();
  return LANGUAGE_ALIASES[l] ?? (l || 'plaintext');
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`Timed out: ${what}`)), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e) => {
        clearTimeout(t);
        reject(e);
      },
    );
  });
}

class Deferred {
  settled = false;
  readonly promise: Promise<void>;
  private done!: () => void;

  constructor() {
    this.promise = new Promise((r) => (this.done = r));
  }

  resolve(): void {
    this.settled = true;
    this.done();
  }
}
