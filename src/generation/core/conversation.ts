// Conversations as stored per workspace: what was shown (TurnView) plus the exact contents
// that go back to the model as history (thought signatures included, empty parts dropped).
import type { Content } from '../../shared/wire/generation';
import type { ConversationInfo, TurnView } from '../protocol';

export interface StoredTurn extends TurnView {
  /** Contents this turn added on the user side (a prompt, or function responses). */
  sent: Content[];
  /** The model's reply as assembled; null when nothing usable came back. */
  reply: Content | null;
}

export interface Conversation extends ConversationInfo {
  turns: StoredTurn[];
  /** Named by the user: the title no longer follows the first prompt. */
  renamed?: boolean;
}

/** A key-value store with VS Code Memento's shape, so persistence stays testable. */
export interface KeyValueStore {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void> | Promise<void>;
}

const KEY = 'apiWorkbench.generation.conversations';
const MAX_CONVERSATIONS = 50;

export function newConversation(now = Date.now()): Conversation {
  return {
    id: `c${now.toString(36)}${Math.random().toString(36).slice(2, 6)}`,
    title: 'New chat',
    updated: now,
    turns: [],
  };
}

/** The history sent with the next request: every finished exchange, in order. */
export function historyOf(c: Conversation): Content[] {
  const out: Content[] = [];
  for (const t of c.turns) {
    // A stopped or failed turn is left out whole: a half answer would mislead the model.
    if (!t.reply || t.summary.state === 'error' || t.summary.state === 'blocked' || t.summary.state === 'stopped')
      continue;
    out.push(...t.sent, t.reply);
  }
  return out;
}

export function titleFrom(prompt: string): string {
  const line = prompt.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 57)}…` : line || 'New chat';
}

export class ConversationStore {
  constructor(private readonly store: KeyValueStore) {}

  all(): Conversation[] {
    const list = this.store.get<Conversation[]>(KEY);
    return Array.isArray(list) ? list : [];
  }

  get(id: string): Conversation | undefined {
    return this.all().find((c) => c.id === id);
  }

  async save(c: Conversation): Promise<void> {
    const rest = this.all().filter((x) => x.id !== c.id);
    const list = [c, ...rest].sort((a, b) => b.updated - a.updated).slice(0, MAX_CONVERSATIONS);
    await this.store.update(KEY, list);
  }

  async delete(id: string): Promise<void> {
    await this.store.update(
      KEY,
      this.all().filter((c) => c.id !== id),
    );
  }
}
