// Editor-free pieces behind the panel: byte-offset citations, summaries, request building, history.
import * as assert from 'node:assert/strict';
import { byteToCharIndex, mapCitations } from '../../../src/generation/core/citations';
import { summarize } from '../../../src/generation/core/summary';
import { buildRequest, DEFAULT_SETTINGS, normalizeSettings } from '../../../src/generation/core/settings';
import {
  ConversationStore,
  historyOf,
  newConversation,
  type StoredTurn,
} from '../../../src/generation/core/conversation';
import { Aggregator, historyParts } from '../../../src/generation/core/aggregate';
import { toMarkdown } from '../../../src/generation/core/export';

describe('generation panel core', () => {
  it('maps UTF-8 byte offsets to the cited characters, past multi-byte text', () => {
    const text = 'Café 秋风 😀 — the cited part.';
    const start = Buffer.byteLength('Café 秋风 😀 — ');
    const end = start + Buffer.byteLength('the cited part');
    const [c] = mapCitations(text, [{ startIndex: start, endIndex: end, uri: 'https://x.test' }]);
    assert.equal(c.text, 'the cited part');
    const [whole] = mapCitations(text, [{ endIndex: Buffer.byteLength('Café') }]);
    assert.equal(whole.text, 'Café', 'a missing startIndex means 0');
    assert.equal(byteToCharIndex('😀a', 4), 2);
  });

  it('summarizes a blocked prompt, a cut reply and an error in words', () => {
    const blocked = summarize({
      response: {
        promptFeedback: {
          blockReason: 'SAFETY',
          safetyRatings: [{ category: 'HARM_CATEGORY_HATE_SPEECH', probability: 'HIGH', blocked: true }],
        },
      },
      error: null,
      aborted: false,
      incomplete: false,
    });
    assert.equal(blocked.state, 'blocked');
    assert.equal(blocked.block!.label, 'Prompt blocked: SAFETY');
    assert.equal(blocked.promptRatings[0].blocked, true);
    assert.equal(blocked.incomplete, false);
    const cut = summarize({
      response: {
        candidates: [{ content: { parts: [{ text: 'abc' }] }, finishReason: 'MAX_TOKENS' }],
        usageMetadata: { promptTokenCount: 2, candidatesTokenCount: 3, totalTokenCount: 5 },
      },
      error: null,
      aborted: false,
      incomplete: false,
    });
    assert.equal(cut.finish!.label, 'Cut at the token limit');
    assert.match(cut.finish!.advice!, /maxOutputTokens/);
    assert.deepEqual(cut.usage, { prompt: 2, cached: undefined, candidates: 3, thoughts: undefined, total: 5 });
    const unknown = summarize({
      response: { candidates: [{ finishReason: 'NEW_REASON' }] },
      error: null,
      aborted: false,
      incomplete: false,
    });
    assert.match(unknown.finish!.meaning, /NEW_REASON/);
    const key = summarize({
      response: {},
      error: { code: 400, status: 'INVALID_ARGUMENT', message: 'API key not valid.', reason: 'API_KEY_INVALID' },
      aborted: false,
      incomplete: true,
    });
    assert.equal(key.state, 'error');
    assert.equal(key.error!.action, 'setApiKey');
    const quota = summarize({
      response: {},
      error: { code: 429, status: 'RESOURCE_EXHAUSTED', message: 'q', perDayQuota: true },
      aborted: false,
      incomplete: true,
    });
    assert.match(quota.error!.advice, /daily quota/);
  });

  it('builds the request from the settings drawer, and reports a schema that is not JSON', () => {
    const s = normalizeSettings({
      ...DEFAULT_SETTINGS,
      temperature: 0.3,
      stopSequences: ['END', ''],
      jsonMode: true,
      responseSchema: '{"type":"OBJECT"}',
      safety: { HARM_CATEGORY_HARASSMENT: 'BLOCK_ONLY_HIGH' },
      systemInstruction: 'Be brief',
      cachedContent: 'cachedContents/abc',
    });
    const { request, problems } = buildRequest(s, [{ role: 'user', parts: [{ text: 'hi' }] }]);
    assert.deepEqual(problems, []);
    assert.deepEqual(request.generationConfig, {
      temperature: 0.3,
      stopSequences: ['END'],
      responseMimeType: 'application/json',
      responseSchema: { type: 'OBJECT' },
    });
    assert.deepEqual(request.safetySettings, [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_ONLY_HIGH' }]);
    assert.deepEqual(request.systemInstruction, { parts: [{ text: 'Be brief' }] });
    assert.equal(request.cachedContent, 'cachedContents/abc');
    assert.match(buildRequest({ ...s, responseSchema: '{oops' }, []).problems[0], /not valid JSON/);
    assert.equal(normalizeSettings({ model: 42, temperature: 'hot' }).model, DEFAULT_SETTINGS.model);
  });

  it('keeps thought signatures for history, drops empty parts, and leaves failed turns out', async () => {
    const a = new Aggregator();
    a.add({ candidates: [{ index: 0, content: { role: 'model', parts: [{ text: 'plan', thought: true }] } }] });
    a.add({
      candidates: [{ index: 0, content: { parts: [{ text: ' more', thought: true, thoughtSignature: 'c2ln' }] } }],
    });
    a.add({
      candidates: [
        { index: 0, content: { parts: [{ text: 'Answer' }, { inlineData: { mimeType: 'image/png', data: 'AA==' } }] } },
      ],
    });
    a.add({ candidates: [{ index: 0, content: { parts: [{ text: '' }] }, finishReason: 'STOP' }] });
    const parts = historyParts(a.response.candidates![0].content);
    assert.deepEqual(parts, [
      { text: 'plan more', thought: true, thoughtSignature: 'c2ln' },
      { text: 'Answer' },
      { inlineData: { mimeType: 'image/png', data: 'AA==' } },
    ]);

    const store = new Map<string, unknown>();
    const kv = {
      get: <T>(k: string) => store.get(k) as T | undefined,
      update: (k: string, v: unknown) => {
        store.set(k, v);
        return Promise.resolve();
      },
    };
    const convo = newConversation();
    const turn = (id: string, state: StoredTurn['summary']['state'], text: string): StoredTurn => ({
      id,
      prompt: `q-${id}`,
      kind: 'prompt',
      model: 'models/m',
      text,
      thoughts: '',
      summary: { state, promptRatings: [], ratings: [], citations: [], incomplete: false, functionCalls: [] },
      sent: [{ role: 'user', parts: [{ text: `q-${id}` }] }],
      reply: { role: 'model', parts: [{ text }] },
    });
    convo.turns.push(turn('1', 'done', 'one'), turn('2', 'stopped', 'partial'), turn('3', 'done', 'three'));
    assert.deepEqual(
      historyOf(convo).map((c) => c.parts![0].text),
      ['q-1', 'one', 'q-3', 'three'],
    );
    const cs = new ConversationStore(kv);
    await cs.save(convo);
    assert.equal(new ConversationStore(kv).get(convo.id)!.turns.length, 3, 'persisted through the store');
    assert.match(toMarkdown(convo), /## You\n\nq-1\n\n## Model \(models\/m\)\n\none/);
  });
});
