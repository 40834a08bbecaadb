// proto3 JSON names on our side of the wire: the shared normaliser, and the client reading
// responses whose fields carry the proto (snake_case) spelling.
import * as assert from 'node:assert/strict';
import { StreamConsumer } from '../../../src/generation/core/client';
import { hasSnakeKey } from '../../../src/generation/core/fieldNames';
import { candidateText } from '../../../src/generation/core';
import { GENERATION_MESSAGES } from '../../../src/shared/wire/generationFields';
import { normaliseMessage } from '../../../src/shared/wire/protoJson';

describe('proto3 JSON field names', () => {
  it('renames known fields at every depth, keeps map keys, Struct contents and unknown fields', () => {
    const out = normaliseMessage(
      {
        contents: [{ parts: [{ function_call: { name: 'f', args: { snake_key: 1 } } }] }],
        tools: [
          {
            function_declarations: [
              {
                name: 'f',
                parameters: { type: 'OBJECT', properties: { my_prop: { type: 'STRING', max_length: 3 } } },
                parameters_json_schema: { additional_properties: false },
              },
            ],
          },
        ],
        generation_config: {
          response_schema: { type: 'OBJECT', property_ordering: ['a'] },
          thinking_config: { thinking_budget: 0 },
        },
        not_a_field: { inner_name: 1 },
      },
      'GenerateContentRequest',
      GENERATION_MESSAGES,
    );
    assert.deepEqual(out, {
      contents: [{ parts: [{ functionCall: { name: 'f', args: { snake_key: 1 } } }] }],
      tools: [
        {
          functionDeclarations: [
            {
              name: 'f',
              parameters: { type: 'OBJECT', properties: { my_prop: { type: 'STRING', maxLength: 3 } } },
              parametersJsonSchema: { additional_properties: false },
            },
          ],
        },
      ],
      generationConfig: {
        responseSchema: { type: 'OBJECT', propertyOrdering: ['a'] },
        thinkingConfig: { thinkingBudget: 0 },
      },
      not_a_field: { inner_name: 1 },
    });
  });

  it('prefers the lowerCamelCase spelling when both are given, and never sets a prototype', () => {
    const out = normaliseMessage(
      JSON.parse('{"generationConfig":{"temperature":1},"generation_config":{"temperature":9},"__proto__":{"x":1}}'),
      'GenerateContentRequest',
      GENERATION_MESSAGES,
    ) as Record<string, unknown>;
    assert.deepEqual(out.generationConfig, { temperature: 1 });
    assert.equal(Object.getPrototypeOf(out), Object.prototype);
    assert.ok(Object.prototype.hasOwnProperty.call(out, '__proto__'));
  });

  it('the stream client reads snake_case responses: text, finish reason, citations, usage', () => {
    const consumer = new StreamConsumer();
    consumer.item({
      kind: 'data',
      data: JSON.stringify({
        candidates: [
          {
            content: { parts: [{ text: 'Hello ' }], role: 'model' },
            index: 0,
            citation_metadata: { citation_sources: [{ start_index: 0, end_index: 5, uri: 'https://example.com' }] },
          },
        ],
        usage_metadata: { prompt_token_count: 2, total_token_count: 3 },
      }),
    });
    consumer.item({
      kind: 'data',
      data: JSON.stringify({
        candidates: [{ content: { parts: [{ text: 'world' }], role: 'model' }, finish_reason: 'STOP', index: 0 }],
        usage_metadata: { prompt_token_count: 2, candidates_token_count: 2, total_token_count: 4 },
      }),
    });
    const r = consumer.aggregator.response;
    assert.equal(consumer.error, null);
    assert.equal(candidateText(r.candidates![0]), 'Hello world');
    assert.equal(r.candidates![0].finishReason, 'STOP');
    assert.deepEqual(
      r.candidates![0].citationMetadata?.citationSources?.map((c) => [c.startIndex, c.endIndex]),
      [[0, 5]],
    );
    assert.equal(r.usageMetadata?.totalTokenCount, 4);
  });

  it('only events that cannot hold a snake_case key skip the normalising walk', () => {
    // Keys the pre-check must see: plain, spaced before the colon, spelt with a \u005f escape.
    for (const data of [
      '{"finish_reason":"STOP"}',
      '{"candidates":[{"finish_reason" \t: "STOP"}]}',
      '{"finish\\u005freason":"STOP"}',
      '{"usage_metadata":{"total_token_count":1}}',
      '{"candidates":[{"content":{"parts":[{"inline_data":{"mime_type":"image/png","data":""}}]}}]}',
    ])
      assert.equal(hasSnakeKey(JSON.parse(data)), true, data);
    // Underscores only in values and text: nothing to rename.
    for (const data of [
      '{"safetyRatings":[{"category":"HARM_CATEGORY_HATE_SPEECH","probability":"NEGLIGIBLE"}]}',
      '{"candidates":[{"content":{"parts":[{"text":"a_b \\"c_d\\": e_f"}]}}]}',
      '{}',
    ])
      assert.equal(hasSnakeKey(JSON.parse(data)), false, data);
    // Through the consumer: the escaped spelling is still renamed.
    const consumer = new StreamConsumer();
    consumer.item({
      kind: 'data',
      data: '{"candidates":[{"content":{"parts":[{"text":"x"}]},"finish\\u005freason":"STOP"}]}',
    });
    assert.equal(consumer.aggregator.response.candidates![0].finishReason, 'STOP');
  });
});
