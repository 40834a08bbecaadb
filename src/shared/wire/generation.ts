// Wire shapes of the content generation API (v1beta), shared by the emulator and the client.
// Every object is open: the service adds fields and enum values over time, and a client that
// drops what it does not know loses data (see the reference digest, "aggregation pitfalls").

export type Role = 'user' | 'model' | 'function' | 'system' | (string & {});

export interface Blob {
  mimeType: string;
  /** Base64. */
  data: string;
}

export interface FileData {
  mimeType?: string;
  fileUri: string;
}

export interface FunctionCall {
  id?: string;
  name: string;
  args?: Record<string, unknown>;
}

export interface FunctionResponse {
  id?: string;
  name: string;
  response: Record<string, unknown>;
}

export interface ExecutableCode {
  language: string;
  code: string;
}

export interface CodeExecutionResult {
  outcome: string;
  output?: string;
}

export interface Part {
  text?: string;
  /** True on parts that carry the model's reasoning rather than its answer. */
  thought?: boolean;
  /** Opaque; must be sent back unchanged in history. */
  thoughtSignature?: string;
  inlineData?: Blob;
  fileData?: FileData;
  functionCall?: FunctionCall;
  functionResponse?: FunctionResponse;
  executableCode?: ExecutableCode;
  codeExecutionResult?: CodeExecutionResult;
  [extra: string]: unknown;
}

export interface Content {
  role?: Role;
  parts?: Part[];
  [extra: string]: unknown;
}

/** OpenAPI-subset schema used by function declarations and responseSchema. */
export interface Schema {
  type?: string;
  format?: string;
  description?: string;
  nullable?: boolean;
  enum?: string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minItems?: string | number;
  maxItems?: string | number;
  propertyOrdering?: string[];
  [extra: string]: unknown;
}

export interface FunctionDeclaration {
  name: string;
  description?: string;
  parameters?: Schema;
  /** A JSON Schema (draft 2020-12 subset) instead of `parameters`; what @google/genai sends for JSON-schema tools. */
  parametersJsonSchema?: unknown;
  [extra: string]: unknown;
}

export interface Tool {
  functionDeclarations?: FunctionDeclaration[];
  [extra: string]: unknown;
}

export interface ToolConfig {
  functionCallingConfig?: {
    mode?: 'AUTO' | 'ANY' | 'NONE' | 'MODE_UNSPECIFIED' | (string & {});
    allowedFunctionNames?: string[];
  };
  [extra: string]: unknown;
}

export const SUPPORTED_SAFETY_CATEGORIES = [
  'HARM_CATEGORY_HATE_SPEECH',
  'HARM_CATEGORY_SEXUALLY_EXPLICIT',
  'HARM_CATEGORY_DANGEROUS_CONTENT',
  'HARM_CATEGORY_HARASSMENT',
] as const;

export const HARM_BLOCK_THRESHOLDS = [
  'HARM_BLOCK_THRESHOLD_UNSPECIFIED',
  'BLOCK_LOW_AND_ABOVE',
  'BLOCK_MEDIUM_AND_ABOVE',
  'BLOCK_ONLY_HIGH',
  'BLOCK_NONE',
] as const;

export type HarmCategory = string;
export type HarmProbability = 'HARM_PROBABILITY_UNSPECIFIED' | 'NEGLIGIBLE' | 'LOW' | 'MEDIUM' | 'HIGH' | (string & {});

export interface SafetySetting {
  category: HarmCategory;
  threshold: string;
}

export interface GenerationConfig {
  stopSequences?: string[];
  responseMimeType?: string;
  responseSchema?: Schema;
  candidateCount?: number;
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  [extra: string]: unknown;
}

export interface GenerateContentRequest {
  contents: Content[];
  tools?: Tool[];
  toolConfig?: ToolConfig;
  safetySettings?: SafetySetting[];
  systemInstruction?: Content;
  generationConfig?: GenerationConfig;
  cachedContent?: string;
  [extra: string]: unknown;
}

