// Public surface of the editor-free generation core used by the CLI, tests and benchmarks; the
// vscode adapter imports the modules it needs directly.
export { candidateText } from './aggregate';
export { chunkDelta, primaryCandidate, textOf } from './delta';
export { validateRequest } from './validate';
export { errorAdvice } from './errors';
export { countTokens, generateContent, listModels, streamGenerateContent, StreamConsumer } from './client';
export { explainBlockReason, explainFinishReason } from './explain';
export { uploadFile, waitForActive, fileDataPart } from './files';
