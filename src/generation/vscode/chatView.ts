// One chat surface: binds a webview (the side-bar view's or an editor tab's) to the
// session of the conversation it shows. It renders the session's events and turns the webview's
// messages into session calls; the conversation logic itself lives in core/chatSession.
import * as vscode from 'vscode';
import type { WorkbenchServices } from '../../platform/services';
import { viewOf, type ChatSession } from '../core/chatSession';
import type { ChatEvent } from '../core/chatTypes';
import type { ChatSessions } from '../core/chatSessions';
import { countTokens, listModels } from '../core/client';
import { historyOf } from '../core/conversation';
import { buildRequest } from '../core/settings';
import type { ChatPanelState, HostToWebview, PanelSettings, RenderedAck, WebviewToHost } from '../protocol';
import { pickAttachments, type AttachKind } from './attachments';
import { keyInQuery, panelSettings, savePanelSettings } from './chatEnvironment';
import { copyCode, exportConversation, insertCode, openAsNewFile, openLink } from './editorActions';
import { panelHtml } from './html';
import { WebviewPage, type PageFrame, type WebviewPageOptions } from '../../platform/webviewPage';
import { AckLog, withTimeout } from './testAcks';

/** How long a caller waits for the page: past the watchdog's last reload in a new panel (38 s). */
const PAGE_LOAD_WAIT_MS = 60_000;

export interface ChatViewOptions {
  surface: 'view' | 'editor';
  /** Told whenever the surface shows another conversation (the side-bar view reopens it after a reload). */
  onConversation?(id: string): Thenable<void> | Promise<void>;
  /** Told when the shown conversation's title changes (an editor tab's title follows it). */
  onTitle?(title: string): void;
  /** Shows a conversation picked in this surface somewhere else (the tab that already has it); true when it did. */
  openElsewhere?(id: string): boolean;
}

/** How a bound page is watched: a panel's replacement, and (test mode only) a shorter wait, silent loads. */
export type ChatPageOptions = Partial<Pick<WebviewPageOptions, 'replace' | 'reloadsDone' | 'readyMs' | 'silentLoads'>>;

export class ChatView implements vscode.Disposable {
  private page: WebviewPage | undefined;
  private readonly bound: vscode.Disposable[] = [];
  private ready = new Deferred();
  private session: ChatSession;
  private unsubscribe: () => void;
  private models: string[] = [];
  /** What the webview reported rendering: kept only in ExtensionMode.Test, where tests await it. */
  private readonly acks: AckLog | undefined;
  /** Why the last send was refused (empty when it went out). */
  lastProblems: string[] = [];
  private stateWaiter: ((s: ChatPanelState) => void) | undefined;

  constructor(
    private readonly services: WorkbenchServices,
    private readonly sessions: ChatSessions,
    session: ChatSession,
    private readonly options: ChatViewOptions,
  ) {
    this.acks =
      __TEST_SEAMS__ && services.context.extensionMode === vscode.ExtensionMode.Test ? new AckLog() : undefined;
    this.session = session;
    this.unsubscribe = session.onEvent((e) => this.render(e));
    options.onTitle?.(session.conversation.title);
  }

  get current(): ChatSession {
    return this.session;
  }

  dispose(): void {
    this.unbind();
    this.unsubscribe();
    this.sessions.release(this.session);
  }

  /** Shows the chat in a webview (a panel's or the view's); a later bind replaces the earlier one. */
  bind(frame: PageFrame, page?: ChatPageOptions): void {
    this.unbind();
    const { webview } = frame;
    const root = this.services.context.extensionUri;
    webview.options = {
      enableScripts: true,
      localResourceRoots: [
        vscode.Uri.joinPath(root, 'dist', 'webview'),
        vscode.Uri.joinPath(root, 'media', 'generation'),
      ],
    };
    // A waiter may already hold the pending promise (reveal() before the view existed): keep it.
    if (this.ready.settled) this.ready = new Deferred();
    const name =
      this.options.surface === 'view' ? vscode.l10n.t('Generation view') : vscode.l10n.t('Generation chat tab');
    this.page = new WebviewPage(frame, {
      name,
      html: (w) => panelHtml(w, root),
      log: this.services.log,
      ...page,
    });
    this.bound.push(
      this.page,
      webview.onDidReceiveMessage((m: WebviewToHost) =>
        this.onMessage(m).catch((e: unknown) =>
          this.services.log.error(`generation panel: ${e instanceof Error ? e.message : String(e)}`),
        ),
      ),
    );
    this.page.load();
  }

  unbind(webview?: vscode.Webview): void {
    if (webview && webview !== this.page?.webview) return;
    for (const d of this.bound.splice(0)) d.dispose();
    this.page = undefined;
  }

