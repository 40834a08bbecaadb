// The emulator's tokenizer: a word with its leading whitespace is one token. Crude, but
// deterministic, so usage counts, maxOutputTokens and chunking are predictable in tests.
import type { Content, Part } from '../../shared/wire/generation';

/** Splits text into tokens whose concatenation is exactly the text. */
export function tokenize(text: string): string[] {
  const tokens: string[] = text.match(/\s*\S+/g) ?? [];
  const consumed = tokens.reduce((n, t) => n + t.length, 0);
  if (consumed < text.length) {
    const tail = text.slice(consumed);
    if (tokens.length) tokens[tokens.length - 1] += tail;
    else tokens.push(tail);
  }
  return tokens;
}

/** Media parts cost a fixed amount, like an image on the real service. */
const MEDIA_TOKENS = 258;

export function countPartTokens(part: Part): number {
  if (typeof part.text === 'string') return tokenize(part.text).length;
  if (part.inlineData || part.fileData) return MEDIA_TOKENS;
  if (part.functionCall) return 3 + tokenize(JSON.stringify(part.functionCall.args ?? {})).length;
  if (part.functionResponse) return 3 + tokenize(JSON.stringify(part.functionResponse.response ?? {})).length;
  return 1;
}

export function countContentTokens(contents: readonly Content[] | undefined): number {
  let n = 0;
  for (const c of contents ?? []) for (const p of c.parts ?? []) n += countPartTokens(p);
  return n;
}
