// The chat's export files: Markdown that reads right even when a reply was cut inside a code block,
// a versioned JSON envelope, and file names that are safe whatever the title.
import * as assert from 'node:assert/strict';
import type { Conversation, StoredTurn } from '../../../src/generation/core/conversation';
import { exportContent, exportFileName, toJson, toMarkdown } from '../../../src/generation/core/export';
import type { TurnSummary } from '../../../src/generation/protocol';

function turn(prompt: string, text: string, summary: Partial<TurnSummary> = {}): StoredTurn {
  return {
    id: `t-${prompt}`,
    prompt,
    kind: 'prompt',
    model: 'models/m',
    text,
    thoughts: '',
    summary: {
      state: 'done',
      promptRatings: [],
      ratings: [],
      citations: [],
      incomplete: false,
      functionCalls: [],
      ...summary,
    },
    sent: [{ role: 'user', parts: [{ text: prompt }] }],
    reply: { role: 'model', parts: [{ text }] },
  };
}

const chat: Conversation = {
  id: 'c1',
  title: 'Adding numbers',
  updated: 1,
  turns: [
    turn('Write add()', 'Here:\n\n```ts\nfunction add(a: number, b: number) {\n  return a + b;\n}\n```\n', {
      citations: [{ n: 1, uri: 'https://example.com/add', license: 'mit', text: 'return a + b;' }],
    }),
    turn('Now subtract', 'Sure:\n\n```ts\nfunction sub(a: number', { state: 'stopped', incomplete: true }),
    turn('And after?', 'Plain text after the cut block.'),
  ],
};

describe('generation chat export', () => {
  it('writes Markdown with every turn, its sources, and a cut code block closed before the next turn', () => {
    const md = toMarkdown(chat);
    assert.match(md, /^# Adding numbers\n/);
    assert.match(md, /## You\n\nWrite add\(\)\n\n## Model \(models\/m\)\n\nHere:/);
    assert.match(md, /\[1\] https:\/\/example\.com\/add \(mit\)/);
    assert.match(md, /function sub\(a: number\n```\n/, 'the open fence is closed');
    assert.match(md, /> Stopped: the reply above is partial\./);
    // Outside any fence, the last turn's heading is a heading again.
    const fences = md.split('\n').filter((l) => /^```/.test(l)).length;
    assert.equal(fences % 2, 0, 'fences are balanced');
    assert.ok(md.indexOf('## You\n\nAnd after?') > md.indexOf('function sub'));
  });

  it('writes JSON as a versioned envelope holding the stored turns, history contents included', () => {
    const json = JSON.parse(toJson(chat, new Date('2026-01-02T03:04:05Z'))) as Record<string, unknown>;
    assert.equal(json.format, 'api-workbench-chat');
    assert.equal(json.version, 1);
    assert.equal(json.title, 'Adding numbers');
    assert.equal(json.exportedAt, '2026-01-02T03:04:05.000Z');
    assert.deepEqual(json.turns, JSON.parse(JSON.stringify(chat.turns)));
    assert.equal(exportContent(chat, 'markdown'), toMarkdown(chat));
  });

  it('names the file after the title, safely', () => {
    assert.equal(exportFileName('Adding numbers', 'markdown'), 'adding-numbers.md');
    assert.equal(exportFileName('Café: "résumé" / ../etc', 'json'), 'cafe-resume-etc.json');
    assert.equal(exportFileName('???', 'json'), 'chat.json');
    assert.equal(exportFileName('', 'markdown'), 'chat.md');
    assert.ok(exportFileName('a'.repeat(300), 'markdown').length <= 63);
  });
});
