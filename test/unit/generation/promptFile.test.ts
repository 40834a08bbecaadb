// The table of .prompt files: each is parsed and rendered by the real `dotprompt` package and mapped to the
// GenerateContentRequest it must become (or to the problems, at lines of the file, it must report).
import * as assert from 'node:assert/strict';
import { PromptFile, type RenderOverrides } from '../../../src/generation/core/prompt/promptFile';
import type { GenerateContentRequest } from '../../../src/shared/wire/generation';

interface Good {
  name: string;
  file: string;
  input?: Record<string, unknown>;
  partials?: Record<string, string>;
  overrides?: RenderOverrides;
  model: string;
  request: GenerateContentRequest;
}

interface Bad {
  name: string;
  file: string;
  partials?: Record<string, string>;
  /** [line, code, a piece of the message] of every error, in order. */
  errors: [number, string, string][];
}

const user = (text: string) => ({ role: 'user', parts: [{ text }] });

const GOOD: Good[] = [
  {
    name: 'no frontmatter: the whole file is the template, untrimmed',
    file: 'Hello {{name}}!\n',
    input: { name: 'Ada' },
    overrides: { model: 'models/gemini-2.0-flash' },
    model: 'gemini-2.0-flash',
    request: { contents: [user('Hello Ada!\n')] },
  },
  {
    name: 'variables are not HTML-escaped; input defaults fill what the input lacks',
    file: '---\nmodel: googleai/gemini-2.5-flash\ninput:\n  default:\n    who: world\n    mark: "&"\n---\nHi {{who}} {{mark}} <{{tag}}>\n',
    input: { tag: 'b' },
    model: 'gemini-2.5-flash',
    request: { contents: [user('Hi world & <b>')] },
  },
  {
    name: 'role helper: system → systemInstruction, user and model → contents in order',
    file: [
      '---',
      'model: gemini-2.0-flash',
      '---',
      '{{role "system"}}',
      'Be brief.',
      '{{role "user"}}',
      'Question one',
      '{{role "model"}}',
      'Answer one',
      '{{role "user"}}',
      'Question {{n}}',
    ].join('\n'),
    input: { n: 2 },
    model: 'gemini-2.0-flash',
    request: {
      contents: [
        { role: 'user', parts: [{ text: '\nQuestion one\n' }] },
        { role: 'model', parts: [{ text: '\nAnswer one\n' }] },
        { role: 'user', parts: [{ text: '\nQuestion 2' }] },
      ],
      systemInstruction: { parts: [{ text: '\nBe brief.\n' }] },
    },
  },
  {
    name: 'json helper (with indent) renders the value as JSON',
    file: '---\nmodel: gemini-2.0-flash\n---\nData: {{json item}}\nPretty: {{json item indent=2}}',
    input: { item: { a: 1, b: ['x'] } },
    model: 'gemini-2.0-flash',
    request: { contents: [user('Data: {"a":1,"b":["x"]}\nPretty: {\n  "a": 1,\n  "b": [\n    "x"\n  ]\n}')] },
  },
  {
    name: 'media helper: a data: URL is inlineData, a URL is fileData',
    file: '---\nmodel: gemini-2.0-flash\n---\nLook {{media url=pic}} and {{media url="https://example.com/a.pdf" contentType="application/pdf"}}',
    input: { pic: 'data:image/png;base64,iVBORw0KGgo=' },
    model: 'gemini-2.0-flash',
    request: {
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'Look ' },
            { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
            { text: ' and ' },
            { fileData: { mimeType: 'application/pdf', fileUri: 'https://example.com/a.pdf' } },
          ],
        },
      ],
    },
  },
  {
    name: 'section helper: the marker is tooling data and sends nothing',
    file: '---\nmodel: gemini-2.0-flash\n---\nBefore {{section "output"}} after',
    model: 'gemini-2.0-flash',
    request: { contents: [{ role: 'user', parts: [{ text: 'Before ' }, { text: ' after' }] }] },
  },
  {
    name: 'history helper with no history: what follows is the model turn',
    file: '---\nmodel: gemini-2.0-flash\n---\n{{role "user"}}Start{{history}}Continued',
    model: 'gemini-2.0-flash',
    request: {
      contents: [
        { role: 'user', parts: [{ text: 'Start' }] },
        { role: 'model', parts: [{ text: 'Continued' }] },
      ],
    },
  },
  {
    name: 'ifEquals / unlessEquals, #each and #if',
    file: '---\nmodel: gemini-2.0-flash\n---\n{{#ifEquals lang "fr"}}Bonjour{{else}}Hello{{/ifEquals}}{{#unlessEquals lang "fr"}} (not fr){{/unlessEquals}}{{#each xs}} [{{this}}]{{/each}}{{#if missing}}X{{/if}}',
    input: { lang: 'en', xs: [1, 2] },
    model: 'gemini-2.0-flash',
    request: { contents: [user('Hello (not fr) [1] [2]')] },
  },
  {
    name: 'partials, nested, read from the resolver',
    file: '---\nmodel: gemini-2.0-flash\n---\n{{> header}}\nBody for {{name}}',
    partials: { header: 'Header ({{> sig}})', sig: 'by {{name}}' },
    input: { name: 'Bo' },
    model: 'gemini-2.0-flash',
    // A partial alone on its line is a Handlebars standalone tag: it takes its line break with it.
    request: { contents: [user('Header (by Bo)Body for Bo')] },
  },
  {
    name: 'config → generationConfig (every usual key), safetySettings at the top level',
    file: [
      '---',
      'model: gemini-2.0-flash',
      'config:',
      '  temperature: 0.2',
      '  topK: 20',
      '  topP: 0.9',
      '  maxOutputTokens: 64',
      '  stopSequences: ["END"]',
      '  candidateCount: 1',
      '  safetySettings:',
      '    - category: HARM_CATEGORY_HARASSMENT',
      '      threshold: BLOCK_ONLY_HIGH',
      '---',
      'Go',
    ].join('\n'),
    model: 'gemini-2.0-flash',
    request: {
      contents: [user('Go')],
      safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_ONLY_HIGH' }],
      generationConfig: {
        temperature: 0.2,
        topK: 20,
        topP: 0.9,
        maxOutputTokens: 64,
        stopSequences: ['END'],
        candidateCount: 1,
      },
    },
  },
  {
    name: 'a variant: its model and config override the frontmatter',
    file: '---\nmodel: gemini-2.0-flash\nconfig:\n  temperature: 0.2\n  topP: 0.5\n---\nGo',
    overrides: { model: 'gemini-2.5-pro', config: { temperature: 1 } },
    model: 'gemini-2.5-pro',
    request: { contents: [user('Go')], generationConfig: { temperature: 1, topP: 0.5 } },
  },
  {
    name: 'Picoschema output: scalars, descriptions, optional, array, object, enum, any, wildcard — declaration order kept',
    file: [
      '---',
      'model: gemini-2.0-flash',
      'output:',
      '  schema:',
      '    zeta: string, last letter first',
      '    alpha?: integer',
      '    tags(array, the tags): string',
      '    owner(object):',
      '      name: string',
      '      age?: number',
      '    mood?(enum): [happy, sad]',
      '    anything: any',
      '    counts(object):',
      '      (*): integer',
      '    done: boolean',
      '---',
      'Go',
    ].join('\n'),
    model: 'gemini-2.0-flash',
    request: {
      contents: [user('Go')],
      generationConfig: {
        responseMimeType: 'application/json',
        responseSchema: {
          type: 'OBJECT',
          properties: {
            zeta: { type: 'STRING', description: 'last letter first' },
            alpha: { type: 'INTEGER', nullable: true },
            tags: { type: 'ARRAY', description: 'the tags', items: { type: 'STRING' } },
            owner: {
              type: 'OBJECT',
              properties: { name: { type: 'STRING' }, age: { type: 'NUMBER', nullable: true } },
              propertyOrdering: ['name', 'age'],
              required: ['name'],
            },
            mood: { type: 'STRING', format: 'enum', enum: ['happy', 'sad'], nullable: true },
            anything: {},
            counts: { type: 'OBJECT' },
            done: { type: 'BOOLEAN' },
          },
          propertyOrdering: ['zeta', 'alpha', 'tags', 'owner', 'mood', 'anything', 'counts', 'done'],
          required: ['zeta', 'tags', 'owner', 'anything', 'counts', 'done'],
        },
      },
    },
  },
  {
    name: 'a JSON Schema output schema is taken as it is',
    file: [
      '---',
      'model: gemini-2.0-flash',
      'output:',
      '  format: json',
      '  schema:',
      '    type: object',
      '    properties:',
      '      b: {type: string}',
      '      a: {type: array, items: {type: number}, minItems: 1}',
      '    required: [b]',
      '---',
      'Go',
    ].join('\n'),
    model: 'gemini-2.0-flash',
    request: {
      contents: [user('Go')],
      generationConfig: {
        responseMimeType: 'application/json',
        responseSchema: {
          type: 'OBJECT',
          properties: { b: { type: 'STRING' }, a: { type: 'ARRAY', minItems: 1, items: { type: 'NUMBER' } } },
          propertyOrdering: ['b', 'a'],
          required: ['b'],
        },
      },
    },
  },
  {
    name: 'a scalar Picoschema output and format: json without a schema',
    file: '---\nmodel: gemini-2.0-flash\noutput:\n  format: json\n---\nGo',
    model: 'gemini-2.0-flash',
    request: { contents: [user('Go')], generationConfig: { responseMimeType: 'application/json' } },
  },
  {
    name: 'Picoschema input schema does not change the request; namespaced keys are allowed',
    file: '---\nmodel: gemini-2.0-flash\nmyext.owner: team-a\ninput:\n  schema:\n    topic: string\n    n?: integer\n---\n{{topic}} x{{n}}',
    input: { topic: 'Rivers', n: 3 },
    model: 'gemini-2.0-flash',
    request: { contents: [user('Rivers x3')] },
  },
  {
    name: 'a closing --- on the last line without a newline is an empty template',
    file: '---\nmodel: gemini-2.0-flash\n---',
    model: 'gemini-2.0-flash',
    request: { contents: [] },
  },
];

