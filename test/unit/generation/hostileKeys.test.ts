// Names from outside used as keys (.prompt files, response schemas, variants, datasets, model output, server
// enum values): `__proto__`, `constructor`, `toString` and `hasOwnProperty` are names like any other.
import * as assert from 'node:assert/strict';
import { PromptFile } from '../../../src/generation/core/prompt/promptFile';
import { hoverAt } from '../../../src/generation/core/prompt/assist';
import { toResponseSchema, SchemaMappingError } from '../../../src/generation/core/prompt/responseSchema';
import { schemaErrors } from '../../../src/generation/core/eval/jsonSchema';
import { parseVariant, VariantError } from '../../../src/generation/core/eval/variants';
import { explainBlockReason, explainFinishReason } from '../../../src/generation/core/explain';
import { validateRequest } from '../../../src/generation/core/validate';
import { Aggregator } from '../../../src/generation/core/aggregate';
import { imageMimeType, languageId } from '../../../src/generation/core/fileKinds';
import { startGenerationEmulator, type TestServer } from './emulatorServer';
import type { GenerateContentRequest, GenerateContentResponse } from '../../../src/shared/wire/generation';

const HOSTILE = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];

describe('generation: hostile names as keys', () => {
  it('a response schema keeps properties named __proto__, constructor, toString, in order', () => {
    const props = Object.fromEntries([...HOSTILE, 'a'].map((n) => [n, { type: 'string' }]));
    const out = toResponseSchema({ type: 'object', properties: props });
    assert.deepEqual(out.propertyOrdering, [...HOSTILE, 'a']);
    assert.equal(
      JSON.stringify(out.properties),
      JSON.stringify(Object.fromEntries([...HOSTILE, 'a'].map((n) => [n, { type: 'STRING' }]))),
    );
    assert.equal(Object.getPrototypeOf(out.properties), Object.prototype);
  });

  it('a schema type named constructor or toString is an unknown type, not a function', () => {
    for (const t of HOSTILE)
      assert.throws(
        () => toResponseSchema({ type: t }),
        (e: unknown) => e instanceof SchemaMappingError && e.message.includes('unknown type'),
        t,
      );
  });

  it('a required member named toString or constructor must be present; additionalProperties: false refuses them', () => {
    for (const k of HOSTILE) {
      assert.deepEqual(schemaErrors({ type: 'object', required: [k] }, {}), [`$.${k}: required`], k);
      const value: unknown = JSON.parse(`{${JSON.stringify(k)}: 1}`);
      assert.deepEqual(
        schemaErrors({ type: 'object', properties: {}, additionalProperties: false }, value),
        [`$.${k}: not allowed (additionalProperties)`],
        k,
      );
      // A declared one is checked against its own schema.
      const declared = JSON.parse(`{"type":"object","properties":{${JSON.stringify(k)}:{"type":"string"}}}`) as unknown;
      assert.deepEqual(schemaErrors(declared, value), [`$.${k}: expected string, got integer`], k);
    }
  });

  it('a variant setting named __proto__ is an unknown setting, never dropped', () => {
    for (const spec of ['__proto__=1', '__proto__={"temperature":2}', '{"__proto__":{"model":"x"}}'])
      assert.throws(
        () => parseVariant(`v=${spec}`, 'gemini-2.0-flash'),
        (e: unknown) => e instanceof VariantError && e.message.includes('__proto__ is not a generation setting'),
        spec,
      );
  });

  it('a frontmatter key named constructor or toString is an unknown key', async () => {
    for (const k of HOSTILE) {
      const { problems } = await PromptFile.load(`---\nmodel: gemini-2.0-flash\n${k}: 1\n---\nHi`);
      assert.deepEqual(
        problems.map((p) => [p.line, p.code]),
        [[3, 'unknown-key']],
        k,
      );
    }
  });

  it('a partial named constructor or toString is read from its file and rendered', async () => {
    for (const k of ['constructor', 'toString', 'hasOwnProperty']) {
      const asked: string[] = [];
      const { prompt, problems } = await PromptFile.load(`---\nmodel: gemini-2.0-flash\n---\nA {{> ${k}}} B`, {
        partials: (n) => {
          asked.push(n);
          return Promise.resolve(n === k ? `partial ${k}` : null);
        },
      });
      assert.deepEqual(problems, [], k);
      assert.deepEqual(asked, [k]);
      const r = await prompt!.render({});
      assert.deepEqual(r.request.contents, [{ role: 'user', parts: [{ text: `A partial ${k} B` }] }], k);
    }
  });

  it('hover on a frontmatter key or helper named constructor or toString says nothing', () => {
    for (const k of HOSTILE) {
      assert.equal(hoverAt(`---\n${k}: 1\n---\nHi`, 1, 1), undefined, k);
      assert.equal(hoverAt(`---\nconfig:\n  ${k}: 1\n---\nHi`, 2, 3), undefined, k);
      assert.equal(hoverAt(`---\nmodel: x\n---\n{{${k} a}}`, 3, 3), undefined, k);
    }
  });

  it('a finish or block reason named constructor or toString is explained as an unknown reason', () => {
    for (const k of HOSTILE) {
      const f = explainFinishReason(k);
      assert.equal(f?.label, k);
      assert.ok(f?.meaning.includes('does not know'), k);
      assert.equal(explainBlockReason(k).meaning, `The prompt was blocked (${k}).`);
    }
  });

  it('a function declaration requiring toString or constructor must declare it among its properties', () => {
    for (const k of HOSTILE) {
      const request: GenerateContentRequest = {
        contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
        tools: [
          { functionDeclarations: [{ name: 'f', parameters: { type: 'OBJECT', properties: {}, required: [k] } }] },
        ],
      };
      assert.ok(
        validateRequest('gemini-2.0-flash', request).some((m) => m.includes(`requires "${k}"`)),
        k,
      );
    }
  });

  it('citation metadata lists under keys named constructor or __proto__ are merged as data', () => {
    for (const k of HOSTILE) {
      const a = new Aggregator();
      const chunk = JSON.parse(
        `{"candidates":[{"citationMetadata":{${JSON.stringify(k)}:[{"uri":"u"}]}}]}`,
      ) as GenerateContentResponse;
      a.add(chunk);
      a.add(chunk);
      const meta = a.response.candidates?.[0].citationMetadata as Record<string, unknown>;
      assert.deepEqual(Object.getOwnPropertyDescriptor(meta, k)?.value, [{ uri: 'u' }], k);
      assert.equal(Object.getPrototypeOf(meta), Object.prototype);
    }
  });

  it('a code fence labelled constructor is a language of that name; a file x.constructor is no image', () => {
    for (const k of HOSTILE) {
      assert.equal(languageId(k), k.toLowerCase());
      assert.equal(imageMimeType(`/w/picture.${k}`), undefined, k);
    }
    assert.equal(languageId('JS'), 'javascript');
    assert.equal(languageId(''), 'plaintext');
    assert.equal(imageMimeType('/w/a.b/Photo.JPG'), 'image/jpeg');
    assert.equal(imageMimeType('/w/png'), undefined);
  });

  describe('emulator', () => {
    let s: TestServer;
    before(async () => {
      s = await startGenerationEmulator();
    });
    after(() => s.close());
    const generate = async (body: unknown) => {
      const r = await fetch(`${s.origin}/v1beta/models/gemini-2.5-flash:generateContent`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': s.apiKey },
        body: JSON.stringify(body),
      });
      return { status: r.status, text: await r.text() };
    };
    const contents = [{ role: 'user', parts: [{ text: 'Name two rivers' }] }];

    it('JSON mode answers every property of the schema, __proto__ and constructor included', async () => {
      const properties = Object.fromEntries([...HOSTILE, 'a'].map((n) => [n, { type: 'STRING' }]));
      const r = await generate({
        contents,
        generationConfig: { responseMimeType: 'application/json', responseSchema: { type: 'OBJECT', properties } },
      });
      assert.equal(r.status, 200, r.text);
      const reply = JSON.parse(r.text) as { candidates: { content: { parts: { text: string }[] } }[] };
      const value = JSON.parse(reply.candidates[0].content.parts[0].text) as Record<string, unknown>;
      assert.deepEqual(Object.keys(value), [...HOSTILE, 'a']);
      for (const k of Object.keys(value))
        assert.equal(typeof Object.getOwnPropertyDescriptor(value, k)?.value, 'string');
    });

    it('a propertyOrdering naming a property the schema lacks (constructor) does not answer Object members', async () => {
      const r = await generate({
        contents,
        generationConfig: {
          responseMimeType: 'application/json',
          responseSchema: {
            type: 'OBJECT',
            properties: { a: { type: 'STRING' } },
            propertyOrdering: ['a', 'constructor'],
          },
        },
      });
      if (r.status === 200) {
        const reply = JSON.parse(r.text) as { candidates: { content: { parts: { text: string }[] } }[] };
        assert.deepEqual(Object.keys(JSON.parse(reply.candidates[0].content.parts[0].text) as object), ['a']);
      } else assert.equal(r.status, 400, r.text);
    });

    it('a function declaration requiring toString that it does not declare is refused (400), as the service does', async () => {
      for (const k of HOSTILE) {
        const r = await generate({
          contents,
          tools: [
            { functionDeclarations: [{ name: 'f', parameters: { type: 'OBJECT', properties: {}, required: [k] } }] },
          ],
        });
        assert.equal(r.status, 400, k);
        assert.ok(r.text.includes(`parameters.required[${k}]: property is not defined`), r.text);
      }
    });
  });
});
