// Replays every recorded response, re-chunked at many byte positions (inside CRLF pairs and
// UTF-8 characters too), and requires the assembled result to be identical every time.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { StreamConsumer, candidateText } from '../../../src/generation/core';
import { JsonArrayReader } from '../../../src/generation/core/jsonArray';
import { SseReader } from '../../../src/generation/core/sse';
import type { GenerateContentResponse } from '../../../src/shared/wire/generation';
import { listAtLoad, sharedData, sharedDataFiles } from '../../support/sharedData';

// Listed at load time (one suite per recording); a missing folder fails 'finds the recordings' instead of
// crashing the whole mocha run.
const { files, failIfMissing } = listAtLoad(() =>
  sharedDataFiles('gemini', (f) => f.endsWith('.txt') || f.endsWith('.json')).map((f) => path.basename(f)),
);
const DIR = files.length ? sharedData('gemini') : '';

interface Outcome {
  response: GenerateContentResponse;
  error: unknown;
  chunks: number;
}

function replay(bytes: Buffer, cuts: number[], framing: 'sse' | 'json'): Outcome {
  const consumer = new StreamConsumer();
  const reader = framing === 'sse' ? new SseReader(consumer.item) : new JsonArrayReader(consumer.item);
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    reader.push(bytes.subarray(from, cut));
    from = cut;
  }
  reader.end();
  return { response: consumer.aggregator.response, error: consumer.error, chunks: consumer.aggregator.chunks };
}

/** Independent reading of an SSE file: split on blank lines, strip the field name. */
function naiveEvents(text: string): GenerateContentResponse[] {
  return text
    .split(/\r?\n\r?\n/)
    .map((block) => block.trim())
    .filter(Boolean)
    .map((block) => JSON.parse(block.replace(/^data: ?/, '')) as GenerateContentResponse);
}

function naiveText(events: GenerateContentResponse[]): string {
  return events
    .map((e) => (e.candidates?.[0]?.content?.parts ?? []).map((p) => (p.thought ? '' : (p.text ?? ''))).join(''))
    .join('');
}

/** Every position for small files; a dense stride plus all positions near multi-byte characters otherwise. */
function positions(bytes: Buffer): number[] {
  if (bytes.length <= 8192) return Array.from({ length: bytes.length - 1 }, (_, i) => i + 1);
  const out = new Set<number>();
  for (let i = 1; i < bytes.length; i += 7) out.add(i);
  bytes.forEach((b, i) => {
    if (b >= 0x80 || b === 0x0d) out.add(i);
  });
  return [...out].filter((p) => p > 0 && p < bytes.length);
}

