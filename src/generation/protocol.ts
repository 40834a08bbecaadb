// The one contract between the generation panel's host side and its webview. Both import this
// file; nothing else crosses the boundary. Every message is discriminated by `type`.

export const GENERATION_VIEW_ID = 'apiWorkbench.generation';
/** The chat as an editor tab (a WebviewPanel; restored on reload by a serializer of this type). */
export const CHAT_PANEL_VIEW_TYPE = 'apiWorkbench.generation.chat';

/** What an editor tab's page keeps (vscode.setState) for its serializer: which conversation it shows. */
export interface ChatPanelState {
  conversationId?: string;
  draft?: string;
}

export type TurnState = 'streaming' | 'done' | 'stopped' | 'error' | 'blocked' | 'awaitingApproval';

export interface RatingView {
  category: string;
  probability: string;
  blocked: boolean;
}

export interface CitationView {
  n: number;
  uri?: string;
  license?: string;
  /** The passage the source covers (mapped from UTF-8 byte offsets). */
  text: string;
  /** Where that passage sits in the reply text, in UTF-16 units (end exclusive). Absent in histories saved before marks existed. */
  start?: number;
  end?: number;
}

export interface ExplanationView {
  label: string;
  meaning: string;
  advice?: string;
  warning: boolean;
}

export interface ErrorView {
  code: number;
  status: string;
  message: string;
  advice: string;
  /** A button the panel shows next to the error. */
  action?: 'setApiKey' | 'retry' | 'openSettings';
}

export interface FunctionCallView {
  name: string;
  args: Record<string, unknown>;
  /** Set once decided. */
  decision?: 'approved' | 'rejected' | 'auto';
  result?: string;
}

export interface UsageView {
  prompt?: number;
  cached?: number;
  candidates?: number;
  thoughts?: number;
  total?: number;
}

/** Everything the panel shows about one reply besides its text. */
export interface TurnSummary {
  state: TurnState;
  finish?: ExplanationView & { reason: string };
  finishMessage?: string;
  block?: ExplanationView & { reason: string; message?: string };
  promptRatings: RatingView[];
  ratings: RatingView[];
  citations: CitationView[];
  usage?: UsageView;
  modelVersion?: string;
  error?: ErrorView;
  /** The reply stopped before a finish reason: shown as partial. */
  incomplete: boolean;
  functionCalls: FunctionCallView[];
  retries?: number;
  /** Fields of the reply that had the wrong shape: ignored for display, kept raw, reported here. */
  warnings?: string[];
}

export interface TurnView {
  id: string;
  /** What the user asked (or a description of a function result sent back). */
  prompt: string;
  kind: 'prompt' | 'functionResult';
  model: string;
  text: string;
  thoughts: string;
  summary: TurnSummary;
}

export interface ConversationInfo {
  id: string;
  title: string;
  updated: number;
}

export const SAFETY_CATEGORIES = [
  'HARM_CATEGORY_HATE_SPEECH',
  'HARM_CATEGORY_SEXUALLY_EXPLICIT',
  'HARM_CATEGORY_DANGEROUS_CONTENT',
  'HARM_CATEGORY_HARASSMENT',
] as const;

export interface PanelSettings {
  model: string;
  systemInstruction: string;
  temperature?: number;
  topP?: number;
  topK?: number;
  maxOutputTokens?: number;
  stopSequences: string[];
  candidateCount?: number;
  jsonMode: boolean;
  /** JSON text of the response schema (edited as text, parsed on send). */
  responseSchema: string;
  /** Category → threshold; absent categories use the service default. */
  safety: Record<string, string>;
  cachedContent: string;
  /** Offer the built-in read-only workspace tools to the model. */
  builtinTools: boolean;
}

export interface PanelInit {
  settings: PanelSettings;
  models: string[];
  conversation: ConversationInfo;
  conversations: ConversationInfo[];
  turns: TurnView[];
  endpoint: { sandbox: boolean; hasKey: boolean };
  busy: boolean;
  /** Where the chat is shown: the side-bar view offers "Open in Editor". */
  surface: 'view' | 'editor';
  /** Only in ExtensionMode.Test: report what was rendered after each flush (`rendered` messages). */
  testAcks: boolean;
}

export type HostToWebview =
  | { type: 'init'; data: PanelInit }
  | { type: 'models'; models: string[]; error?: string }
  | { type: 'turnStart'; turn: TurnView }
  | { type: 'delta'; turnId: string; text: string; thought: string }
  | { type: 'turnEnd'; turnId: string; text: string; summary: TurnSummary }
  | { type: 'problems'; messages: string[] }
  | { type: 'status'; text: string }
  | { type: 'tokens'; count?: number; error?: string }
  /** The title changed, or a resend replaced turns (`turns`: those kept, shown again before the new one starts). */
  | { type: 'conversation'; info: ConversationInfo; turns?: TurnView[] }
  /** Test mode only: asks the page for the state it keeps for the serializer. */
  | { type: 'reportState' };

export type WebviewToHost =
  | { type: 'ready' }
  | { type: 'send'; prompt: string }
  | { type: 'stop' }
  | { type: 'newChat' }
  | { type: 'openConversation'; id: string }
  | { type: 'deleteConversation'; id: string }
  | { type: 'settings'; settings: PanelSettings }
  | { type: 'refreshModels' }
  | { type: 'countTokens'; prompt: string }
  | { type: 'setApiKey' }
  | { type: 'openLink'; href: string }
  | { type: 'copyCode'; code: string }
  | { type: 'insertCode'; code: string }
  | { type: 'newFile'; code: string; language: string }
  | { type: 'decideCall'; turnId: string; approve: boolean }
  | { type: 'export'; format: 'markdown' | 'json' }
  | { type: 'attach'; what: 'selection' | 'activeFile' | 'files' | 'image' }
  /** Retry / Regenerate (no prompt) or edit-and-resend (new prompt text) of a turn; later turns are replaced. */
  | { type: 'resend'; turnId: string; prompt?: string }
  | { type: 'rename' }
  | { type: 'openInEditor' }
  /** Test mode only: the page's saved state, in answer to `reportState`. */
  | { type: 'state'; state: ChatPanelState }
  /** Acknowledges what the panel shows, so host tests can check it without DOM access; sent only when `PanelInit.testAcks`. */
  | {
      type: 'rendered';
      turnId: string;
      state: TurnState;
      textLength: number;
      visibleText: string;
      notices: string[];
      /** The text highlighted in the reply for each citation, in citation order ('' when it could not be placed). */
      cited: string[];
      /** Each code block the reply shows: its language, its code and whether it has the Copy / Insert bar. */
      codeBlocks: { language: string; code: string; actions: boolean }[];
    };

export type RenderedAck = Extract<WebviewToHost, { type: 'rendered' }>;