const BAD: Bad[] = [
  { name: 'YAML error at its line', file: '---\nmodel: x\nconfig: [1, 2\n---\nHi', errors: [[3, 'yaml', 'YAML']] },
  {
    name: 'YAML error deeper in the frontmatter, line counted from the file',
    file: '---\nmodel: x\nconfig:\n  temperature: 1\n  temperature: 2\n---\nHi',
    errors: [[5, 'yaml', 'unique']],
  },
  { name: 'a list as a key', file: '---\nmodel: x\n[a, b]: 1\n---\nHi', errors: [[3, 'yaml', 'a key must be text']] },
  { name: 'a scalar frontmatter', file: '---\njust text\n---\nHi', errors: [[2, 'yaml', 'mapping']] },
  { name: 'frontmatter not closed', file: '---\nmodel: x\nHi {{x}}\n', errors: [[1, 'frontmatter-not-closed', '---']] },
  { name: 'empty frontmatter', file: '---\n\n---\nHi', errors: [[1, 'frontmatter-empty', 'empty']] },
  {
    name: 'Handlebars parse error at its file line (template after blank lines)',
    file: '---\nmodel: x\n---\n\n\nHello\n{{name}\n',
    errors: [[7, 'handlebars', "got 'INVALID'"]],
  },
  {
    name: 'an unclosed block',
    file: '---\nmodel: x\n---\nA\n{{#if a}}\nB\n',
    errors: [[6, 'handlebars', "got 'EOF'"]],
  },
  {
    name: 'an unknown helper at its line',
    file: '---\nmodel: x\n---\nHi\n\n{{shout name}}\n',
    errors: [[6, 'handlebars', 'unknown helper shout']],
  },
  {
    name: 'a missing partial',
    file: '---\nmodel: x\n---\n{{> footer}}',
    partials: {},
    errors: [[4, 'partial', '"footer"']],
  },
  {
    name: 'config values out of range and an unknown setting, each at its line',
    file: '---\nmodel: x\nconfig:\n  temperature: 2.5\n  topP: -1\n  topK: 1.5\n  stopSequences: [a, b, c, d, e, f]\n  colour: red\n---\nHi',
    errors: [
      [4, 'config-range', 'temperature'],
      [5, 'config-range', 'topP'],
      [6, 'config-range', 'topK'],
      [7, 'config-range', 'stopSequences'],
      [8, 'config-unknown', 'colour'],
    ],
  },
  {
    name: 'an invalid Picoschema type',
    file: '---\nmodel: x\noutput:\n  format: json\n  schema:\n    a(list): string\n---\nHi',
    errors: [[5, 'schema', "must be 'object' or 'array'"]],
  },
  {
    name: 'an unknown named schema',
    file: '---\nmodel: x\ninput:\n  schema:\n    who: Person\n---\nHi',
    errors: [[4, 'schema', "'Person'"]],
  },
  {
    name: 'a union type has no responseSchema form',
    file: '---\nmodel: x\noutput:\n  schema:\n    type: object\n    properties:\n      a: {type: [string, number]}\n---\nHi',
    errors: [[4, 'schema', 'several types']],
  },
  {
    // dotprompt reads the frontmatter into plain objects, where this name sets the prototype: the field (and a
    // default of that name) would be dropped from what is sent without a word.
    name: 'a field or default named __proto__, in Picoschema or JSON Schema, at any depth',
    file:
      '---\nmodel: x\ninput:\n  schema:\n    __proto__?: string\n    name: string\n  default:\n    __proto__: x\n' +
      'output:\n  format: json\n  schema:\n    type: object\n    properties:\n      list:\n        type: array\n' +
      '        items:\n          - {type: object, properties: {__proto__: {type: string}}}\n---\nHi',
    errors: [
      [5, 'lost-key', 'input.schema'],
      [8, 'lost-key', 'input.default'],
      [17, 'lost-key', 'output.schema.properties.list.items[0].properties'],
    ],
  },
  {
    name: 'another provider’s model',
    file: '---\nmodel: openai/gpt-4o\n---\nHi',
    errors: [[2, 'model', 'googleai/']],
  },
];