describe('generation: replay of every recorded response', function () {
  this.timeout(60_000);
  it('finds the recordings', () => {
    failIfMissing();
    assert.ok(files.length >= 22, `only ${files.length} files in ${DIR}`);
  });

  for (const file of files) {
    const framing = file.endsWith('.txt') ? 'sse' : 'json';

    describe(file, () => {
      let bytes: Buffer;
      let whole: Outcome;
      before(() => {
        bytes = readFileSync(path.join(DIR, file));
        whole = replay(bytes, [], framing);
      });

      it('reads the whole body like an independent parse does', () => {
        if (framing === 'sse') {
          const events = naiveEvents(bytes.toString('utf8'));
          assert.equal(whole.chunks, events.length);
          assert.equal(whole.error, null);
          assert.equal(candidateText(whole.response.candidates?.[0]), naiveText(events));
        } else {
          const parsed = JSON.parse(bytes.toString('utf8')) as GenerateContentResponse & {
            error?: { code: number; status: string; message: string };
          };
          if (parsed.error) {
            assert.equal(whole.chunks, 0);
            assert.deepEqual(
              {
                code: (whole.error as { code: number }).code,
                status: (whole.error as { status: string }).status,
                message: (whole.error as { message: string }).message,
              },
              { code: parsed.error.code, status: parsed.error.status, message: parsed.error.message },
            );
          } else {
            assert.equal(whole.chunks, 1);
            assert.deepEqual(whole.response, parsed, 'a single response must come back unchanged');
          }
        }
      });

      it('gives the identical result at every split position', () => {
        for (const p of positions(bytes)) {
          const r = replay(bytes, [p], framing);
          assert.deepEqual(r, whole, `split at byte ${p}`);
        }
      });

      it('gives the identical result byte by byte and in uneven pieces', () => {
        assert.deepEqual(
          replay(
            bytes,
            Array.from({ length: bytes.length - 1 }, (_, i) => i + 1),
            framing,
          ),
          whole,
        );
        const cuts: number[] = [];
        for (let at = 1, step = 1; at < bytes.length; at += step, step = (step * 5 + 3) % 97 || 1) cuts.push(at);
        assert.deepEqual(replay(bytes, cuts, framing), whole);
      });

      if (framing === 'sse') {
        it('is unchanged by LF framing and by a missing final blank line', () => {
          const text = bytes.toString('utf8');
          const lf = Buffer.from(text.replace(/\r\n/g, '\n'));
          const crlf = Buffer.from(text.replace(/\r?\n/g, '\r\n'));
          const noTail = Buffer.from(text.replace(/(\r?\n)+$/, ''));
          const oneEol = Buffer.from(text.replace(/(\r?\n)+$/, '\r\n'));
          for (const variant of [lf, crlf, noTail, oneEol]) {
            assert.deepEqual(replay(variant, [], 'sse'), whole);
            assert.deepEqual(replay(variant, [Math.floor(variant.length / 2), variant.length - 1], 'sse'), whole);
          }
        });

        it('keeps the text received before a raw mid-stream error and reports the error', () => {
          const raw =
            '{\n  "error": {\n    "code": 499,\n    "message": "The operation was cancelled.",\n    "status": "CANCELLED"\n  }\n}\n';
          const withError = Buffer.concat([bytes, Buffer.from(raw)]);
          for (const p of [bytes.length - 1, bytes.length + 3, bytes.length + 20, withError.length - 2]) {
            const r = replay(withError, [p], 'sse');
            assert.deepEqual(r.response, whole.response, `split at ${p}`);
            assert.equal((r.error as { code: number }).code, 499);
            assert.equal((r.error as { status: string }).status, 'CANCELLED');
          }
        });
      }
    });
  }

  it('keeps mid-stream citations, the first promptFeedback and the last finish reason', () => {
    const cit = replay(readFileSync(sharedData('gemini', 'streaming-success-citations.txt')), [], 'sse').response;
    const events = naiveEvents(readFileSync(sharedData('gemini', 'streaming-success-citations.txt'), 'utf8'));
    const allSources = new Set(
      events.flatMap((e) => (e.candidates?.[0]?.citationMetadata?.citationSources ?? []).map((s) => JSON.stringify(s))),
    );
    assert.ok(allSources.size > 0);
    assert.deepEqual(
      new Set(cit.candidates![0].citationMetadata!.citationSources!.map((s) => JSON.stringify(s))),
      allSources,
    );
    assert.deepEqual(cit.promptFeedback, events[0].promptFeedback);

    const rec = replay(
      readFileSync(sharedData('gemini', 'streaming-failure-recitation-no-content.txt')),
      [],
      'sse',
    ).response;
    assert.equal(rec.candidates![0].finishReason, 'RECITATION');
    assert.equal(rec.candidates![0].citationMetadata!.citationSources!.length, 1);
    assert.equal(
      candidateText(rec.candidates![0]),
      'Copyrighted text goesMore copyrighted text'.replace('goesMore', 'goes hereMore'),
    );
    assert.equal(
      rec.candidates![0].safetyRatings!.find((r) => r.category === 'HARM_CATEGORY_HATE_SPEECH')!.probability,
      'LOW',
    );

    const blocked = replay(
      readFileSync(sharedData('gemini', 'streaming-failure-prompt-blocked-safety.txt')),
      [],
      'sse',
    ).response;
    assert.equal(blocked.promptFeedback!.blockReason, 'SAFETY');
    assert.equal(blocked.candidates, undefined);

    const grounding = replay(
      readFileSync(sharedData('gemini', 'streaming-success-search-grounding.txt')),
      [],
      'sse',
    ).response;
    assert.equal(grounding.usageMetadata!.totalTokenCount, 114);
    assert.ok(grounding.candidates![0].groundingMetadata!.groundingChunks);
    assert.equal(grounding.candidates![0].content!.role, 'model');

    const unknown = replay(readFileSync(sharedData('gemini', 'streaming-unknown-enum.txt')), [], 'sse').response;
    assert.ok(
      JSON.stringify(unknown).includes('FAKE_ENUM') || JSON.stringify(unknown).includes('HARM_CATEGORY_'),
      'unknown enum values survive',
    );

    const fn = replay(
      readFileSync(sharedData('gemini', 'streaming-success-function-call-short.txt')),
      [],
      'sse',
    ).response;
    assert.deepEqual(fn.candidates![0].content!.parts, [
      { functionCall: { name: 'getTemperature', args: { city: 'San Jose' } } },
    ]);
  });
});
