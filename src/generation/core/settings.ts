// Panel settings → the request the API expects.
import type { Content, GenerateContentRequest, GenerationConfig, Schema, Tool } from '../../shared/wire/generation';
import type { PanelSettings } from '../protocol';

export const DEFAULT_SETTINGS: PanelSettings = {
  model: 'models/gemini-2.5-flash',
  systemInstruction: '',
  stopSequences: [],
  jsonMode: false,
  responseSchema: '',
  safety: {},
  cachedContent: '',
  builtinTools: true,
};

/** Settings as stored may come from an older version: fill what is missing, drop what is wrong. */
export function normalizeSettings(value: unknown): PanelSettings {
  const v = (value && typeof value === 'object' ? value : {}) as Partial<PanelSettings>;
  const num = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : undefined);
  return {
    model: typeof v.model === 'string' && v.model ? v.model : DEFAULT_SETTINGS.model,
    systemInstruction: typeof v.systemInstruction === 'string' ? v.systemInstruction : '',
    temperature: num(v.temperature),
    topP: num(v.topP),
    topK: num(v.topK),
    maxOutputTokens: num(v.maxOutputTokens),
    stopSequences: Array.isArray(v.stopSequences)
      ? v.stopSequences.filter((s) => typeof s === 'string' && s.length > 0)
      : [],
    candidateCount: num(v.candidateCount),
    jsonMode: !!v.jsonMode,
    responseSchema: typeof v.responseSchema === 'string' ? v.responseSchema : '',
    safety: v.safety && typeof v.safety === 'object' ? { ...v.safety } : {},
    cachedContent: typeof v.cachedContent === 'string' ? v.cachedContent : '',
    builtinTools: v.builtinTools === undefined ? true : !!v.builtinTools,
  };
}

export interface BuiltRequest {
  request: GenerateContentRequest;
  /** Problems found while reading the settings themselves (e.g. a schema that is not JSON). */
  problems: string[];
}

/** Only "an object" is checked: the service reports what it cannot read inside a schema. */
function isSchemaObject(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function buildRequest(settings: PanelSettings, contents: Content[], tools: Tool[] = []): BuiltRequest {
  const problems: string[] = [];
  const request: GenerateContentRequest = { contents };
  const g: GenerationConfig = {};
  if (settings.temperature !== undefined) g.temperature = settings.temperature;
  if (settings.topP !== undefined) g.topP = settings.topP;
  if (settings.topK !== undefined) g.topK = settings.topK;
  if (settings.maxOutputTokens !== undefined) g.maxOutputTokens = settings.maxOutputTokens;
  if (settings.candidateCount !== undefined) g.candidateCount = settings.candidateCount;
  if (settings.stopSequences.length) g.stopSequences = settings.stopSequences;
  if (settings.jsonMode) {
    g.responseMimeType = 'application/json';
    if (settings.responseSchema.trim()) {
      let schema: unknown;
      try {
        schema = JSON.parse(settings.responseSchema);
      } catch (e) {
        problems.push(`The response schema is not valid JSON: ${(e as Error).message}`);
      }
      if (isSchemaObject(schema)) g.responseSchema = schema;
      else if (schema !== undefined) problems.push('The response schema must be a JSON object.');
    }
  }
  if (Object.keys(g).length) request.generationConfig = g;
  if (settings.systemInstruction.trim()) request.systemInstruction = { parts: [{ text: settings.systemInstruction }] };
  const safety = Object.entries(settings.safety).filter(([, t]) => t && t !== 'HARM_BLOCK_THRESHOLD_UNSPECIFIED');
  if (safety.length) request.safetySettings = safety.map(([category, threshold]) => ({ category, threshold }));
  if (settings.cachedContent.trim()) request.cachedContent = settings.cachedContent.trim();
  if (tools.length) request.tools = tools;
  return { request, problems };
}
