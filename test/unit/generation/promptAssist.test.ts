// Completion and hover data of .prompt files (the editor adapter shows them as they are).
import * as assert from 'node:assert/strict';
import {
  completionsAt,
  declaredVariables,
  hoverAt,
  inModelValue,
  unknownModelProblem,
} from '../../../src/generation/core/prompt/assist';

const FILE = [
  '---',
  'model: gemini-2.0-flash',
  'config:',
  '  temp',
  'input:',
  '  schema:',
  '    city: string',
  '    days?: integer, how long',
  '    tags(array): string',
  '  default:',
  '    mood: calm',
  '---',
  '{{role "user"}} Plan {{',
].join('\n');

describe('prompt file completion and hover', () => {
  it('frontmatter keys at the top level, generation settings under config', () => {
    const top = completionsAt(FILE, 4, 0).map((i) => i.label);
    assert.ok(
      ['model', 'config', 'input', 'output', 'metadata'].every((k) => top.includes(k)),
      top.join(),
    );
    const config = completionsAt(FILE, 3, 6);
    assert.ok(config.some((i) => i.label === 'temperature' && i.kind === 'setting'));
    assert.ok(config.some((i) => i.label === 'maxOutputTokens'));
    assert.deepEqual(completionsAt(FILE, 1, 8), [], 'no key completion in a value');
  });

  it('input variables (schema and defaults) and helpers after {{ in the template', () => {
    assert.deepEqual(declaredVariables(FILE), ['city', 'days', 'tags', 'mood']);
    const items = completionsAt(FILE, 12, '{{role "user"}} Plan {{'.length);
    assert.deepEqual(
      items.filter((i) => i.kind === 'variable').map((i) => i.label),
      ['city', 'days', 'tags', 'mood'],
    );
    assert.ok(items.some((i) => i.label === 'media' && i.kind === 'helper'));
    assert.deepEqual(completionsAt(FILE, 12, 20), [], 'nothing outside {{ }}');
  });

  it('model names complete in the value of the top-level model: key only', () => {
    assert.equal(inModelValue(FILE, 1, 'model: gemini'.length), true);
    assert.equal(inModelValue(FILE, 1, 3), false, 'in the key');
    assert.equal(inModelValue(FILE, 3, 4), false, 'under config');
    assert.equal(inModelValue(FILE, 12, 3), false, 'in the template');
  });

  it('hover: a frontmatter key, a setting, a helper; nothing on a value', () => {
    assert.match(hoverAt(FILE, 1, 2)?.text ?? '', /model to run/);
    assert.equal(hoverAt(FILE, 3, 3), undefined, 'temp is not a setting');
    assert.match(hoverAt('---\nconfig:\n  topK: 3\n---\nx', 2, 3)?.text ?? '', /K most likely/);
    assert.match(hoverAt(FILE, 12, 3)?.text ?? '', /turn of that role/);
    assert.equal(hoverAt(FILE, 1, 12), undefined);
  });

  it('a model not in models.list: a warning at its value naming the closest models; prefixes and quotes allowed', () => {
    const known = ['gemini-2.0-flash', 'gemini-2.0-flash-lite', 'gemini-2.5-pro', 'gemini-2.5-flash'];
    const at = (model: string) => ['---', 'config:', '  temperature: 1', model, '---', 'Hi'].join('\n');
    assert.equal(unknownModelProblem(at('model: gemini-2.0-flash'), known), undefined);
    assert.equal(unknownModelProblem(at('model: googleai/gemini-2.5-pro  # fast'), known), undefined);
    assert.equal(unknownModelProblem(at('model: "models/gemini-2.5-flash"'), known), undefined);
    const p = unknownModelProblem(at('model: gemini-2.0-flsh'), known);
    assert.deepEqual(p && [p.line, p.column, p.severity, p.code], [4, 7, 'warning', 'model-unknown']);
    assert.match(
      p!.message,
      /gemini-2\.0-flsh is not among this endpoint's models.*gemini-2\.0-flash, gemini-2\.0-flash-lite/,
    );
    // A model: line in the template, or nested under another key, is not the frontmatter's model.
    assert.equal(unknownModelProblem(['---', 'config:', '  model: x', '---', 'model: y'].join('\n'), known), undefined);
    assert.equal(unknownModelProblem('model: nope', known), undefined, 'no frontmatter');
  });
});
