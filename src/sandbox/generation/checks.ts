// The service's request checks, written from the API's rules independently of the client's
// checks so that a client bug cannot hide behind a matching emulator bug.
import {
  SUPPORTED_SAFETY_CATEGORIES,
  HARM_BLOCK_THRESHOLDS,
  type GenerateContentRequest,
} from '../../shared/wire/generation';

// Read after fieldNames.ts has turned snake_case names into lowerCamelCase.
const KNOWN_TOP_LEVEL = new Set([
  'contents',
  'tools',
  'toolConfig',
  'safetySettings',
  'systemInstruction',
  'generationConfig',
  'cachedContent',
  'model',
]);

/** The first unknown top-level field, which the service rejects as invalid JSON payload. */
export function unknownTopLevelField(body: Record<string, unknown>): string | undefined {
  return Object.keys(body).find((k) => !KNOWN_TOP_LEVEL.has(k));
}

const ROLES = new Set(['user', 'model', 'function', 'system']);

/** Field violations in the service's message style; empty when the request is acceptable. */
export function requestViolations(req: GenerateContentRequest): string[] {
  const out: string[] = [];
  const prefix = 'GenerateContentRequest';
  if (!Array.isArray(req.contents) || req.contents.length === 0) {
    out.push(`${prefix}.contents: contents is not specified`);
  } else {
    req.contents.forEach((c, i) => {
      if (!c || !Array.isArray(c.parts) || c.parts.length === 0)
        out.push(`${prefix}.contents[${i}].parts: contents.parts must not be empty.`);
      if (c?.role !== undefined && !ROLES.has(String(c.role)))
        out.push(`${prefix}.contents[${i}].role: Please use a valid role: user, model.`);
      (c?.parts ?? []).forEach((p, j) => {
        if (
          !p ||
          typeof p !== 'object' ||
          Object.keys(p).filter((k) => k !== 'thought' && k !== 'thoughtSignature').length === 0
        ) {
          out.push(
            `${prefix}.contents[${i}].parts[${j}].data: required oneof field 'data' must have one initialized field`,
          );
        }
        const at = `${prefix}.contents[${i}].parts[${j}]`;
        if (p?.fileData !== undefined && (typeof p.fileData?.fileUri !== 'string' || p.fileData.fileUri === '')) {
          out.push(`${at}.file_data.file_uri: file_uri is required`);
        }
        if (
          p?.inlineData !== undefined &&
          (typeof p.inlineData?.data !== 'string' ||
            typeof p.inlineData?.mimeType !== 'string' ||
            !p.inlineData.mimeType)
        ) {
          out.push(`${at}.inline_data: inline_data needs mime_type and data`);
        }
      });
    });
  }
  const g = req.generationConfig;
  if (g) {
    if (g.stopSequences !== undefined && (!Array.isArray(g.stopSequences) || g.stopSequences.length > 5)) {
      out.push(`${prefix}.generation_config.stop_sequences: at most 5 stop sequences are allowed`);
    }
    if (g.candidateCount !== undefined && g.candidateCount !== 1) {
      out.push(
        `${prefix}.generation_config.candidate_count: only one candidate can be generated; candidate_count must be 1`,
      );
    }
    if (g.temperature !== undefined && (typeof g.temperature !== 'number' || g.temperature < 0 || g.temperature > 2)) {
      out.push(`${prefix}.generation_config.temperature: temperature must be in the range [0.0, 2.0]`);
    }
    if (g.topP !== undefined && (typeof g.topP !== 'number' || g.topP < 0 || g.topP > 1)) {
      out.push(`${prefix}.generation_config.top_p: top_p must be in the range [0.0, 1.0]`);
    }
    if (g.topK !== undefined && (!Number.isInteger(g.topK) || g.topK < 1)) {
      out.push(`${prefix}.generation_config.top_k: top_k must be a positive integer`);
    }
    if (g.maxOutputTokens !== undefined && (!Number.isInteger(g.maxOutputTokens) || g.maxOutputTokens < 1)) {
      out.push(`${prefix}.generation_config.max_output_tokens: max_output_tokens must be a positive integer`);
    }
    if (g.responseSchema !== undefined && g.responseMimeType !== 'application/json') {
      out.push(
        `${prefix}.generation_config.response_mime_type: response_mime_type must be application/json when response_schema is set`,
      );
    }
    if (
      g.responseMimeType !== undefined &&
      !['text/plain', 'application/json', 'text/x.enum'].includes(g.responseMimeType)
    ) {
      out.push(
        `${prefix}.generation_config.response_mime_type: allowed mimetypes are \`text/plain\`, \`application/json\`, \`text/x.enum\`.`,
      );
    }
  }
  const seen = new Set<string>();
  (req.safetySettings ?? []).forEach((s, i) => {
    if (!(SUPPORTED_SAFETY_CATEGORIES as readonly string[]).includes(s?.category)) {
      out.push(`${prefix}.safety_settings[${i}].category: category ${String(s?.category)} is not supported`);
    } else if (seen.has(s.category)) {
      out.push(`${prefix}.safety_settings[${i}]: duplicate setting for ${s.category}`);
    }
    seen.add(s?.category);
    if (!(HARM_BLOCK_THRESHOLDS as readonly string[]).includes(s?.threshold)) {
      out.push(`${prefix}.safety_settings[${i}].threshold: invalid threshold ${String(s?.threshold)}`);
    }
  });
  if (req.systemInstruction && (req.systemInstruction.parts ?? []).some((p) => typeof p.text !== 'string')) {
    out.push(`${prefix}.system_instruction: system instruction must contain text parts only`);
  }
  (req.tools ?? []).forEach((t, i) => {
    (t.functionDeclarations ?? []).forEach((f, j) => {
      if (!f?.name || !/^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/.test(f.name)) {
        out.push(
          `${prefix}.tools[${i}].function_declarations[${j}].name: Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.) or dashes (-), with a maximum length of 64.`,
        );
      }
      if (f?.parameters !== undefined && f?.parametersJsonSchema !== undefined) {
        out.push(
          `${prefix}.tools[${i}].function_declarations[${j}]: parameters and parameters_json_schema cannot both be set`,
        );
      }
      const props = f?.parameters?.properties ?? {};
      for (const r of f?.parameters?.required ?? []) {
        if (!Object.hasOwn(props, r))
          out.push(
            `${prefix}.tools[${i}].function_declarations[${j}].parameters.required[${r}]: property is not defined`,
          );
      }
    });
  });
  if (req.cachedContent !== undefined && !/^cachedContents\/[^/]+$/.test(req.cachedContent)) {
    out.push(`${prefix}.cached_content: cached content name must have the form cachedContents/<id>`);
  }
  return out;
}