  /** Waits until the bound webview's page has loaded (the page watchdog sets a silent page again meanwhile). */
  whenReady(timeoutMs = PAGE_LOAD_WAIT_MS): Promise<void> {
    return withTimeout(this.ready.promise, timeoutMs, 'the generation panel did not load');
  }

  /** Shows another session (the previous one is released; a running reply there goes on). */
  async show(session: ChatSession): Promise<void> {
    if (session !== this.session) {
      this.unsubscribe();
      this.sessions.release(this.session);
      this.session = session;
      this.unsubscribe = session.onEvent((e) => this.render(e));
    }
    await this.options.onConversation?.(session.conversation.id);
    this.options.onTitle?.(session.conversation.title);
    await this.pushInit();
  }

  async newChat(): Promise<void> {
    this.session.stop();
    await this.show(this.sessions.create());
  }

  /** Rebuilds the page from storage, as after a window reload: the session is dropped and read back. */
  async reload(): Promise<void> {
    const id = this.session.conversation.id;
    this.session.stop();
    await this.session.idle();
    this.unsubscribe();
    this.sessions.release(this.session);
    this.session = this.sessions.acquire(id) ?? this.sessions.create();
    this.unsubscribe = this.session.onEvent((e) => this.render(e));
    this.acks?.clear();
    if (this.page) {
      this.ready = new Deferred();
      this.page.load();
      await withTimeout(this.ready.promise, PAGE_LOAD_WAIT_MS, 'the generation panel did not reload');
    }
  }

  async send(prompt: string): Promise<string | undefined> {
    const outcome = await this.session.send(prompt);
    this.lastProblems = 'problems' in outcome ? outcome.problems : [];
    return 'turnId' in outcome ? outcome.turnId : undefined;
  }

  /**
   * Retry, Regenerate or edit-and-resend of a turn. Later turns are replaced, so the user confirms
   * that first (`confirmed` skips the question: the host tests' seam, which cannot click a dialog).
   */
  async resend(turnId: string, prompt?: string, confirmed = false): Promise<string | undefined> {
    const later = this.session.laterTurns(turnId);
    if (later > 0 && !confirmed) {
      const replace = vscode.l10n.t('Replace');
      const answer = await vscode.window.showWarningMessage(
        later === 1
          ? vscode.l10n.t('Resending replaces the turn after this one.')
          : vscode.l10n.t('Resending replaces the {0} turns after this one.', later),
        { modal: true, detail: vscode.l10n.t('Export the chat first to keep them.') },
        replace,
      );
      if (answer !== replace) return undefined;
    }
    const outcome = await this.session.resend(turnId, prompt);
    this.lastProblems = 'problems' in outcome ? outcome.problems : [];
    return 'turnId' in outcome ? outcome.turnId : undefined;
  }

  async rename(title?: string): Promise<void> {
    const name =
      title ??
      (await vscode.window.showInputBox({
        title: vscode.l10n.t('Rename chat'),
        value: this.session.conversation.title,
        validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Enter a name')),
      }));
    if (name !== undefined) await this.session.rename(name);
  }

  /** Test mode: the state the page keeps for the serializer, as it reports it. */
  pageState(timeoutMs = 10_000): Promise<ChatPanelState> {
    const got = new Promise<ChatPanelState>((resolve) => (this.stateWaiter = resolve));
    this.post({ type: 'reportState' });
    return withTimeout(got, timeoutMs, 'the chat page did not report its state');
  }

  async updateSettings(patch: Partial<PanelSettings> | null): Promise<void> {
    await savePanelSettings(this.services.context, patch);
    await this.pushInit();
  }

  async attach(what: AttachKind): Promise<void> {
    for (const a of await pickAttachments(this.services, what)) this.session.attach(a);
    this.post({
      type: 'status',
      text: `Attached: ${this.session.attachments.map((a) => a.label).join(', ') || 'nothing'}`,
    });
  }

  exportConversation(format: 'markdown' | 'json'): Promise<void> {
    return exportConversation(this.session.conversation, format);
  }

  waitForAck(match: (a: RenderedAck) => boolean, timeoutMs = 30_000): Promise<RenderedAck> {
    if (!this.acks) return Promise.reject(new Error('Render reports exist only for the host tests of this extension.'));
    return this.acks.wait(match, timeoutMs);
  }

  get lastRendered(): RenderedAck | undefined {
    return this.acks?.last;
  }

  private post(message: HostToWebview): void {
    void this.page?.webview.postMessage(message);
  }

