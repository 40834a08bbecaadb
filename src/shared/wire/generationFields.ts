// Field names of the content generation API's messages (v1beta), for proto3 JSON name normalisation
// (see protoJson.ts). Both directions are listed: requests (emulator) and responses (client).
// Fields whose value is google.protobuf.Struct/Value (function args and responses, JSON schemas,
// examples, defaults) are 'value': their keys belong to the user and must not be renamed.
import type { FieldKind, MessageTable } from './protoJson';

const V = 'value' as const;
const msg = (message: string): FieldKind => ({ message });

export const GENERATION_MESSAGES: MessageTable = {
  GenerateContentRequest: {
    model: V, contents: msg('Content'), tools: msg('Tool'), toolConfig: msg('ToolConfig'), safetySettings: msg('SafetySetting'),
    systemInstruction: msg('Content'), generationConfig: msg('GenerationConfig'), cachedContent: V,
  },
  CountTokensRequest: { contents: msg('Content'), generateContentRequest: msg('GenerateContentRequest') },
  Content: { role: V, parts: msg('Part') },
  Part: {
    text: V, inlineData: msg('Blob'), fileData: msg('FileData'), functionCall: msg('FunctionCall'),
    functionResponse: msg('FunctionResponse'), executableCode: msg('ExecutableCode'), codeExecutionResult: msg('CodeExecutionResult'),
    thought: V, thoughtSignature: V, videoMetadata: msg('VideoMetadata'), partMetadata: V, mediaResolution: V,
  },
  Blob: { mimeType: V, data: V, displayName: V },
  FileData: { mimeType: V, fileUri: V, displayName: V },
  VideoMetadata: { startOffset: V, endOffset: V, fps: V },
  FunctionCall: { id: V, name: V, args: V },
  FunctionResponse: { id: V, name: V, response: V, willContinue: V, scheduling: V, parts: V },
  ExecutableCode: { language: V, code: V },
  CodeExecutionResult: { outcome: V, output: V },
  Tool: {
    functionDeclarations: msg('FunctionDeclaration'), googleSearchRetrieval: msg('GoogleSearchRetrieval'), codeExecution: V,
    googleSearch: msg('GoogleSearch'), urlContext: V, computerUse: V, fileSearch: V, googleMaps: V,
  },
  GoogleSearchRetrieval: { dynamicRetrievalConfig: msg('DynamicRetrievalConfig') },
  DynamicRetrievalConfig: { mode: V, dynamicThreshold: V },
  GoogleSearch: { timeRangeFilter: msg('Interval') },
  Interval: { startTime: V, endTime: V },
  FunctionDeclaration: {
    name: V, description: V, behavior: V, parameters: msg('Schema'), parametersJsonSchema: V, response: msg('Schema'), responseJsonSchema: V,
  },
  Schema: {
    type: V, format: V, title: V, description: V, nullable: V, enum: V, maxItems: V, minItems: V, properties: { mapOf: 'Schema' },
    required: V, minProperties: V, maxProperties: V, minLength: V, maxLength: V, pattern: V, example: V, anyOf: msg('Schema'),
    propertyOrdering: V, default: V, items: msg('Schema'), minimum: V, maximum: V,
  },
  ToolConfig: { functionCallingConfig: msg('FunctionCallingConfig'), retrievalConfig: msg('RetrievalConfig') },
  FunctionCallingConfig: { mode: V, allowedFunctionNames: V },
  RetrievalConfig: { latLng: msg('LatLng'), languageCode: V },
  LatLng: { latitude: V, longitude: V },
  SafetySetting: { category: V, threshold: V },
  GenerationConfig: {
    stopSequences: V, responseMimeType: V, responseSchema: msg('Schema'), responseJsonSchema: V, responseModalities: V,
    candidateCount: V, maxOutputTokens: V, temperature: V, topP: V, topK: V, seed: V, presencePenalty: V, frequencyPenalty: V,
    responseLogprobs: V, logprobs: V, enableEnhancedCivicAnswers: V, speechConfig: V, thinkingConfig: msg('ThinkingConfig'),
    mediaResolution: V, imageConfig: msg('ImageConfig'),
  },
  ThinkingConfig: { includeThoughts: V, thinkingBudget: V, thinkingLevel: V },
  ImageConfig: { aspectRatio: V, imageSize: V },
  CreateFileRequest: { file: msg('File') },
  File: { name: V, displayName: V, mimeType: V, sizeBytes: V },

  GenerateContentResponse: {
    candidates: msg('Candidate'), promptFeedback: msg('PromptFeedback'), usageMetadata: msg('UsageMetadata'), modelVersion: V, responseId: V,
  },
  Candidate: {
    content: msg('Content'), finishReason: V, finishMessage: V, safetyRatings: msg('SafetyRating'),
    citationMetadata: msg('CitationMetadata'), tokenCount: V, groundingAttributions: V, groundingMetadata: V, avgLogprobs: V,
    logprobsResult: V, urlContextMetadata: V, index: V,
  },
  PromptFeedback: { blockReason: V, blockReasonMessage: V, safetyRatings: msg('SafetyRating') },
  SafetyRating: { category: V, probability: V, blocked: V },
  CitationMetadata: { citationSources: msg('CitationSource') },
  CitationSource: { startIndex: V, endIndex: V, uri: V, license: V },
  UsageMetadata: {
    promptTokenCount: V, cachedContentTokenCount: V, candidatesTokenCount: V, toolUsePromptTokenCount: V, thoughtsTokenCount: V,
    totalTokenCount: V, promptTokensDetails: V, cacheTokensDetails: V, candidatesTokensDetails: V, toolUsePromptTokensDetails: V,
  },
  CountTokensResponse: { totalTokens: V, cachedContentTokenCount: V, promptTokensDetails: V },
};
