// One conversation's turns, editor-free: builds each request from the settings and history, streams
// the reply, runs the function-call approval loop and saves every turn. Surfaces (the side-bar view,
// later editor tabs) only render its events; whatever the stream carries, a turn always ends, as
// finished or failed, and is saved.
import type { Content, Part } from '../../shared/wire/generation';
import type { ConversationInfo, ErrorView, FunctionCallView, TurnSummary, TurnView } from '../protocol';
import { historyParts } from './aggregate';
import { streamGenerateContent } from './client';
import { historyOf, titleFrom, type Conversation, type ConversationStore, type StoredTurn } from './conversation';
import { chunkDelta, primaryCandidate } from './delta';
import { buildRequest } from './settings';
import { errorView, summarize } from './summary';
import { validateRequest } from './validate';
import type { Attachment, ChatDependencies, ChatEnvironment, ChatEvent, SendOutcome } from './chatTypes';

interface Running {
  turnId: string;
  controller: AbortController;
  done: Promise<void>;
}

export function streamingSummary(): TurnSummary {
  return { state: 'streaming', promptRatings: [], ratings: [], citations: [], incomplete: false, functionCalls: [] };
}

/** A turn that ended in an error of ours or of the service, with what to do next. */
export function failedSummary(error: ErrorView): TurnSummary {
  return { ...streamingSummary(), state: 'error', incomplete: true, error };
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** What a surface shows of a stored turn: everything but the contents resent as history. */
export function viewOf(turn: StoredTurn): TurnView {
  const { sent: _sent, reply: _reply, ...view } = turn;
  return view;
}

const MAX_TITLE = 120;

export class ChatSession {
  private running: Running | undefined;
  /** Set while a send is being prepared or calls are being decided, so a second one cannot interleave. */
  private preparing = false;
  private deciding = false;
  private attached: Attachment[] = [];
  private readonly listeners = new Set<(e: ChatEvent) => void>();
  private readonly stream: typeof streamGenerateContent;
  private readonly summarize: typeof summarize;

  constructor(
    readonly conversation: Conversation,
    private readonly store: ConversationStore,
    private readonly env: ChatEnvironment,
    deps: ChatDependencies = {},
  ) {
    this.stream = deps.stream ?? streamGenerateContent;
    this.summarize = deps.summarize ?? summarize;
  }

  /** Subscribes to the session's events; returns the unsubscribe function. */
  onEvent(listener: (e: ChatEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(e: ChatEvent): void {
    for (const l of this.listeners) {
      try {
        l(e);
      } catch (err) {
        // A surface that fails to render must not end the stream for the others.
        this.env.log('error', `generation: a chat listener failed: ${messageOf(err)}`);
      }
    }
  }

  get busy(): boolean {
    return !!this.running;
  }

  get runningTurnId(): string | undefined {
    return this.running?.turnId;
  }

  get turns(): readonly StoredTurn[] {
    return this.conversation.turns;
  }

  get attachments(): readonly Attachment[] {
    return this.attached;
  }

  attach(a: Attachment): void {
    this.attached.push(a);
  }

  /** Resolves once the running turn (and an automatic tool run it started) is over. */
  async idle(): Promise<void> {
    while (this.running) await this.running.done;
  }

  stop(): void {
    this.running?.controller.abort();
  }

  dispose(): void {
    this.stop();
    this.listeners.clear();
  }

  /** Sends a prompt (or function results); resolves once the turn started, or with why it was refused. */
  async send(
    prompt: string,
    opts: {
      kind?: 'prompt' | 'functionResult';
      sent?: Content[];
      /** Replaces the turn at this index and every later one (resend); they go only once the request passed its checks. */
      replaceFrom?: number;
    } = {},
  ): Promise<SendOutcome> {
    if (this.running || this.preparing) return this.refuse(['A reply is still streaming. Stop it first.']);
    // The results being collected go out as the next turn; a prompt in between would strand them.
    if (this.deciding) return this.refuse(['Function calls are being run. Wait for their results first.']);
    this.preparing = true;
    try {
      const settings = this.env.settings();
      const kind = opts.kind ?? 'prompt';
      const sent: Content[] = opts.sent ?? [
        { role: 'user', parts: [...this.attached.flatMap((a) => a.parts), { text: prompt }] },
      ];
      const tools = await this.env
        .tools(settings)
        .catch((e: unknown) => ({ tools: [], problems: [`Cannot read the tool declarations: ${messageOf(e)}`] }));
      const kept = this.conversation.turns.slice(0, opts.replaceFrom ?? this.conversation.turns.length);
      const history = historyOf({ ...this.conversation, turns: kept });
      const built = buildRequest(settings, [...history, ...sent], tools.tools);
      const problems = [...tools.problems, ...built.problems, ...validateRequest(settings.model, built.request)];
      if (problems.length) return this.refuse(problems);
      if (kind === 'prompt') this.attached = [];

      const turn: StoredTurn = {
        id: `t${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`,
        prompt,
        kind,
        model: settings.model,
        text: '',
        thoughts: '',
        summary: streamingSummary(),
        sent,
        reply: null,
      };
      const replacing = kept.length < this.conversation.turns.length;
      this.conversation.turns = [...kept, turn];
      this.conversation.updated = Date.now();
      const retitle = !kept.length && kind === 'prompt' && !this.conversation.renamed;
      if (retitle) this.conversation.title = titleFrom(prompt);
      if (retitle || replacing)
        this.emit({
          type: 'conversation',
          info: this.info,
          turns: replacing ? kept.map(viewOf) : undefined,
        });
      this.emit({ type: 'turnStarted', turn: viewOf(turn) });

      const controller = new AbortController();
      const done = this.runTurn(turn, built.request, controller)
        .catch((e: unknown) => this.env.log('error', `generation: turn ${turn.id} failed to end: ${messageOf(e)}`))
        .finally(() => {
          if (this.running?.turnId === turn.id) this.running = undefined;
        });
      this.running = { turnId: turn.id, controller, done };
      return { turnId: turn.id };
    } finally {
      this.preparing = false;
    }
  }

  get info(): ConversationInfo {
    const { id, title, updated } = this.conversation;
    return { id, title, updated };
  }

  /** How many turns come after this one (what a resend of it would replace besides itself); -1 when it is gone. */
  laterTurns(turnId: string): number {
    const i = this.conversation.turns.findIndex((t) => t.id === turnId);
    return i < 0 ? -1 : this.conversation.turns.length - 1 - i;
  }

  /**
   * Sends a turn again in place of it and every later turn: Retry of a failed reply and Regenerate
   * of the last one resend what it sent; an edit resends a prompt with new text (its attachments kept).
   */
  resend(turnId: string, editedPrompt?: string): Promise<SendOutcome> {
    const index = this.conversation.turns.findIndex((t) => t.id === turnId);
    const turn = this.conversation.turns[index];
    if (!turn) return Promise.resolve(this.refuse(['That turn is no longer in the conversation.']));
    if (editedPrompt === undefined) {
      return this.send(turn.prompt, { kind: turn.kind, sent: turn.sent, replaceFrom: index });
    }
    if (turn.kind !== 'prompt') return Promise.resolve(this.refuse(['Only a prompt you wrote can be edited.']));
    const text = editedPrompt.trim();
    if (!text) return Promise.resolve(this.refuse(['The edited prompt is empty.']));
    // The prompt's text is its last part; the parts before it are the attachments sent with it.
    const attached = turn.sent[0]?.parts?.slice(0, -1) ?? [];
    return this.send(text, { sent: [{ role: 'user', parts: [...attached, { text }] }], replaceFrom: index });
  }

  /** Names the conversation; a renamed conversation keeps its name when its first prompt changes. */
  async rename(title: string): Promise<boolean> {
    const name = title.replace(/\s+/g, ' ').trim();
    if (!name) return false;
    this.conversation.title = name.length > MAX_TITLE ? `${name.slice(0, MAX_TITLE - 1)}…` : name;
    this.conversation.renamed = true;
    // A conversation with no turns yet is stored with its first one; its name travels with it.
    if (this.conversation.turns.length) await this.save();
    this.emit({ type: 'conversation', info: this.info });
    return true;
  }

  private refuse(problems: string[]): SendOutcome {
    this.emit({ type: 'refused', problems });
    return { problems };
  }

  private async runTurn(
    turn: StoredTurn,
    request: ReturnType<typeof buildRequest>['request'],
    controller: AbortController,
  ): Promise<void> {
    let summary: TurnSummary;
    try {
      summary = await this.streamTurn(turn, request, controller);
    } catch (e) {
      this.env.log('error', `generation: the reply could not be read: ${messageOf(e)}`);
      summary = failedSummary({
        code: 0,
        status: 'UNREADABLE_REPLY',
        message: `The reply could not be read: ${messageOf(e)}`,
        advice:
          'The text received so far is kept. Send the prompt again; if it keeps happening, the service sent a reply of an unexpected shape.',
        action: 'retry',
      });
    }
    await this.finish(turn, summary);
    // This turn is over: release the session before an automatic tool run starts the next one.
    if (this.running?.turnId === turn.id) this.running = undefined;
    if (summary.state !== 'awaitingApproval') return;
    this.emit({ type: 'toolCallPending', turnId: turn.id, calls: summary.functionCalls });
    if (this.env.autoRun(summary.functionCalls)) await this.decideCalls(turn.id, true, true);
  }

  /** Streams one reply into the turn; throws only on what the summarizer cannot read. */
  private async streamTurn(
    turn: StoredTurn,
    request: ReturnType<typeof buildRequest>['request'],
    controller: AbortController,
  ): Promise<TurnSummary> {
    const conn = await this.env.connection();
    if (!conn.apiKey) {
      const error = errorView({
        code: 403,
        status: 'PERMISSION_DENIED',
        message: 'No API key is set for the generation service.',
      });
      return failedSummary({
        ...error,
        action: 'setApiKey',
        advice: 'Set an API key (API Workbench: Set Generation API Key), then resend.',
      });
    }
    this.env.log('info', `generation: streaming ${turn.model} (${conn.sandbox ? 'sandbox' : 'service'})`);
    const result = await this.stream(
      {
        baseUrl: conn.baseUrl,
        apiKey: conn.apiKey,
        keyInQuery: conn.keyInQuery,
        model: turn.model,
        request,
        signal: controller.signal,
        retry: { maxAttempts: conn.maxAttempts },
        onRetry: ({ delayMs, error }) =>
          this.emit({ type: 'status', text: `${error.status}: retrying in ${(delayMs / 1000).toFixed(1)} s…` }),
      },
      (chunk) => {
        const { text, thought } = chunkDelta(chunk);
        if (!text && !thought) return;
        turn.text += text;
        turn.thoughts += thought;
        this.emit({ type: 'delta', turnId: turn.id, text, thought });
      },
    );
    const content = primaryCandidate(result.response)?.content;
    turn.reply =
      content && Array.isArray(content.parts) && content.parts.length > 0
        ? { role: typeof content.role === 'string' ? content.role : 'model', parts: historyParts(content) }
        : null;
    const s = this.summarize(result);
    this.env.log(
      'info',
      `generation: ${s.state}${s.finish ? ` (${s.finish.reason})` : ''}${s.error ? ` ${s.error.code} ${s.error.status}` : ''}`,
    );
    return s;
  }

  private async save(): Promise<void> {
    this.conversation.updated = Date.now();
    try {
      await this.store.save(this.conversation);
    } catch (e) {
      this.env.log('error', `generation: the conversation could not be saved: ${messageOf(e)}`);
    }
  }

  private async finish(turn: StoredTurn, summary: TurnSummary): Promise<void> {
    turn.summary = summary;
    await this.save();
    this.emit({ type: summary.state === 'error' ? 'failed' : 'finished', turnId: turn.id, text: turn.text, summary });
  }

  /** Runs (or declines) the function calls of a turn and sends the results back; resolves with the next turn's id. */
  async decideCalls(turnId: string, approve: boolean, auto = false): Promise<string | undefined> {
    const turn = this.conversation.turns.find((t) => t.id === turnId);
    if (!turn || turn.summary.state !== 'awaitingApproval' || this.running || this.deciding) return undefined;
    this.deciding = true;
    const parts: Part[] = [];
    const decided: FunctionCallView[] = [];
    try {
      for (const call of turn.summary.functionCalls) {
        let response: Record<string, unknown> | undefined;
        if (!approve) response = { error: 'The user declined to run this function.' };
        else {
          try {
            response = await this.env.runTool(call);
          } catch (e) {
            response = { error: `${call.name} failed: ${messageOf(e)}` };
          }
          if (response === undefined) return undefined;
        }
        decided.push({
          ...call,
          decision: approve ? (auto ? 'auto' : 'approved') : 'rejected',
          result: JSON.stringify(response).slice(0, 2000),
        });
        parts.push({ functionResponse: { name: call.name, response } });
      }
      turn.summary = { ...turn.summary, state: 'done', functionCalls: decided };
      await this.save();
      this.emit({ type: 'toolCallDecided', turnId: turn.id, text: turn.text, summary: turn.summary });
    } finally {
      this.deciding = false;
    }
    const label = decided.map((c) => `${c.name} → ${c.decision}`).join(', ');
    const next = await this.send(`Function results: ${label}`, {
      kind: 'functionResult',
      sent: [{ role: 'function', parts }],
    });
    return 'turnId' in next ? next.turnId : undefined;
  }
}
