// Public surface of the editor-free generation core.
export { SseReader, type StreamItem } from './sse';
export { JsonArrayReader } from './jsonArray';
export { Aggregator, candidateText, historyParts } from './aggregate';
export { chunkDelta, primaryCandidate, textOf, type TextDelta } from './delta';
export { validateRequest, validateModelName } from './validate';
export { errorAdvice, fromErrorBody, fromHttpBody, isRetryable, type GenerationError } from './errors';
export { buildUrl, redactUrl, type ConnectionOptions, type ResponseLike, type RetryOptions } from './http';
export {
  countTokens,
  generateContent,
  listModels,
  streamGenerateContent,
  StreamConsumer,
  type ChunkListener,
  type StreamOptions,
  type StreamResult,
  type UnaryResult,
} from './client';
export { explainBlockReason, explainFinishReason, type Explanation } from './explain';
export { byteToCharIndex, mapCitations, type MappedCitation } from './citations';
export {
  uploadFile,
  getFile,
  waitForActive,
  fileDataPart,
  UPLOAD_CHUNK_BYTES,
  type UploadOptions,
  type FileResult,
} from './files';
