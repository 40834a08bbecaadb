// Retry, edit-and-resend, regenerate and titles of a chat session, against the in-process generation
// emulator: what is replaced, what is kept, and that a refused resend loses nothing.
import * as assert from 'node:assert/strict';
import { ChatSession } from '../../../src/generation/core/chatSession';
import type { ChatEnvironment, ChatEvent, SendOutcome } from '../../../src/generation/core/chatTypes';
import { ConversationStore, newConversation, type KeyValueStore } from '../../../src/generation/core/conversation';
import { DEFAULT_SETTINGS } from '../../../src/generation/core/settings';
import type { PanelSettings } from '../../../src/generation/protocol';
import { startGenerationEmulator, type TestServer } from './emulatorServer';

class MemoryState implements KeyValueStore {
  readonly values = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }
  update(key: string, value: unknown): Promise<void> {
    this.values.set(key, JSON.parse(JSON.stringify(value)));
    return Promise.resolve();
  }
}

function started(outcome: SendOutcome): string {
  assert.ok('turnId' in outcome, `refused: ${JSON.stringify(outcome)}`);
  return outcome.turnId;
}

describe('generation chat: retry, edit, regenerate, titles', function () {
  this.timeout(20_000);
  let server: TestServer;
  before(async () => {
    server = await startGenerationEmulator();
  });
  after(() => server.close());

  function harness() {
    const store = new ConversationStore(new MemoryState());
    const events: ChatEvent[] = [];
    const env: ChatEnvironment & { settingsValue: PanelSettings; apiKey: string | undefined } = {
      settingsValue: { ...DEFAULT_SETTINGS },
      apiKey: server.apiKey,
      connection: () =>
        Promise.resolve({
          baseUrl: server.origin,
          apiKey: env.apiKey,
          keyInQuery: false,
          sandbox: true,
          maxAttempts: 1,
        }),
      settings: () => env.settingsValue,
      tools: () => Promise.resolve({ tools: [], problems: [] }),
      runTool: () => Promise.resolve({}),
      autoRun: () => false,
      log: () => undefined,
    };
    const session = new ChatSession(newConversation(), store, env);
    session.onEvent((e) => events.push(e));
    const send = async (p: SendOutcome | Promise<SendOutcome>) => {
      const id = started(await p);
      await session.idle();
      return session.turns.find((t) => t.id === id)!;
    };
    return { store, events, env, session, send };
  }

  it('Retry sends a failed reply again in its place and keeps the earlier turns', async () => {
    const h = harness();
    await h.send(h.session.send('First question [[fast]]'));
    h.env.apiKey = undefined;
    const failed = await h.send(h.session.send('Second question [[fast]]'));
    assert.equal(failed.summary.state, 'error');
    h.env.apiKey = server.apiKey;
    const retried = await h.send(h.session.resend(failed.id));
    assert.equal(retried.summary.state, 'done');
    assert.match(retried.text, /Second question/);
    assert.notEqual(retried.id, failed.id);
    assert.deepEqual(
      h.session.turns.map((t) => t.prompt),
      ['First question [[fast]]', 'Second question [[fast]]'],
      'the failed turn is replaced, not kept beside the retry',
    );
    const stored = h.store.get(h.session.conversation.id)!;
    assert.deepEqual(
      stored.turns.map((t) => t.id),
      h.session.turns.map((t) => t.id),
    );
    const replaced = h.events.find((e) => e.type === 'conversation' && e.turns);
    assert.ok(replaced?.type === 'conversation');
    assert.deepEqual(
      replaced.turns?.map((t) => t.prompt),
      ['First question [[fast]]'],
      'surfaces are told which turns remain before the new one starts',
    );
  });

  it('Regenerate asks again with the same history and replaces only the last reply', async () => {
    const h = harness();
    const a = await h.send(h.session.send('Alpha [[fast]]'));
    const b = await h.send(h.session.send('Beta [[fast]]'));
    assert.equal(h.session.laterTurns(a.id), 1);
    assert.equal(h.session.laterTurns(b.id), 0);
    const again = await h.send(h.session.resend(b.id));
    assert.equal(again.summary.state, 'done');
    assert.deepEqual(
      h.session.turns.map((t) => t.id),
      [a.id, again.id],
    );
    assert.deepEqual(again.sent, b.sent, 'the same contents go out again');
  });

  it('an edited prompt replaces its turn and every later one, keeps its attachments and retitles the chat', async () => {
    const h = harness();
    h.session.attach({ label: 'notes.txt', parts: [{ text: 'ATTACHED NOTES' }] });
    const first = await h.send(h.session.send('Original question [[fast]]'));
    await h.send(h.session.send('Follow-up [[fast]]'));
    assert.equal(h.session.conversation.title, 'Original question [[fast]]');
    const edited = await h.send(h.session.resend(first.id, '  Edited question [[fast]]  '));
    assert.deepEqual(
      h.session.turns.map((t) => t.id),
      [edited.id],
    );
    assert.equal(edited.prompt, 'Edited question [[fast]]');
    assert.match(edited.text, /Edited question/);
    assert.deepEqual(edited.sent, [
      { role: 'user', parts: [{ text: 'ATTACHED NOTES' }, { text: 'Edited question [[fast]]' }] },
    ]);
    assert.equal(h.session.conversation.title, 'Edited question [[fast]]');
    assert.equal(h.store.get(h.session.conversation.id)?.title, 'Edited question [[fast]]');
  });

  it('a resend refused by the request checks loses nothing', async () => {
    const h = harness();
    const a = await h.send(h.session.send('Keep me [[fast]]'));
    const b = await h.send(h.session.send('And me [[fast]]'));
    h.env.settingsValue = { ...h.env.settingsValue, temperature: 3 };
    const refused = await h.session.resend(a.id, 'Would replace both');
    assert.ok('problems' in refused && refused.problems.some((p) => /temperature/.test(p)), JSON.stringify(refused));
    assert.deepEqual(
      h.session.turns.map((t) => t.id),
      [a.id, b.id],
    );
    assert.ok('problems' in (await h.session.resend('no-such-turn')));
    assert.ok('problems' in (await h.session.resend(a.id, '   ')), 'an empty edit is refused');
  });

  it('the title follows the first prompt at once; a rename sticks, is saved and survives an edit', async () => {
    const h = harness();
    assert.equal(h.session.conversation.title, 'New chat');
    const turnId = started(await h.session.send('What is a discovery document? [[fast]]'));
    const titled = h.events.findIndex((e) => e.type === 'conversation');
    const begun = h.events.findIndex((e) => e.type === 'turnStarted');
    assert.ok(titled >= 0 && titled < begun, 'the title event comes before the reply starts');
    await h.session.idle();
    assert.equal(await h.session.rename('  Discovery   notes '), true);
    assert.equal(h.session.conversation.title, 'Discovery notes');
    assert.equal(h.store.get(h.session.conversation.id)?.title, 'Discovery notes', 'saved at once');
    assert.equal(await h.session.rename('   '), false, 'an empty name is refused');
    await h.send(h.session.resend(turnId, 'Another first prompt [[fast]]'));
    assert.equal(h.session.conversation.title, 'Discovery notes', 'a name the user gave is kept');
    assert.equal(await h.session.rename('x'.repeat(500)), true);
    assert.ok(h.session.info.title.length <= 120);
  });
});
