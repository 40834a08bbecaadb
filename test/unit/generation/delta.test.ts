// One chunk → the text it adds, shared by the panel's session and the CLI.
import * as assert from 'node:assert/strict';
import { chunkDelta, primaryCandidate } from '../../../src/generation/core/delta';
import type { GenerateContentResponse } from '../../../src/shared/wire/generation';

describe('generation chunk delta', () => {
  it('splits answer and thought text of the first candidate', () => {
    const chunk: GenerateContentResponse = {
      candidates: [
        {
          index: 0,
          content: {
            parts: [
              { text: 'think', thought: true },
              { text: 'An' },
              { inlineData: { mimeType: 'image/png', data: 'AA==' } },
              { text: 'swer' },
            ],
          },
        },
      ],
    };
    assert.deepEqual(chunkDelta(chunk), { text: 'Answer', thought: 'think' });
  });

  it('takes the candidate whose index is 0, by position when the index is missing, never another', () => {
    assert.deepEqual(chunkDelta({ candidates: [{ index: 1, content: { parts: [{ text: 'second' }] } }] }), {
      text: '',
      thought: '',
    });
    assert.deepEqual(
      chunkDelta({
        candidates: [
          { index: 1, content: { parts: [{ text: 'b' }] } },
          { index: 0, content: { parts: [{ text: 'a' }] } },
        ],
      }).text,
      'a',
    );
    assert.deepEqual(
      chunkDelta({ candidates: [{ content: { parts: [{ text: 'a' }] } }, { content: { parts: [{ text: 'b' }] } }] })
        .text,
      'a',
    );
    assert.equal(primaryCandidate({}), undefined);
  });

  it('adds nothing, and never throws, for chunks of the wrong shape', () => {
    const hostile: unknown[] = [
      { candidates: 5 },
      { candidates: [null, 7, 'x'] },
      { candidates: [{ content: 'text' }] },
      { candidates: [{ content: { parts: {} } }] },
      { candidates: [{ content: { parts: [null, 3, { text: 42 }, { text: ['a'] }] } }] },
      { candidates: [{ index: '0', content: { parts: [{ text: 'by position' }] } }] },
    ];
    const out = hostile.map((h) => chunkDelta(h as GenerateContentResponse));
    assert.deepEqual(out.slice(0, 5), Array(5).fill({ text: '', thought: '' }));
    assert.equal(out[5].text, 'by position', 'an index that is not a number counts as the position');
  });
});
