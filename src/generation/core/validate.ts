// Checks the spec's request rules before anything is sent, with messages that name the field
// and say what to change. Returns one message per problem; empty means the request may go.
import {
  SUPPORTED_SAFETY_CATEGORIES,
  HARM_BLOCK_THRESHOLDS,
  type GenerateContentRequest,
  type Part,
} from '../../shared/wire/generation';

const MODEL_NAME = /^(models|tunedModels)\/[A-Za-z0-9][A-Za-z0-9._-]*$/;
const ROLES = new Set(['user', 'model', 'function', 'system']);

function partKinds(p: Part): string[] {
  return [
    'text',
    'inlineData',
    'fileData',
    'functionCall',
    'functionResponse',
    'executableCode',
    'codeExecutionResult',
  ].filter((k) => p[k] !== undefined);
}

export function validateModelName(model: string): string | undefined {
  if (MODEL_NAME.test(model)) return undefined;
  return `model "${model}" must be named models/<id> or tunedModels/<name> (e.g. models/gemini-2.5-flash).`;
}

export function validateRequest(model: string, request: GenerateContentRequest): string[] {
  const out: string[] = [];
  const bad = validateModelName(model);
  if (bad) out.push(bad);
  if (!request || typeof request !== 'object')
    return [...out, 'the request must be a JSON object with a contents array.'];

  if (!Array.isArray(request.contents) || request.contents.length === 0) {
    out.push('contents must hold at least one message (the prompt).');
  } else {
    request.contents.forEach((c, i) => {
      if (c.role !== undefined && !ROLES.has(String(c.role)))
        out.push(`contents[${i}].role "${String(c.role)}" is not one of user, model, function.`);
      if (!Array.isArray(c.parts) || c.parts.length === 0)
        out.push(`contents[${i}] has no parts; every message needs at least one part.`);
      (c.parts ?? []).forEach((p, j) => {
        const kinds = partKinds(p);
        if (kinds.length === 0)
          out.push(
            `contents[${i}].parts[${j}] holds no data (text, inlineData, fileData, functionCall or functionResponse).`,
          );
        if (kinds.length > 1)
          out.push(`contents[${i}].parts[${j}] holds ${kinds.join(' and ')}; a part holds exactly one kind of data.`);
        if (p.inlineData && (typeof p.inlineData.mimeType !== 'string' || typeof p.inlineData.data !== 'string')) {
          out.push(`contents[${i}].parts[${j}].inlineData needs mimeType and base64 data.`);
        }
        if (p.fileData && typeof p.fileData.fileUri !== 'string')
          out.push(`contents[${i}].parts[${j}].fileData needs a fileUri.`);
        if (
          p.functionResponse &&
          (typeof p.functionResponse.name !== 'string' || typeof p.functionResponse.response !== 'object')
        ) {
          out.push(`contents[${i}].parts[${j}].functionResponse needs a name and a response object.`);
        }
      });
    });
    const last = request.contents[request.contents.length - 1];
    if (last?.role === 'model')
      out.push('the last message is from the model; end the conversation with a user (or function) turn.');
  }

  const g = request.generationConfig;
  if (g) {
    if (g.stopSequences !== undefined) {
      if (!Array.isArray(g.stopSequences) || g.stopSequences.some((s) => typeof s !== 'string'))
        out.push('generationConfig.stopSequences must be a list of strings.');
      else if (g.stopSequences.length > 5)
        out.push(`generationConfig.stopSequences has ${g.stopSequences.length} entries; at most 5 are allowed.`);
    }
    if (g.candidateCount !== undefined && g.candidateCount !== 1)
      out.push(`generationConfig.candidateCount is ${String(g.candidateCount)}; only 1 is allowed.`);
    if (
      g.temperature !== undefined &&
      (typeof g.temperature !== 'number' || !(g.temperature >= 0 && g.temperature <= 2))
    ) {
      out.push(`generationConfig.temperature is ${String(g.temperature)}; it must be between 0.0 and 2.0.`);
    }
    if (g.topP !== undefined && (typeof g.topP !== 'number' || !(g.topP >= 0 && g.topP <= 1)))
      out.push(`generationConfig.topP is ${String(g.topP)}; it must be between 0.0 and 1.0.`);
    if (g.topK !== undefined && (!Number.isInteger(g.topK) || g.topK < 1))
      out.push(`generationConfig.topK is ${String(g.topK)}; it must be a positive integer.`);
    if (g.maxOutputTokens !== undefined && (!Number.isInteger(g.maxOutputTokens) || g.maxOutputTokens < 1)) {
      out.push(`generationConfig.maxOutputTokens is ${String(g.maxOutputTokens)}; it must be a positive integer.`);
    }
    if (
      g.responseMimeType !== undefined &&
      !['text/plain', 'application/json', 'text/x.enum'].includes(g.responseMimeType)
    ) {
      out.push(
        `generationConfig.responseMimeType "${g.responseMimeType}" is not supported; use text/plain or application/json.`,
      );
    }
    if (
      g.responseSchema !== undefined &&
      g.responseMimeType !== 'application/json' &&
      g.responseMimeType !== 'text/x.enum'
    ) {
      out.push('generationConfig.responseSchema requires responseMimeType "application/json" (JSON mode).');
    }
  }

  const seen = new Set<string>();
  (request.safetySettings ?? []).forEach((s, i) => {
    if (!(SUPPORTED_SAFETY_CATEGORIES as readonly string[]).includes(s?.category)) {
      out.push(
        `safetySettings[${i}].category "${String(s?.category)}" is not supported; use one of ${SUPPORTED_SAFETY_CATEGORIES.join(', ')}.`,
      );
    } else if (seen.has(s.category)) {
      out.push(`safetySettings[${i}] repeats ${s.category}; give at most one setting per category.`);
    }
    seen.add(s?.category);
    if (!(HARM_BLOCK_THRESHOLDS as readonly string[]).includes(s?.threshold)) {
      out.push(
        `safetySettings[${i}].threshold "${String(s?.threshold)}" is not one of ${HARM_BLOCK_THRESHOLDS.join(', ')}.`,
      );
    }
  });

  if (request.systemInstruction && (request.systemInstruction.parts ?? []).some((p) => typeof p.text !== 'string')) {
    out.push('systemInstruction may contain text parts only.');
  }
  (request.tools ?? []).forEach((t, i) => {
    (t.functionDeclarations ?? []).forEach((f, j) => {
      if (!f?.name || !/^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/.test(f.name)) {
        out.push(
          `tools[${i}].functionDeclarations[${j}].name "${String(f?.name)}" must start with a letter or _ and use letters, digits, _ . - (max 64).`,
        );
      }
      const props = f?.parameters?.properties ?? {};
      for (const r of f?.parameters?.required ?? []) {
        if (!Object.hasOwn(props, r))
          out.push(
            `tools[${i}].functionDeclarations[${j}] (${f.name}) requires "${r}", which is not among its parameters' properties.`,
          );
      }
    });
  });
  if (request.cachedContent !== undefined && !/^cachedContents\/[^/]+$/.test(request.cachedContent)) {
    out.push(`cachedContent "${request.cachedContent}" must be named cachedContents/<id>.`);
  }
  return out;
}
