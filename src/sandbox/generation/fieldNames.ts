// The service reads requests as proto3 JSON: `file_data.file_uri` and `fileData.fileUri` are the same
// field. Every request body is normalised here, once, before any check or reply logic reads it.
import { GENERATION_MESSAGES } from '../../shared/wire/generationFields';
import { normaliseMessage } from '../../shared/wire/protoJson';

export type RequestMessage = 'GenerateContentRequest' | 'CountTokensRequest' | 'CreateFileRequest';

export function normaliseRequest(body: unknown, type: RequestMessage): unknown {
  return normaliseMessage(body, type, GENERATION_MESSAGES);
}

/** A query parameter by its lowerCamelCase or its snake_case name (`pageSize` / `page_size`). */
export function queryParam(url: URL, camel: string): string | null {
  return url.searchParams.get(camel) ?? url.searchParams.get(camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
}
