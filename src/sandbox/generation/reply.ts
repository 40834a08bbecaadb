// The deterministic "model": turns a request into the sequence of chunks a stream carries.
// Unary replies are the same chunks merged, so both operations always agree.
import { createHash } from 'node:crypto';
import type {
  Candidate,
  CitationSource,
  Content,
  FunctionDeclaration,
  GenerateContentRequest,
  GenerateContentResponse,
  Part,
  SafetyRating,
  Schema,
} from '../../shared/wire/generation';
import { argsFor } from './functionArgs';
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

function lastFunctionResponses(req: GenerateContentRequest): Part[] {
  const last = req.contents[req.contents.length - 1];
  return (last?.parts ?? []).filter((p) => p.functionResponse);
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

function words(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}

/** Media parts of the last user turn, described so tests can see that attachments arrived. */
function mediaOf(req: GenerateContentRequest): string[] {
  const last = [...req.contents].reverse().find((c) => c.role === undefined || c.role === 'user');
  return (last?.parts ?? []).flatMap((p) => {
    if (p.inlineData)
      return [`inline ${p.inlineData.mimeType} (${Buffer.from(p.inlineData.data ?? '', 'base64').length} bytes)`];
    if (p.fileData)
      return [
        `file ${String(p.fileData.fileUri ?? '').replace(/^.*\/files\//, 'files/')} (${p.fileData.mimeType ?? 'unknown type'})`,
      ];
    return [];
  });
}

function markdownReply(prompt: string, system: Content | undefined, media: string[] = []): string {
  const w = words(prompt);
  const quoted = prompt.replace(/\s+/g, ' ').slice(0, 300) || '(empty prompt)';
  const systemText = (system?.parts ?? [])
    .map((p) => p.text ?? '')
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  const lines = [
    `**Sandbox reply** — you wrote ${w.length} word${w.length === 1 ? '' : 's'} (${[...prompt].length} characters).`,
    '',
    `> ${quoted}`,
    '',
  ];
  if (systemText) lines.push(`_System instruction in effect:_ ${systemText.slice(0, 160)}`, '');
  if (media.length) lines.push(`Attachments received: ${media.join('; ')}.`, '');
  lines.push(
    `Words in reverse order: ${w.slice(-30).reverse().join(' ') || '—'}.`,
    '',
    '```js',
    '// Generated from your prompt',
    `const prompt = ${JSON.stringify(prompt.slice(0, 200))};`,
    `console.log(prompt.split(/\\s+/).length); // ${w.length}`,
    '```',
    '',
    'Déjà vu check: naïve café — ✓.',
    '',
  );
  return lines.join('\n');
}

function xssReply(): string {
  return [
    'Here is some HTML the model produced:',
    '',
    '<script>window.__xss = 1</script>',
    '<img src="x" onerror="window.__xss = 2">',
    '',
    '[a link](javascript:window.__xss=3) and [a safe link](https://example.com/docs).',
    '',
  ].join('\n');
}

function functionResultReply(parts: Part[]): string {
  const lines: string[] = [];
  for (const p of parts) {
    const fr = p.functionResponse!;
    const keys = Object.keys(fr.response ?? {});
    lines.push(
      `The function \`${fr.name}\` returned ${keys.length} field${keys.length === 1 ? '' : 's'}:`,
      '',
      '```json',
      JSON.stringify(fr.response, null, 2),
      '```',
      '',
    );
  }
  return lines.join('\n');
}

/** Verbs that say nothing about what a function is for (get_weather is about "weather"). */
const GENERIC_WORDS = new Set([
  'get',
  'set',
  'list',
  'find',
  'fetch',
  'make',
  'create',
  'update',
  'delete',
  'run',
  'call',
  'do',
  'the',
  'for',
  'and',
]);

/** True when the prompt names a distinctive word of the function's name, so AUTO mode calls it. */
function mentions(prompt: string, name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length >= 3 && !GENERIC_WORDS.has(w));
  const text = prompt.toLowerCase();
  return words.some((w) => new RegExp(`\\b${w}`).test(text));
}

function declarations(req: GenerateContentRequest): FunctionDeclaration[] {
  return (req.tools ?? []).flatMap((t) => t.functionDeclarations ?? []);
}

function functionCallFor(
  req: GenerateContentRequest,
  prompt: string,
  triggers: Triggers,
): { name: string; args: Record<string, unknown> } | undefined {
  const decls = declarations(req);
  if (!decls.length) return undefined;
  if (lastFunctionResponses(req).length) return undefined;
  const fc = req.toolConfig?.functionCallingConfig;
  const mode = fc?.mode ?? 'AUTO';
  if (mode === 'NONE') return undefined;
  const allowed = fc?.allowedFunctionNames?.length
    ? decls.filter((d) => fc.allowedFunctionNames!.includes(d.name))
    : decls;
  const named = allowed.find((d) => prompt.includes(d.name)) ?? allowed.find((d) => mentions(prompt, d.name));
  const chosen = named ?? (mode === 'ANY' || triggers.has('call') ? allowed[0] : undefined);
  if (!chosen) return undefined;
  return { name: chosen.name, args: argsFor(chosen, prompt) };
}

/** A value of the schema, derived from the prompt's words, so JSON mode is checkable. */
export function valueFor(schema: Schema, prompt: string, depth: number): unknown {
  const type = String(schema.type ?? (schema.properties ? 'object' : 'string')).toLowerCase();
  const w = words(prompt);
  if (schema.enum?.length) return schema.enum[0];
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const order = schema.propertyOrdering ?? Object.keys(schema.properties ?? {});
      for (const key of order) {
        const sub = schema.properties?.[key];
        if (sub) out[key] = valueFor(sub, prompt, depth + 1);
      }
      return out;
    }
    case 'array': {
      const n = Math.max(Number(schema.minItems ?? 0), Math.min(2, Number(schema.maxItems ?? 2)));
      return Array.from({ length: n }, (_, i) =>
        valueFor(schema.items ?? { type: 'string' }, w.slice(i).join(' '), depth + 1),
      );
    }
    case 'integer':
      return w.length;
    case 'number':
      return w.length / 2;
    case 'boolean':
      return w.length % 2 === 0;
    default:
      return w[depth % Math.max(1, w.length)] ?? 'sandbox';
  }
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
