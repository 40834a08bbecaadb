// Responses are proto3 JSON too: a field may arrive as `finishReason` or `finish_reason` (proxies and
// other front ends re-serialise with proto names). Every response object is read through this before
// the aggregator or a caller sees it, so the rest of the client only knows the lowerCamelCase names.
import type { CountTokensResponse, GenerateContentResponse } from '../../shared/wire/generation';
import { GENERATION_MESSAGES } from '../../shared/wire/generationFields';
import { normaliseMessage } from '../../shared/wire/protoJson';

export function normaliseResponse(value: object): GenerateContentResponse {
  return normaliseMessage(value, 'GenerateContentResponse', GENERATION_MESSAGES) as GenerateContentResponse;
}

export function normaliseCountTokens(value: object): CountTokensResponse {
  return normaliseMessage(value, 'CountTokensResponse', GENERATION_MESSAGES) as CountTokensResponse;
}
