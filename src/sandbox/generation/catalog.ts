// The models the sandbox serves. Shapes follow models.list of the real service; the tuned model
// lets clients exercise `tunedModels/…` names.
import type { Model } from '../../shared/wire/generation';

const GENERATE = ['generateContent', 'countTokens', 'createCachedContent', 'batchGenerateContent'];

export const CATALOG: readonly Model[] = [
  {
    name: 'models/gemini-2.5-flash',
    version: '001',
    displayName: 'Gemini 2.5 Flash (sandbox)',
    description: 'Deterministic sandbox model: replies are derived from the prompt.',
    inputTokenLimit: 1048576,
    outputTokenLimit: 65536,
    supportedGenerationMethods: GENERATE,
    temperature: 1,
    topP: 0.95,
    topK: 64,
    maxTemperature: 2,
    thinking: true,
  },
  {
    name: 'models/gemini-2.5-pro',
    version: '2.5',
    displayName: 'Gemini 2.5 Pro (sandbox)',
    description: 'Deterministic sandbox model: replies are derived from the prompt.',
    inputTokenLimit: 1048576,
    outputTokenLimit: 65536,
    supportedGenerationMethods: GENERATE,
    temperature: 1,
    topP: 0.95,
    topK: 64,
    maxTemperature: 2,
    thinking: true,
  },
  {
    name: 'models/gemini-2.0-flash',
    version: '2.0',
    displayName: 'Gemini 2.0 Flash (sandbox)',
    description: 'Deterministic sandbox model: replies are derived from the prompt.',
    inputTokenLimit: 1048576,
    outputTokenLimit: 8192,
    supportedGenerationMethods: GENERATE,
    temperature: 1,
    topP: 0.95,
    topK: 40,
    maxTemperature: 2,
  },
  {
    name: 'models/gemini-2.0-flash-lite',
    version: '2.0',
    displayName: 'Gemini 2.0 Flash-Lite (sandbox)',
    description: 'Nucleus sampling only: topK cannot be set.',
    inputTokenLimit: 1048576,
    outputTokenLimit: 8192,
    supportedGenerationMethods: GENERATE,
    temperature: 1,
    topP: 0.95,
    maxTemperature: 2,
  },
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
