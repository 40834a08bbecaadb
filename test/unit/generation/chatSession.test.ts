// The conversation turn logic without an editor: against the in-process generation emulator for
// real streams, and an injected stream for replies of a shape the emulator never sends.
import * as assert from 'node:assert/strict';
import { ChatSession } from '../../../src/generation/core/chatSession';
import type { ChatEnvironment, ChatEvent } from '../../../src/generation/core/chatTypes';
import { ChatSessions } from '../../../src/generation/core/chatSessions';
import type { StreamResult } from '../../../src/generation/core/client';
import { ConversationStore, newConversation, type KeyValueStore } from '../../../src/generation/core/conversation';
import { DEFAULT_SETTINGS } from '../../../src/generation/core/settings';
import type { FunctionCallView, PanelSettings } from '../../../src/generation/protocol';
import type { GenerateContentResponse } from '../../../src/shared/wire/generation';
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

const LIST_FILES = {
  name: 'list_workspace_files',
  description: 'List files. Read-only.',
  parameters: { type: 'OBJECT', properties: { glob: { type: 'STRING' } } },
};

interface Harness {
  session: ChatSession;
  store: ConversationStore;
  events: ChatEvent[];
  ran: FunctionCallView[];
  logs: string[];
  env: ChatEnvironment & { settingsValue: PanelSettings; auto: boolean; apiKey: string | undefined };
}

function harness(server: TestServer | undefined, deps: ConstructorParameters<typeof ChatSession>[3] = {}): Harness {
  const store = new ConversationStore(new MemoryState());
  const events: ChatEvent[] = [];
  const ran: FunctionCallView[] = [];
  const logs: string[] = [];
  const env = {
    settingsValue: { ...DEFAULT_SETTINGS },
    auto: false,
    apiKey: server?.apiKey ?? 'k',
    connection: () =>
      Promise.resolve({
        baseUrl: server?.origin ?? 'http://127.0.0.1:9',
        apiKey: env.apiKey,
        keyInQuery: false,
        sandbox: true,
        maxAttempts: 1,
      }),
    settings: () => env.settingsValue,
    tools: () => Promise.resolve({ tools: [{ functionDeclarations: [LIST_FILES] }], problems: [] }),
    runTool: (call: FunctionCallView) => {
      ran.push(call);
      return Promise.resolve({ files: ['a.txt', 'b.txt'] });
    },
    autoRun: () => env.auto,
    log: (_level: 'info' | 'error', line: string) => void logs.push(line),
  };
  const session = new ChatSession(newConversation(), store, env, deps);
  session.onEvent((e) => events.push(e));
  return { session, store, events, ran, logs, env };
}

function started(outcome: { turnId: string } | { problems: string[] }): string {
  assert.ok('turnId' in outcome, `refused: ${JSON.stringify(outcome)}`);
  return outcome.turnId;
}

/** A stream that feeds the given chunks and returns them as the outcome, the way the client would. */
function injected(
  chunks: GenerateContentResponse[],
  response: GenerateContentResponse,
): typeof import('../../../src/generation/core/client').streamGenerateContent {
  return (_opts, onChunk) => {
    for (const c of chunks) onChunk?.(c, response);
    const result: StreamResult = {
      response,
      error: null,
      aborted: false,
      incomplete: false,
      chunks: chunks.length,
      attempts: 1,
      problems: [],
    };
    return Promise.resolve(result);
  };
}

