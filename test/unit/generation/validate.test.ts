import * as assert from 'node:assert/strict';
import { validateRequest } from '../../../src/generation/core';
import type { GenerateContentRequest } from '../../../src/shared/wire/generation';

const ok: GenerateContentRequest = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };

describe('generation request checks', () => {
  it('accepts a plain request for models/ and tunedModels/ names', () => {
    assert.deepEqual(validateRequest('models/gemini-2.5-flash', ok), []);
    assert.deepEqual(validateRequest('tunedModels/my-bot-1', ok), []);
  });

  it('names each broken rule once', () => {
    const cases: [string, GenerateContentRequest, RegExp][] = [
      ['gemini-2.5-flash', ok, /models\/<id> or tunedModels\/<name>/],
      [
        'models/m',
        { ...ok, generationConfig: { stopSequences: ['1', '2', '3', '4', '5', '6'] } },
        /stopSequences has 6 entries; at most 5/,
      ],
      ['models/m', { ...ok, generationConfig: { candidateCount: 2 } }, /candidateCount is 2; only 1/],
      [
        'models/m',
        { ...ok, generationConfig: { temperature: 2.5 } },
        /temperature is 2.5; it must be between 0.0 and 2.0/,
      ],
      ['models/m', { ...ok, generationConfig: { temperature: -0.1 } }, /temperature/],
      [
        'models/m',
        { ...ok, generationConfig: { responseSchema: { type: 'STRING' } } },
        /responseSchema requires responseMimeType "application\/json"/,
      ],
      [
        'models/m',
        { ...ok, safetySettings: [{ category: 'HARM_CATEGORY_VIOLENCE', threshold: 'BLOCK_NONE' }] },
        /HARM_CATEGORY_VIOLENCE" is not supported/,
      ],
      [
        'models/m',
        {
          ...ok,
          safetySettings: [
            { category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' },
            { category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_ONLY_HIGH' },
          ],
        },
        /repeats HARM_CATEGORY_HARASSMENT/,
      ],
      ['models/m', { contents: [] }, /at least one message/],
      [
        'models/m',
        { contents: [{ role: 'user', parts: [{ text: 'a', inlineData: { mimeType: 'image/png', data: '' } }] }] },
        /exactly one kind/,
      ],
      ['models/m', { ...ok, cachedContent: 'foo' }, /cachedContents\/<id>/],
      [
        'models/m',
        {
          ...ok,
          tools: [
            { functionDeclarations: [{ name: 'f', parameters: { type: 'OBJECT', properties: {}, required: ['x'] } }] },
          ],
        },
        /requires "x"/,
      ],
    ];
    for (const [model, req, re] of cases) {
      const problems = validateRequest(model, req);
      assert.equal(problems.length, 1, `${re}: ${problems.join(' | ')}`);
      assert.match(problems[0], re);
    }
  });

  it('allows the boundaries', () => {
    assert.deepEqual(
      validateRequest('models/m', {
        ...ok,
        generationConfig: { temperature: 0, stopSequences: ['a', 'b', 'c', 'd', 'e'], candidateCount: 1 },
      }),
      [],
    );
    assert.deepEqual(
      validateRequest('models/m', {
        ...ok,
        generationConfig: { temperature: 2, responseMimeType: 'application/json', responseSchema: { type: 'OBJECT' } },
      }),
      [],
    );
  });
});