export interface SafetyRating {
  category: HarmCategory;
  probability: HarmProbability;
  blocked?: boolean;
  [extra: string]: unknown;
}

export interface CitationSource {
  /** UTF-8 byte offset into the candidate's text; absent means 0. */
  startIndex?: number;
  /** Exclusive UTF-8 byte offset. */
  endIndex?: number;
  uri?: string;
  license?: string;
  [extra: string]: unknown;
}

export interface CitationMetadata {
  citationSources?: CitationSource[];
  [extra: string]: unknown;
}

export interface Candidate {
  content?: Content;
  finishReason?: string;
  finishMessage?: string;
  safetyRatings?: SafetyRating[];
  citationMetadata?: CitationMetadata;
  groundingMetadata?: Record<string, unknown>;
  tokenCount?: number;
  index?: number;
  [extra: string]: unknown;
}

export interface PromptFeedback {
  blockReason?: string;
  blockReasonMessage?: string;
  safetyRatings?: SafetyRating[];
  [extra: string]: unknown;
}

export interface UsageMetadata {
  promptTokenCount?: number;
  cachedContentTokenCount?: number;
  candidatesTokenCount?: number;
  thoughtsTokenCount?: number;
  toolUsePromptTokenCount?: number;
  totalTokenCount?: number;
  [extra: string]: unknown;
}

export interface GenerateContentResponse {
  candidates?: Candidate[];
  promptFeedback?: PromptFeedback;
  usageMetadata?: UsageMetadata;
  modelVersion?: string;
  responseId?: string;
  [extra: string]: unknown;
}

export interface CountTokensRequest {
  contents?: Content[];
  generateContentRequest?: GenerateContentRequest & { model?: string };
}

export interface CountTokensResponse {
  totalTokens: number;
  cachedContentTokenCount?: number;
  promptTokensDetails?: { modality: string; tokenCount: number }[];
  [extra: string]: unknown;
}

export interface Model {
  name: string;
  baseModelId?: string;
  version?: string;
  displayName?: string;
  description?: string;
  inputTokenLimit?: number;
  outputTokenLimit?: number;
  supportedGenerationMethods?: string[];
  temperature?: number;
  maxTemperature?: number;
  topP?: number;
  topK?: number;
  thinking?: boolean;
  [extra: string]: unknown;
}

export interface ListModelsResponse {
  models?: Model[];
  nextPageToken?: string;
}

export type FileState = 'STATE_UNSPECIFIED' | 'PROCESSING' | 'ACTIVE' | 'FAILED';

export interface FileRecord {
  name: string;
  displayName?: string;
  mimeType: string;
  sizeBytes: string;
  createTime: string;
  updateTime: string;
  expirationTime: string;
  sha256Hash?: string;
  uri: string;
  state: FileState;
  error?: RpcStatus;
  [extra: string]: unknown;
}

/** One entry of google.rpc.Status.details; `@type` names the detail message. */
export interface RpcDetail {
  '@type': string;
  [field: string]: unknown;
}

export interface RpcStatus {
  code: number;
  message: string;
  status: string;
  details?: RpcDetail[];
}

/** The body of every error response, and of a raw error that arrives mid-stream. */
export interface ErrorBody {
  error: RpcStatus;
}

export const RPC_TYPE = {
  errorInfo: 'type.googleapis.com/google.rpc.ErrorInfo',
  localizedMessage: 'type.googleapis.com/google.rpc.LocalizedMessage',
  help: 'type.googleapis.com/google.rpc.Help',
  quotaFailure: 'type.googleapis.com/google.rpc.QuotaFailure',
  retryInfo: 'type.googleapis.com/google.rpc.RetryInfo',
  debugInfo: 'type.googleapis.com/google.rpc.DebugInfo',
  badRequest: 'type.googleapis.com/google.rpc.BadRequest',
} as const;
