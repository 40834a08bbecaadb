// Fuzz: .prompt files and evaluation datasets, outside input of `api-workbench eval` and (later) the editor.
// Properties: loading a mutated prompt file never throws and never hangs (it returns problems, each at a line
// of the file), a file that loads renders or fails with a PromptRenderError; a mutated dataset parses or fails
// with a DatasetError at one of its lines.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatasetError, parseDataset } from '../../src/generation/core/eval/dataset';
import { PromptFile, PromptRenderError } from '../../src/generation/core/prompt/promptFile';
import { budget, Random } from './fuzz';

const SAMPLES = join(__dirname, '../../samples/generation');
const PROMPTS = ['station-summary.prompt', 'judge.prompt'].map((f) => readFileSync(join(SAMPLES, f), 'utf8'));
const DATASETS: [string, string][] = [
  ['stations.jsonl', readFileSync(join(SAMPLES, 'stations.jsonl'), 'utf8')],
  ['stations.csv', readFileSync(join(SAMPLES, 'stations.csv'), 'utf8')],
];

/** Pieces that matter to the grammars: frontmatter fences, YAML, Handlebars, Picoschema, CSV and JSON. */
const TOKENS = [
  '---',
  '\n',
  '\r\n',
  '  ',
  ':',
  '- ',
  '{{',
  '}}',
  '{{#if x}}',
  '{{/if}}',
  '{{else}}',
  '{{> tone}}',
  '{{role "model"}}',
  '{{media url=x}}',
  '{{json this}}',
  '(array)',
  '(object)',
  '(enum)',
  '?',
  ',',
  '"',
  '[',
  ']',
  '{',
  '}',
  '\t',
  '\u0000',
  'é',
  '😀',
];

function mutate(r: Random, text: string): string {
  let s = text;
  const edits = 1 + r.int(6);
  for (let i = 0; i < edits; i++) {
    const at = r.int(s.length + 1);
    const kind = r.int(3);
    if (kind === 0) s = s.slice(0, at) + r.pick(TOKENS) + s.slice(at);
    else if (kind === 1) s = s.slice(0, at) + s.slice(at + 1 + r.int(12));
    else {
      const from = r.int(s.length + 1);
      s = s.slice(0, at) + s.slice(from, from + r.int(30)) + s.slice(at);
    }
  }
  return s;
}

async function fuzzAsync(
  seed: number,
  limits: { iterations: number; seconds: number },
  body: (r: Random, i: number) => Promise<void>,
): Promise<number> {
  const deadline = performance.now() + limits.seconds * 1000;
  let i = 0;
  for (; i < limits.iterations && performance.now() < deadline; i++) {
    try {
      await body(new Random(seed * 1_000_003 + i), i);
    } catch (e) {
      throw new Error(`seed ${seed} iteration ${i}: ${(e as Error).message}`, { cause: e });
    }
  }
  return i;
}

describe('fuzz: prompt files and datasets', () => {
  it('a mutated .prompt file loads to problems at its lines, or to a prompt that renders', async () => {
    const ran = await fuzzAsync(26, budget({ iterations: 400, seconds: 8 }), async (r) => {
      const text = mutate(r, r.pick(PROMPTS));
      const lines = text.split(/\r\n|\r|\n/).length;
      const { prompt, problems } = await PromptFile.load(text, {
        partials: (name) => Promise.resolve(name === 'tone' ? 'Plain words.' : null),
      });
      for (const p of problems) {
        assert.ok(Number.isInteger(p.line) && p.line >= 1 && p.line <= lines + 1, `line ${p.line} of ${lines}`);
        assert.ok(p.message.length > 0);
      }
      if (!prompt) {
        assert.ok(
          problems.some((p) => p.severity === 'error'),
          'no prompt and no error',
        );
        return;
      }
      try {
        await prompt.render({ station: 'S', characteristic: 'C', value: 1 }, { model: 'gemini-2.0-flash' });
      } catch (e) {
        assert.ok(e instanceof PromptRenderError, String(e));
      }
    });
    assert.ok(ran > 0);
  });

  it('a mutated dataset parses, or fails with a DatasetError at one of its lines', async () => {
    const ran = await fuzzAsync(27, budget({ iterations: 2000, seconds: 4 }), (r) => {
      const [name, base] = r.pick(DATASETS);
      const text = mutate(r, base);
      const lines = text.split(/\r\n|\r|\n/).length;
      try {
        const items = parseDataset(text, name);
        for (const it of items) assert.ok(it.line >= 1 && it.line <= lines);
      } catch (e) {
        assert.ok(e instanceof DatasetError, String(e));
        assert.ok(e.line >= 1 && e.line <= lines + 1, `line ${e.line} of ${lines}`);
      }
      return Promise.resolve();
    });
    assert.ok(ran > 0);
  });
});
