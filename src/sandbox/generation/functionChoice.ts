// Whether the deterministic model calls a function, and which: by the function-calling mode, the
// allowed names, and whether the prompt names the function or a distinctive word of its name.
import type { FunctionDeclaration, GenerateContentRequest, Part } from '../../shared/wire/generation';
import { argsFor } from './functionArgs';
import type { Triggers } from './triggers';

/** The function results the caller sent in its last turn (answers to our function calls). */
export function lastFunctionResponses(req: GenerateContentRequest): Part[] {
  const last = req.contents[req.contents.length - 1];
  return (last?.parts ?? []).filter((p) => p.functionResponse);
}

/** Verbs that say nothing about what a function is for (get_weather is about "weather"). */
const GENERIC_WORDS = new Set([
  'get',
  'set',
  'list',
  'find',
  'fetch',
  'make',
  'create',
  'update',
  'delete',
  'run',
  'call',
  'do',
  'the',
  'for',
  'and',
]);

/** True when the prompt names a distinctive word of the function's name, so AUTO mode calls it. */
function mentions(prompt: string, name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length >= 3 && !GENERIC_WORDS.has(w));
  const text = prompt.toLowerCase();
  return words.some((w) => new RegExp(`\\b${w}`).test(text));
}

function declarations(req: GenerateContentRequest): FunctionDeclaration[] {
  return (req.tools ?? []).flatMap((t) => t.functionDeclarations ?? []);
}

export function functionCallFor(
  req: GenerateContentRequest,
  prompt: string,
  triggers: Triggers,
): { name: string; args: Record<string, unknown> } | undefined {
  const decls = declarations(req);
  if (!decls.length) return undefined;
  if (lastFunctionResponses(req).length) return undefined;
  const fc = req.toolConfig?.functionCallingConfig;
  const mode = fc?.mode ?? 'AUTO';
  if (mode === 'NONE') return undefined;
  const allowed = fc?.allowedFunctionNames?.length
    ? decls.filter((d) => fc.allowedFunctionNames!.includes(d.name))
    : decls;
  const named = allowed.find((d) => prompt.includes(d.name)) ?? allowed.find((d) => mentions(prompt, d.name));
  const chosen = named ?? (mode === 'ANY' || triggers.has('call') ? allowed[0] : undefined);
  if (!chosen) return undefined;
  return { name: chosen.name, args: argsFor(chosen, prompt) };
}