describe('generation chat session', () => {
  let server: TestServer;
  before(async () => {
    server = await startGenerationEmulator();
  });
  after(() => server.close());

  it('streams a reply as deltas, ends the turn and saves it', async () => {
    const h = harness(server);
    const turnId = started(await h.session.send('Hello from the session test [[fast]]'));
    assert.equal(h.session.busy, true);
    await h.session.idle();
    assert.equal(h.session.busy, false);
    const [retitled, first] = h.events;
    assert.ok(
      retitled.type === 'conversation' && retitled.info.title === 'Hello from the session test [[fast]]',
      'the title follows the first prompt at once, before the reply starts',
    );
    assert.ok(first.type === 'turnStarted' && first.turn.id === turnId && first.turn.summary.state === 'streaming');
    assert.ok(!('sent' in first.turn), 'the view carries no history contents');
    const deltas = h.events.filter((e): e is Extract<ChatEvent, { type: 'delta' }> => e.type === 'delta');
    assert.ok(deltas.length > 1, `streamed in pieces: ${deltas.length}`);
    const end = h.events[h.events.length - 1];
    assert.equal(end.type, 'finished');
    assert.equal(end.type === 'finished' && end.summary.state, 'done');
    const text = deltas.map((d) => d.text).join('');
    assert.match(text, /Hello from the session test/);
    assert.equal(end.type === 'finished' && end.text, text, 'the final text is the sum of the deltas');
    const saved = h.store.get(h.session.conversation.id)!;
    assert.equal(saved.turns[0].id, turnId);
    assert.equal(saved.turns[0].text, text);
    assert.equal(saved.turns[0].summary.state, 'done');
    assert.equal(saved.title, 'Hello from the session test [[fast]]');
    assert.equal(saved.turns[0].reply?.role, 'model');
  });

  it('refuses a request that breaks the rules, with the rule named, and starts no turn', async () => {
    const h = harness(server);
    h.env.settingsValue = { ...DEFAULT_SETTINGS, temperature: 3 };
    const outcome = await h.session.send('never sent');
    assert.ok(
      'problems' in outcome && outcome.problems.some((p) => /temperature is 3/.test(p)),
      JSON.stringify(outcome),
    );
    assert.deepEqual(
      h.events.map((e) => e.type),
      ['refused'],
    );
    assert.equal(h.session.turns.length, 0);
  });

  it('refuses a second prompt while one streams, and Stop keeps the partial reply', async () => {
    const h = harness(server);
    started(await h.session.send('Stream a lot [[long:400]] [[slow:10]]'));
    const second = await h.session.send('too soon');
    assert.ok('problems' in second && /still streaming/.test(second.problems[0]));
    while (!h.events.some((e) => e.type === 'delta')) await new Promise((r) => setTimeout(r, 5));
    h.session.stop();
    await h.session.idle();
    const end = h.events[h.events.length - 1];
    assert.equal(end.type === 'finished' && end.summary.state, 'stopped');
    assert.match(h.session.turns[0].text, /Line 1 of 400/);
    assert.ok(!h.session.turns[0].text.includes('Line 400 of 400'));
  });

  it('waits for approval of a function call, runs it, and sends the result back', async () => {
    const h = harness(server);
    const ask = started(await h.session.send('Please use list_workspace_files to see the project [[fast]]'));
    await h.session.idle();
    assert.equal(h.session.turns[0].summary.state, 'awaitingApproval');
    assert.ok(h.events.some((e) => e.type === 'toolCallPending' && e.calls[0].name === 'list_workspace_files'));
    assert.deepEqual(h.ran, [], 'nothing runs before the user decides');
    const next = await h.session.decideCalls(ask, true);
    assert.ok(next);
    await h.session.idle();
    const decided = h.events.find(
      (e): e is Extract<ChatEvent, { type: 'toolCallDecided' }> => e.type === 'toolCallDecided',
    )!;
    assert.equal(decided.summary.functionCalls[0].decision, 'approved');
    assert.equal(h.ran.length, 1);
    const answer = h.session.turns[1];
    assert.equal(answer.kind, 'functionResult');
    assert.equal(answer.summary.state, 'done');
    assert.match(answer.text, /list_workspace_files/);
    assert.match(answer.text, /"files"/);
    assert.equal(
      h.store.get(h.session.conversation.id)!.turns[0].summary.functionCalls[0].decision,
      'approved',
      'the decision is saved',
    );
  });

  it('declines a call without running it, and runs read-only calls itself when allowed', async () => {
    const h = harness(server);
    const ask = started(await h.session.send('Use list_workspace_files please [[fast]]'));
    await h.session.idle();
    await h.session.decideCalls(ask, false);
    await h.session.idle();
    assert.deepEqual(h.ran, []);
    assert.equal(h.session.turns[0].summary.functionCalls[0].decision, 'rejected');
    assert.match(h.session.turns[1].text, /declined/);

    const auto = harness(server);
    auto.env.auto = true;
    started(await auto.session.send('Check list_workspace_files again [[fast]]'));
    await auto.session.idle();
    assert.equal(auto.session.turns[0].summary.functionCalls[0].decision, 'auto');
    assert.equal(auto.session.turns[1].summary.state, 'done');
  });

  it('refuses a prompt while the calls it would strand are being run', async () => {
    const h = harness(server);
    let finishTool!: () => void;
    h.env.runTool = () => new Promise((resolve) => (finishTool = () => resolve({ files: [] })));
    const ask = started(await h.session.send('Please use list_workspace_files now [[fast]]'));
    await h.session.idle();
    const deciding = h.session.decideCalls(ask, true);
    await new Promise((r) => setTimeout(r, 10));
    const between = await h.session.send('in between');
    assert.ok('problems' in between && /being run/.test(between.problems[0]), JSON.stringify(between));
    finishTool();
    assert.ok(await deciding, 'the results still go out');
    await h.session.idle();
    assert.deepEqual(
      h.session.turns.map((t) => t.kind),
      ['prompt', 'functionResult'],
    );
  });

  it('ends the turn as failed with a way out when no key is set', async () => {
    const h = harness(server);
    h.env.apiKey = undefined;
    started(await h.session.send('no key'));
    await h.session.idle();
    const end = h.events[h.events.length - 1];
    assert.equal(end.type, 'failed');
    assert.equal(end.type === 'failed' && end.summary.error?.action, 'setApiKey');
    assert.equal(h.store.get(h.session.conversation.id)!.turns[0].summary.state, 'error');
  });

  it('ends a turn whose reply cannot be summarized as failed, saved, with no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => void unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      const chunk: GenerateContentResponse = {
        candidates: [{ index: 0, content: { role: 'model', parts: [{ text: 'Partial answer' }] } }],
      };
      const h = harness(undefined, {
        stream: injected([chunk], chunk),
        summarize: () => {
          throw new TypeError('list.map is not a function');
        },
      });
      started(await h.session.send('anything'));
      await h.session.idle();
      await new Promise((r) => setTimeout(r, 20));
      const end = h.events[h.events.length - 1];
      assert.equal(end.type, 'failed', JSON.stringify(h.events.map((e) => e.type)));
      assert.equal(end.type === 'failed' && end.text, 'Partial answer', 'the text received is kept');
      const saved = h.store.get(h.session.conversation.id)!.turns[0];
      assert.equal(saved.summary.state, 'error');
      assert.match(saved.summary.error!.message, /The reply could not be read: list\.map is not a function/);
      assert.equal(h.session.busy, false, 'the session is free for the next prompt');
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('ends a stream of type-confused fields (citationSources: 5, safetyRatings: {}) and saves it', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => void unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      const hostile = {
        candidates: [
          {
            index: 0,
            content: { role: 'model', parts: [{ text: 'Odd reply' }] },
            finishReason: 'STOP',
            safetyRatings: {},
            citationMetadata: { citationSources: 5 },
          },
        ],
      } as unknown as GenerateContentResponse;
      const h = harness(undefined, { stream: injected([hostile], hostile) });
      started(await h.session.send('anything'));
      await h.session.idle();
      await new Promise((r) => setTimeout(r, 20));
      const end = h.events[h.events.length - 1];
      assert.ok(end.type === 'finished' || end.type === 'failed', JSON.stringify(h.events.map((e) => e.type)));
      const saved = h.store.get(h.session.conversation.id)!.turns[0];
      assert.notEqual(saved.summary.state, 'streaming');
      assert.equal(saved.text, 'Odd reply');
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('keeps a second candidate out of the reply text', async () => {
    const chunks: GenerateContentResponse[] = [
      { candidates: [{ index: 1, content: { parts: [{ text: 'other ' }] } }] },
      {
        candidates: [
          { index: 0, content: { parts: [{ text: 'plan', thought: true }, { text: 'first' }] } },
          { index: 1, content: { parts: [{ text: 'candidate' }] } },
        ],
      },
    ];
    const response: GenerateContentResponse = {
      candidates: [
        { index: 1, content: { role: 'model', parts: [{ text: 'other candidate' }] }, finishReason: 'STOP' },
        {
          index: 0,
          content: { role: 'model', parts: [{ text: 'plan', thought: true }, { text: 'first' }] },
          finishReason: 'STOP',
        },
      ],
    };
    const h = harness(undefined, { stream: injected(chunks, response) });
    started(await h.session.send('two candidates'));
    await h.session.idle();
    assert.equal(h.session.turns[0].text, 'first');
    assert.equal(h.session.turns[0].thoughts, 'plan');
    assert.deepEqual(
      h.session.turns[0].reply?.parts,
      [{ text: 'plan', thought: true }, { text: 'first' }],
      'history keeps the first candidate',
    );
  });

  it('shares one live session per conversation between surfaces and reads it back once released', async () => {
    const state = new MemoryState();
    const store = new ConversationStore(state);
    const h = harness(server);
    const sessions = new ChatSessions(store, h.env);
    const a = sessions.create();
    started(await a.send('Remember: pineapple [[fast]]'));
    await a.idle();
    const b = sessions.acquire(a.conversation.id);
    assert.equal(b, a, 'a second surface gets the same session');
    sessions.release(a);
    assert.equal(sessions.acquire(a.conversation.id), a, 'still shown by one surface');
    sessions.release(a);
    sessions.release(a);
    const again = sessions.acquire(a.conversation.id)!;
    assert.notEqual(again, a, 'released by all: read back from the store');
    assert.equal(again.turns[0].text, a.turns[0].text);
    assert.deepEqual(
      sessions.list().map((c) => c.id),
      [a.conversation.id],
    );
  });
});
