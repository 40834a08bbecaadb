// The live chat sessions of a workspace, one per conversation, shared by every surface that shows
// it: two views of one conversation see the same turns and the same running stream.
import { ChatSession } from './chatSession';
import type { ChatDependencies, ChatEnvironment } from './chatTypes';
import { newConversation, type ConversationStore } from './conversation';
import type { ConversationInfo } from '../protocol';

export class ChatSessions {
  private readonly live = new Map<string, { session: ChatSession; users: number }>();

  constructor(
    private readonly store: ConversationStore,
    private readonly env: ChatEnvironment,
    private readonly deps: ChatDependencies = {},
  ) {}

  /** The session of a stored conversation (undefined when there is none); release it when done showing it. */
  acquire(id: string): ChatSession | undefined {
    const known = this.live.get(id);
    if (known) {
      known.users++;
      return known.session;
    }
    const conversation = this.store.get(id);
    return conversation ? this.track(new ChatSession(conversation, this.store, this.env, this.deps)) : undefined;
  }

  /** A new, empty conversation (stored with its first turn). */
  create(): ChatSession {
    return this.track(new ChatSession(newConversation(), this.store, this.env, this.deps));
  }

  /** A surface stopped showing the session; the last one out drops it from memory (the store keeps it). */
  release(session: ChatSession): void {
    const entry = this.live.get(session.conversation.id);
    if (!entry || entry.session !== session) return;
    if (--entry.users > 0) return;
    this.live.delete(session.conversation.id);
    session.dispose();
  }

  async delete(id: string): Promise<void> {
    const entry = this.live.get(id);
    entry?.session.stop();
    await this.store.delete(id);
  }

  list(): ConversationInfo[] {
    return this.store.all().map(({ id, title, updated }) => ({ id, title, updated }));
  }

  dispose(): void {
    for (const { session } of this.live.values()) session.dispose();
    this.live.clear();
  }

  private track(session: ChatSession): ChatSession {
    this.live.set(session.conversation.id, { session, users: 1 });
    return session;
  }
}