  private render(e: ChatEvent): void {
    switch (e.type) {
      case 'turnStarted':
        return this.post({ type: 'turnStart', turn: e.turn });
      case 'delta':
        return this.post({ type: 'delta', turnId: e.turnId, text: e.text, thought: e.thought });
      case 'status':
        return this.post({ type: 'status', text: e.text });
      case 'refused':
        return this.post({ type: 'problems', messages: e.problems });
      case 'finished':
      case 'failed':
      case 'toolCallDecided':
        return this.post({ type: 'turnEnd', turnId: e.turnId, text: e.text, summary: e.summary });
      case 'toolCallPending':
        // The finished turn already shows Run / Decline for its calls.
        return;
      case 'conversation':
        this.options.onTitle?.(e.info.title);
        return this.post({ type: 'conversation', info: e.info, turns: e.turns });
    }
  }

  private async pushInit(): Promise<void> {
    const endpoint = await this.services.endpoints.resolve('generation').catch(() => undefined);
    const c = this.session.conversation;
    this.post({
      type: 'init',
      data: {
        settings: panelSettings(this.services.context),
        models: this.models,
        conversation: { id: c.id, title: c.title, updated: c.updated },
        conversations: this.sessions.list(),
        turns: c.turns.map(viewOf),
        endpoint: { sandbox: !!endpoint?.sandbox, hasKey: !!endpoint?.credential },
        busy: this.session.busy,
        surface: this.options.surface,
        testAcks: !!this.acks,
      },
    });
  }

  private async onMessage(m: WebviewToHost): Promise<void> {
    switch (m.type) {
      case 'ready':
        if (this.page && !this.page.ready()) return;
        this.ready.resolve();
        await this.pushInit();
        if (!this.models.length) await this.refreshModels();
        return;
      case 'rendered':
        this.acks?.record(m);
        return;
      case 'send':
        await this.send(m.prompt);
        return;
      case 'stop':
        this.session.stop();
        return;
      case 'newChat':
        return this.newChat();
      case 'openConversation': {
        if (this.session.busy || m.id === this.session.conversation.id) return;
        if (this.options.openElsewhere?.(m.id)) return this.pushInit();
        const next = this.sessions.acquire(m.id);
        if (next) await this.show(next);
        return;
      }
      case 'deleteConversation':
        await this.sessions.delete(m.id);
        if (this.session.conversation.id === m.id) await this.show(this.sessions.create());
        else await this.pushInit();
        return;
      case 'settings':
        return savePanelSettings(this.services.context, m.settings);
      case 'refreshModels':
        return this.refreshModels();
      case 'countTokens':
        return this.countPromptTokens(m.prompt);
      case 'setApiKey':
        await vscode.commands.executeCommand('apiWorkbench.generation.setApiKey');
        return this.pushInit();
      case 'openLink':
        return openLink(m.href);
      case 'copyCode':
        return copyCode(m.code);
      case 'insertCode':
        return insertCode(m.code);
      case 'newFile':
        return openAsNewFile(m.code, m.language);
      case 'decideCall':
        await this.session.decideCalls(m.turnId, m.approve);
        return;
      case 'export':
        return this.exportConversation(m.format);
      case 'attach':
        return this.attach(m.what);
      case 'resend':
        await this.resend(m.turnId, m.prompt);
        return;
      case 'rename':
        return this.rename();
      case 'openInEditor':
        await vscode.commands.executeCommand('apiWorkbench.generation.openInEditor', this.session.conversation.id);
        return;
      case 'state':
        this.stateWaiter?.(m.state);
        this.stateWaiter = undefined;
        return;
    }
  }

  async refreshModels(): Promise<void> {
    const ep = await this.services.endpoints.resolve('generation');
    if (!ep.credential)
      return this.post({ type: 'models', models: this.models, error: 'Set an API key to load the model list.' });
    const r = await listModels({
      baseUrl: ep.baseUrl,
      apiKey: ep.credential,
      keyInQuery: keyInQuery(),
      generateOnly: true,
      retry: { maxAttempts: 2 },
    });
    if (r.error)
      return this.post({ type: 'models', models: this.models, error: `${r.error.status}: ${r.error.message}` });
    this.models = r.models.map((m) => m.name);
    this.post({ type: 'models', models: this.models });
  }

  private async countPromptTokens(prompt: string): Promise<void> {
    const ep = await this.services.endpoints.resolve('generation');
    if (!ep.credential) return this.post({ type: 'tokens', error: 'no API key' });
    const settings = panelSettings(this.services.context);
    const contents = [...historyOf(this.session.conversation), { role: 'user', parts: [{ text: prompt || ' ' }] }];
    const built = buildRequest(settings, contents);
    const request = { generateContentRequest: { model: settings.model, ...built.request } };
    const r = await countTokens({
      baseUrl: ep.baseUrl,
      apiKey: ep.credential,
      keyInQuery: keyInQuery(),
      model: settings.model,
      request,
      retry: { maxAttempts: 1 },
    });
    this.post(
      r.value
        ? { type: 'tokens', count: r.value.totalTokens }
        : { type: 'tokens', error: r.error?.message ?? 'unknown error' },
    );
  }
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
