// Responses are proto3 JSON too: a field may arrive as `finishReason` or `finish_reason` (proxies and
// other front ends re-serialise with proto names). Every response object is read through this before
// the aggregator or a caller sees it, so the rest of the client only knows the lowerCamelCase names.
import type { CountTokensResponse, GenerateContentResponse } from '../../shared/wire/generation';
import { GENERATION_MESSAGES } from '../../shared/wire/generationFields';
import { normaliseMessage } from '../../shared/wire/protoJson';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Whether a key of `o` holds an underscore. The names the service sends on every event are matched first, by
 * identity (keys are internalised strings), so only other keys pay for a search: the search was 3% of reading a
 * stream, a tenth of the time above the floor.
 */
function snakeKeyIn(o: Record<string, unknown>): boolean {
  for (const k in o) {
    switch (k) {
      case 'candidates':
      case 'usageMetadata':
      case 'modelVersion':
      case 'responseId':
      case 'promptFeedback':
      case 'content':
      case 'finishReason':
      case 'index':
      case 'safetyRatings':
      case 'citationMetadata':
      case 'groundingMetadata':
      case 'parts':
      case 'role':
      case 'text':
        continue;
    }
    if (k.includes('_')) return true;
  }
  return false;
}

/**
 * Whether the parsed event was written with proto field names (`finish_reason`). A serialiser that uses them
 * does so for every field of every message, and every message an event can hold hangs under a multi-word
 * field at one of these levels (`usage_metadata`, `prompt_feedback`, `safety_ratings`, `citation_metadata`,
 * `grounding_metadata`, `inline_data`, `function_call`…), so looking at the keys of the event, its candidates,
 * their content and its parts is enough. Most events skip the normalising walk; looking at a few keys costs
 * far less than scanning the event's text for underscores (15% of reading a stream) or walking all of it.
 */
export function hasSnakeKey(event: unknown): boolean {
  if (!isObject(event)) return false;
  if (snakeKeyIn(event)) return true;
  const candidates = event.candidates;
  if (!Array.isArray(candidates)) return false;
  for (const c of candidates as unknown[]) {
    if (!isObject(c)) continue;
    if (snakeKeyIn(c)) return true;
    const content = c.content;
    if (!isObject(content)) continue;
    if (snakeKeyIn(content)) return true;
    const parts = content.parts;
    if (Array.isArray(parts)) for (const p of parts as unknown[]) if (isObject(p) && snakeKeyIn(p)) return true;
  }
  return false;
}

export function normaliseResponse(value: object): GenerateContentResponse {
  return normaliseMessage(value, 'GenerateContentResponse', GENERATION_MESSAGES) as GenerateContentResponse;
}

export function normaliseCountTokens(value: object): CountTokensResponse {
  return normaliseMessage(value, 'CountTokensResponse', GENERATION_MESSAGES) as CountTokensResponse;
}
