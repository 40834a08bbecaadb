// The models the sandbox serves. Shapes follow models.list of the real service; the tuned model
// lets clients exercise `tunedModels/…` names.
import type { Model } from '../../shared/wire/generation';

const GENERATE = ['generateContent', 'countTokens', 'createCachedContent', 'batchGenerateContent'];

const DETERMINISTIC = 'Deterministic sandbox model: replies are derived from the prompt.';

/** A Gemini text model as models.list shows it: 1M tokens in, default sampling of the family. */
function geminiModel(m: {
  name: string;
  version: string;
  displayName: string;
  description?: string;
  outputTokenLimit: number;
  topK?: number;
  thinking?: boolean;
}): Model {
  return {
    name: m.name,
    version: m.version,
    displayName: m.displayName,
    description: m.description ?? DETERMINISTIC,
    inputTokenLimit: 1048576,
    outputTokenLimit: m.outputTokenLimit,
    supportedGenerationMethods: GENERATE,
    temperature: 1,
    topP: 0.95,
    ...(m.topK !== undefined ? { topK: m.topK } : {}),
    maxTemperature: 2,
    ...(m.thinking ? { thinking: true } : {}),
  };
}

export const CATALOG: readonly Model[] = [
  geminiModel({
    name: 'models/gemini-2.5-flash',
    version: '001',
    displayName: 'Gemini 2.5 Flash (sandbox)',
    outputTokenLimit: 65536,
    topK: 64,
    thinking: true,
  }),
  geminiModel({
    name: 'models/gemini-2.5-pro',
    version: '2.5',
    displayName: 'Gemini 2.5 Pro (sandbox)',
    outputTokenLimit: 65536,
    topK: 64,
    thinking: true,
  }),
  geminiModel({
    name: 'models/gemini-2.0-flash',
    version: '2.0',
    displayName: 'Gemini 2.0 Flash (sandbox)',
    outputTokenLimit: 8192,
    topK: 40,
  }),
  geminiModel({
    name: 'models/gemini-2.0-flash-lite',
    version: '2.0',
    displayName: 'Gemini 2.0 Flash-Lite (sandbox)',
    description: 'Nucleus sampling only: topK cannot be set.',
    outputTokenLimit: 8192,
  }),
  {
    name: 'models/text-embedding-004',
    version: '004',
    displayName: 'Text Embedding 004 (sandbox)',
    description: 'Embeddings only; generateContent is not supported.',
    inputTokenLimit: 2048,
    outputTokenLimit: 1,
    supportedGenerationMethods: ['embedContent'],
  },
  {
    name: 'tunedModels/sandbox-support-bot',
    baseModelId: 'models/gemini-2.0-flash',
    displayName: 'Support bot (tuned, sandbox)',
    description: 'A tuned model; answers like its base model.',
    inputTokenLimit: 1048576,
    outputTokenLimit: 8192,
    supportedGenerationMethods: ['generateContent', 'countTokens'],
    temperature: 1,
    topP: 0.95,
    topK: 40,
  },
];

export function findModel(name: string): Model | undefined {
  return CATALOG.find((m) => m.name === name);
}
