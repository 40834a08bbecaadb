// The deterministic "model": turns a request into the sequence of chunks a stream carries.
// Unary replies are the same chunks merged, so both operations always agree.
import { createHash } from 'node:crypto';
import type {
  Candidate,
  CitationSource,
  GenerateContentRequest,
  GenerateContentResponse,
  Part,
  SafetyRating,
} from '../../shared/wire/generation';
import { functionCallFor, lastFunctionResponses } from './functionChoice';
import { functionResultReply, markdownReply, mediaOf, valueFor, words, xssReply } from './replyText';
import { countContentTokens, tokenize } from './tokens';
import { stripTriggers, type Triggers } from './triggers';

export interface Plan {
  chunks: GenerateContentResponse[];
  /** Milliseconds between chunks. */
  delayMs: number;
  /** Something that goes wrong after `afterChunks` events have been written. */
  fault?: { kind: 'midstream-error' | 'reset'; afterChunks: number };
}

const DEFAULT_DELAY_MS = 15;
const TOKENS_PER_CHUNK = 3;

const NEGLIGIBLE_RATINGS: SafetyRating[] = [
  { category: 'HARM_CATEGORY_SEXUALLY_EXPLICIT', probability: 'NEGLIGIBLE' },
  { category: 'HARM_CATEGORY_HATE_SPEECH', probability: 'NEGLIGIBLE' },
  { category: 'HARM_CATEGORY_HARASSMENT', probability: 'NEGLIGIBLE' },
  { category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'NEGLIGIBLE' },
];

export function lastUserText(req: GenerateContentRequest): string {
  const last = [...req.contents].reverse().find((c) => c.role === undefined || c.role === 'user');
  return (last?.parts ?? []).map((p) => (typeof p.text === 'string' ? p.text : '')).join('');
}

function responseIdFor(req: GenerateContentRequest): string {
  return createHash('sha256').update(JSON.stringify(req)).digest('base64url').slice(0, 22);
}