describe('prompt files (dotprompt) → GenerateContentRequest', () => {
  for (const t of GOOD) {
    it(t.name, async () => {
      const partials = t.partials;
      const { prompt, problems } = await PromptFile.load(t.file, {
        partials: partials ? (n) => Promise.resolve(partials[n] ?? null) : undefined,
      });
      assert.deepEqual(
        problems.filter((p) => p.severity === 'error'),
        [],
      );
      assert.ok(prompt);
      const r = await prompt.render(t.input ?? {}, t.overrides);
      assert.equal(r.model, t.model);
      assert.deepEqual(r.request, t.request);
      // Declaration order is the order of the JSON text, not only of propertyOrdering.
      assert.equal(JSON.stringify(r.request), JSON.stringify(t.request));
    });
  }

  for (const t of BAD) {
    it(`bad file: ${t.name}`, async () => {
      const partials = t.partials;
      const { prompt, problems } = await PromptFile.load(t.file, {
        partials: partials ? (n) => Promise.resolve(partials[n] ?? null) : undefined,
      });
      assert.equal(prompt, undefined);
      const errors = problems.filter((p) => p.severity === 'error');
      assert.equal(errors.length, t.errors.length, JSON.stringify(errors));
      t.errors.forEach(([line, code, piece], i) => {
        assert.equal(errors[i].line, line, JSON.stringify(errors[i]));
        assert.equal(errors[i].code, code, JSON.stringify(errors[i]));
        assert.ok(errors[i].message.includes(piece), `${errors[i].message} should mention ${piece}`);
      });
    });
  }

  it('an unknown frontmatter key is a warning at its line, and the file still renders', async () => {
    const { prompt, problems } = await PromptFile.load('---\nmodel: gemini-2.0-flash\n\ncolour: blue\n---\nHi');
    assert.ok(prompt);
    assert.deepEqual(
      problems.map((p) => [p.line, p.severity, p.code]),
      [[4, 'warning', 'unknown-key']],
    );
  });

  it('a variable the input schema does not declare is a warning at its line (not inside #each, not helpers)', async () => {
    const { prompt, problems } = await PromptFile.load(
      [
        '---',
        'model: gemini-2.0-flash',
        'input:',
        '  schema:',
        '    city: string',
        '    items(array): string',
        '  default:',
        '    mood: calm',
        '---',
        '{{role "user"}}Plan {{city}} in a {{mood}} way.',
        '{{#if days}}For {{days}} days.{{/if}}',
        '{{#each items}}- {{this}} {{name}}{{/each}} {{json extra}} {{@root.city}}',
        '{{> sig who=signer}}',
      ].join('\n'),
      { partials: (n) => Promise.resolve(n === 'sig' ? 'by {{who}}' : null) },
    );
    assert.ok(prompt);
    assert.deepEqual(
      problems.map((p) => [p.line, p.column, p.code, p.message.split('"')[1]]),
      [
        [11, 6, 'undeclared-variable', 'days'],
        [12, 51, 'undeclared-variable', 'extra'],
        [13, 12, 'undeclared-variable', 'signer'],
      ],
    );
  });

  it('no model anywhere is a render error naming the frontmatter', async () => {
    const { prompt } = await PromptFile.load('---\nconfig:\n  temperature: 1\n---\nHi');
    assert.ok(prompt);
    await assert.rejects(prompt.render({}), /No model/);
  });

  it('a partial changed between loads is read again (nothing is kept from an earlier load)', async () => {
    const file = '---\nmodel: gemini-2.0-flash\n---\n{{> sig}}';
    const a = await PromptFile.load(file, { partials: () => Promise.resolve('one') });
    const b = await PromptFile.load(file, { partials: () => Promise.resolve('two') });
    assert.deepEqual((await b.prompt!.render({})).request.contents, [user('two')]);
    assert.deepEqual((await a.prompt!.render({})).request.contents, [user('one')]);
  });
});
