// What a chat session exchanges with its host and its surfaces: the environment it runs in, the
// events it emits, and the outcome of a send.
import type { Part, Tool } from '../../shared/wire/generation';
import type { ConversationInfo, FunctionCallView, PanelSettings, TurnSummary, TurnView } from '../protocol';
import type { streamGenerateContent } from './client';
import type { summarize } from './summary';

export interface ChatConnection {
  baseUrl: string;
  /** Undefined when no key is set: the turn then fails with a way to set one. */
  apiKey: string | undefined;
  keyInQuery: boolean;
  sandbox: boolean;
  maxAttempts: number;
}

/** What a session needs from its host: settings, endpoint, tools and the user's decisions. */
export interface ChatEnvironment {
  /** Resolved for every request: settings and keys change between turns. */
  connection(): Promise<ChatConnection>;
  settings(): PanelSettings;
  tools(settings: PanelSettings): Promise<{ tools: Tool[]; problems: string[] }>;
  /** Runs an approved call; undefined when the user cancelled (the calls then stay undecided). */
  runTool(call: FunctionCallView): Promise<Record<string, unknown> | undefined>;
  /** Whether these calls may run without asking the user. */
  autoRun(calls: FunctionCallView[]): boolean;
  log(level: 'info' | 'error', line: string): void;
}

/** Replaceable for tests: the stream (to feed hostile chunks) and the summarizer. */
export interface ChatDependencies {
  stream?: typeof streamGenerateContent;
  summarize?: typeof summarize;
}

export type ChatEvent =
  | { type: 'turnStarted'; turn: TurnView }
  | { type: 'delta'; turnId: string; text: string; thought: string }
  | { type: 'status'; text: string }
  | { type: 'refused'; problems: string[] }
  /** The turn ended; `summary.state` says how (done, stopped, blocked, awaitingApproval). */
  | { type: 'finished'; turnId: string; text: string; summary: TurnSummary }
  /** The turn ended with an error; its partial text is kept. */
  | { type: 'failed'; turnId: string; text: string; summary: TurnSummary }
  | { type: 'toolCallPending'; turnId: string; calls: FunctionCallView[] }
  | { type: 'toolCallDecided'; turnId: string; text: string; summary: TurnSummary }
  /** The conversation's title changed (first prompt, rename) or turns were replaced (resend). */
  | { type: 'conversation'; info: ConversationInfo; turns?: TurnView[] };

export type SendOutcome = { turnId: string } | { problems: string[] };

export interface Attachment {
  label: string;
  parts: Part[];
}