export function plan(req: GenerateContentRequest, model: string, triggers: Triggers): Plan {
  const prompt = stripTriggers(lastUserText(req));
  const promptTokens =
    countContentTokens(req.contents) + countContentTokens(req.systemInstruction ? [req.systemInstruction] : []);
  const modelVersion = model.replace(/^(models|tunedModels)\//, '');
  const responseId = responseIdFor(req);
  const delayMs = triggers.has('fast')
    ? 0
    : Number(triggers.arg('slow') ?? (triggers.has('slow') ? 150 : DEFAULT_DELAY_MS));
  const stamp = (r: GenerateContentResponse): GenerateContentResponse => ({ ...r, modelVersion, responseId });

  if (triggers.has('block') || triggers.has('block-other')) {
    const other = triggers.has('block-other') && !triggers.has('block');
    return {
      delayMs,
      chunks: [
        stamp({
          promptFeedback: other
            ? { blockReason: 'OTHER', safetyRatings: NEGLIGIBLE_RATINGS }
            : {
                blockReason: 'SAFETY',
                safetyRatings: NEGLIGIBLE_RATINGS.map((r) =>
                  r.category === 'HARM_CATEGORY_HATE_SPEECH' ? { ...r, probability: 'HIGH', blocked: true } : r,
                ),
              },
          usageMetadata: { promptTokenCount: promptTokens, totalTokenCount: promptTokens },
        }),
      ],
    };
  }

  const call = functionCallFor(req, prompt, triggers);
  if (call) {
    const tokens = 3 + tokenize(JSON.stringify(call.args)).length;
    return {
      delayMs,
      chunks: [
        stamp({
          candidates: [{ content: { parts: [{ functionCall: call }], role: 'model' }, finishReason: 'STOP', index: 0 }],
          usageMetadata: {
            promptTokenCount: promptTokens,
            candidatesTokenCount: tokens,
            totalTokenCount: promptTokens + tokens,
          },
        }),
      ],
    };
  }

  const cfg = req.generationConfig ?? {};
  let text: string;
  let perChunk = TOKENS_PER_CHUNK;
  const long = Number(triggers.arg('long') ?? 0);
  if (long > 0) {
    text = Array.from({ length: long }, (_, i) => `Line ${i + 1} of ${long}: the sandbox keeps streaming.\n`).join('');
    perChunk = 0;
  } else if (cfg.responseMimeType === 'application/json') {
    text = JSON.stringify(
      cfg.responseSchema ? valueFor(cfg.responseSchema, prompt, 0) : { prompt, words: words(prompt).length },
    );
  } else if (cfg.responseMimeType === 'text/x.enum') {
    text = cfg.responseSchema?.enum?.[0] ?? '';
  } else if (lastFunctionResponses(req).length) {
    text = functionResultReply(lastFunctionResponses(req));
  } else if (triggers.has('xss')) {
    text = xssReply();
  } else {
    text = markdownReply(prompt, req.systemInstruction, mediaOf(req));
  }

  let finishReason = 'STOP';
  for (const stop of cfg.stopSequences ?? []) {
    const at = stop ? text.indexOf(stop) : -1;
    if (at >= 0) text = text.slice(0, at);
  }
  let tokens = perChunk === 0 ? text.split(/(?<=\n)/) : tokenize(text);
  const max = cfg.maxOutputTokens;
  const tokenCount = (pieces: string[]) =>
    perChunk === 0 ? pieces.reduce((n, p) => n + tokenize(p).length, 0) : pieces.length;
  if (max !== undefined && tokenCount(tokens) > max) {
    if (perChunk === 0) {
      const flat = tokenize(text).slice(0, max);
      tokens = flat.join('').split(/(?<=\n)/);
    } else {
      tokens = tokens.slice(0, max);
    }
    finishReason = 'MAX_TOKENS';
  }

  const groups: string[][] = [];
  const step = perChunk === 0 ? 1 : perChunk;
  for (let i = 0; i < tokens.length; i += step) groups.push(tokens.slice(i, i + step));
  if (groups.length === 0) groups.push([]);

  const thinking = triggers.has('thinking');
  const chunks: GenerateContentResponse[] = [];
  let emitted = 0;
  let emittedText = '';
  const usage = (extra: number) => {
    emitted += extra;
    return { promptTokenCount: promptTokens, candidatesTokenCount: emitted, totalTokenCount: promptTokens + emitted };
  };

  if (thinking) {
    const thought = `Thinking about "${prompt.slice(0, 60)}": answer in Markdown with a code sample.`;
    chunks.push(
      stamp({
        candidates: [
          {
            content: {
              parts: [
                { text: thought, thought: true, thoughtSignature: Buffer.from(`sig:${responseId}`).toString('base64') },
              ],
              role: 'model',
            },
            index: 0,
          },
        ],
        usageMetadata: { ...usage(0), thoughtsTokenCount: tokenize(thought).length },
      }),
    );
  }

  const safetyCut = triggers.has('safety') ? Math.max(1, Math.floor(groups.length / 2)) : groups.length;
  const citeMode = triggers.has('recitation') ? 'recitation' : triggers.has('cite') ? 'cite' : undefined;
  const citeAt = Math.min(safetyCut, groups.length) > 2 ? Math.floor(Math.min(safetyCut, groups.length) / 2) : 0;

  for (let i = 0; i < Math.min(safetyCut, groups.length); i++) {
    const piece = groups[i].join('');
    const candidate: Candidate = { content: { parts: [{ text: piece }], role: 'model' }, index: 0 };
    const before = Buffer.byteLength(emittedText);
    emittedText += piece;
    if (citeMode && i === citeAt) candidate.citationMetadata = { citationSources: citationsFor(emittedText, before) };
    const isLast =
      i === groups.length - 1 &&
      !citeMode?.startsWith('rec') &&
      !triggers.has('safety') &&
      !triggers.has('other') &&
      !triggers.has('language');
    if (isLast) candidate.finishReason = finishReason;
    chunks.push(stamp({ candidates: [candidate], usageMetadata: usage(tokenCount(groups[i])) }));
  }

  const tail = (candidate: Candidate) => chunks.push(stamp({ candidates: [candidate], usageMetadata: usage(0) }));
  if (triggers.has('safety')) {
    tail({
      content: { parts: [], role: 'model' },
      finishReason: 'SAFETY',
      index: 0,
      safetyRatings: NEGLIGIBLE_RATINGS.map((r) =>
        r.category === 'HARM_CATEGORY_HARASSMENT' ? { ...r, probability: 'HIGH', blocked: true } : r,
      ),
    });
  } else if (citeMode === 'recitation') {
    tail({ finishReason: 'RECITATION', index: 0 });
  } else if (triggers.has('other')) {
    tail({ finishReason: 'OTHER', finishMessage: 'Model failed to generate content due to internal error.', index: 0 });
  } else if (triggers.has('language')) {
    tail({ finishReason: 'LANGUAGE', index: 0 });
  }

  const result: Plan = { chunks, delayMs };
  if (triggers.has('midstream-error'))
    result.fault = { kind: 'midstream-error', afterChunks: Math.min(2, chunks.length) };
  if (triggers.has('reset')) result.fault = { kind: 'reset', afterChunks: Math.min(2, chunks.length) };
  return result;
}

/** Two sources inside the text so far: one spanning from byte 0 (startIndex omitted), one later. */
function citationsFor(textSoFar: string, chunkStartByte: number): CitationSource[] {
  const total = Buffer.byteLength(textSoFar);
  const firstEnd = Math.max(1, Math.min(chunkStartByte, Math.floor(total / 3)));
  return [
    { endIndex: firstEnd, uri: 'https://example.com/sandbox/reference-a', license: '' },
    { startIndex: chunkStartByte, endIndex: total, uri: 'https://example.com/sandbox/reference-b', license: 'mit' },
  ];
}

/** Merges a plan's chunks into the single response a unary call returns. */
export function unaryFrom(chunks: GenerateContentResponse[]): GenerateContentResponse {
  const out: GenerateContentResponse = {};
  const candidate: Candidate = { index: 0 };
  let hasCandidate = false;
  let text = '';
  const parts: Part[] = [];
  const citations: CitationSource[] = [];
  for (const c of chunks) {
    if (c.promptFeedback && !out.promptFeedback) out.promptFeedback = c.promptFeedback;
    if (c.usageMetadata) out.usageMetadata = c.usageMetadata;
    out.modelVersion = c.modelVersion;
    out.responseId = c.responseId;
    for (const cand of c.candidates ?? []) {
      hasCandidate = true;
      for (const p of cand.content?.parts ?? []) {
        if (typeof p.text === 'string' && !p.thought) text += p.text;
        else parts.push(p);
      }
      if (cand.finishReason) candidate.finishReason = cand.finishReason;
      if (cand.finishMessage) candidate.finishMessage = cand.finishMessage;
      if (cand.safetyRatings) candidate.safetyRatings = cand.safetyRatings;
      citations.push(...(cand.citationMetadata?.citationSources ?? []));
    }
  }
  if (hasCandidate) {
    const all = text ? [...parts, { text }] : parts;
    if (all.length) candidate.content = { parts: all, role: 'model' };
    if (citations.length) candidate.citationMetadata = { citationSources: citations };
    out.candidates = [candidate];
  }
  return out;
}
