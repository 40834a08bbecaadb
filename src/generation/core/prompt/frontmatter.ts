// The frontmatter's own checks, at lines of the file: unknown top-level keys (warnings: dotprompt ignores them),
// `config` keys that are not generation settings of the API or are out of the API's ranges, and a model of
// another provider, and names dotprompt would lose. What dotprompt checks itself (schemas, the template) is left to
// it (promptFile.ts).
import { isMap, isScalar, isSeq, type Pair, type YAMLMap } from 'yaml';
import { GENERATION_MESSAGES } from '../../../shared/wire/generationFields';
import type { PromptProblem } from './problems';
import { yamlLine, type PromptSource } from './source';

/** Frontmatter keys dotprompt reads, plus `metadata` (tooling data: our `metadata.expect`). */
export const FRONTMATTER_KEYS: Record<string, string> = {
  name: 'The name of the prompt.',
  variant: 'The variant name of the prompt.',
  version: 'The version of the prompt.',
  description: 'What the prompt is for.',
  model: 'The model to run it on, e.g. gemini-2.0-flash (a googleai/ or models/ prefix is accepted).',
  config: 'Generation settings sent as generationConfig (temperature, topK, topP, maxOutputTokens, stopSequences…).',
  input: 'Input variables: `schema` (Picoschema or JSON Schema) and `default` values.',
  output: 'The output: `format` (json or text) and `schema` (Picoschema or JSON Schema), sent as responseSchema.',
  tools: 'Names of tools the prompt may call.',
  toolDefs: 'Definitions of tools the prompt may call.',
  metadata: 'Data for tooling; `metadata.expect` lists assertions checked on every reply in an evaluation.',
  ext: 'Extension fields gathered by namespace.',
  raw: 'Reserved by dotprompt.',
};

const CONFIG_KEYS = new Set(Object.keys(GENERATION_MESSAGES.GenerationConfig ?? {}));

type Check = (v: unknown) => string | undefined;
const number =
  (lo: number, hi: number): Check =>
  (v) =>
    typeof v === 'number' && v >= lo && v <= hi ? undefined : `must be a number from ${lo} to ${hi}`;
const positiveInt: Check = (v) =>
  Number.isInteger(v) && (v as number) >= 1 ? undefined : 'must be a positive integer';
/** The API's documented ranges; a value outside them is a 400 from the service. */
export const CONFIG_CHECKS: Record<string, Check> = {
  temperature: number(0, 2),
  topP: number(0, 1),
  topK: positiveInt,
  maxOutputTokens: positiveInt,
  candidateCount: positiveInt,
  seed: (v) => (Number.isInteger(v) ? undefined : 'must be an integer'),
  presencePenalty: number(-2, 2),
  frequencyPenalty: number(-2, 2),
  stopSequences: (v) =>
    Array.isArray(v) && v.length <= 5 && v.every((s) => typeof s === 'string')
      ? undefined
      : 'must be a list of at most 5 strings',
  responseMimeType: (v) =>
    typeof v === 'string' && ['text/plain', 'application/json', 'text/x.enum'].includes(v)
      ? undefined
      : 'must be text/plain, application/json or text/x.enum',
};

/** Why `value` is not a valid generation setting `key` of this API, or undefined when it is. */
export function configValueProblem(key: string, value: unknown): string | undefined {
  if (!CONFIG_KEYS.has(key))
    return `${key} is not a generation setting of this API (known: ${[...CONFIG_KEYS].join(', ')})`;
  const wrong = CONFIG_CHECKS[key]?.(value);
  return wrong ? `${key} ${wrong}` : undefined;
}

export function pairOf(map: unknown, key: string): Pair | undefined {
  if (!isMap(map)) return undefined;
  return map.items.find((p) => isScalar(p.key) && p.key.value === key);
}

export function checkFrontmatter(source: PromptSource): { problems: PromptProblem[]; warnings: PromptProblem[] } {
  const problems: PromptProblem[] = [];
  const warnings: PromptProblem[] = [];
  const top = source.yaml?.contents;
  if (isMap(top)) {
    for (const pair of (top as YAMLMap).items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '';
      if (Object.hasOwn(FRONTMATTER_KEYS, key) || key.includes('.')) continue;
      warnings.push({
        line: yamlLine(source, (pair.key as { range?: number[] }).range),
        severity: 'warning',
        code: 'unknown-key',
        message: `Unknown frontmatter key "${key}": dotprompt ignores it (known: ${Object.keys(FRONTMATTER_KEYS).join(', ')}; or a namespaced key such as myext.${key}).`,
      });
    }
    const config = pairOf(top, 'config');
    if (config && !isMap(config.value) && !(isScalar(config.value) && config.value.value === null))
      problems.push({
        line: yamlLine(source, (config.key as { range?: number[] }).range),
        severity: 'error',
        code: 'config',
        message: 'config must be a mapping of generation settings.',
      });
    for (const pair of isMap(config?.value) ? config.value.items : []) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '';
      const line = yamlLine(source, (pair.key as { range?: number[] }).range);
      if (key === 'safetySettings') continue;
      if (key === 'responseSchema' || key === 'responseJsonSchema') {
        problems.push({
          line,
          severity: 'error',
          code: 'config',
          message: `config.${key}: declare the output schema under output.schema instead.`,
        });
        continue;
      }
      if (!CONFIG_KEYS.has(key)) {
        problems.push({
          line,
          severity: 'error',
          code: 'config-unknown',
          message: `config.${key} is not a generation setting of this API (known: ${[...CONFIG_KEYS].join(', ')}).`,
        });
        continue;
      }
      const value: unknown = isScalar(pair.value)
        ? pair.value.value
        : (pair.value as { toJSON?: () => unknown })?.toJSON?.();
      const wrong = CONFIG_CHECKS[key]?.(value);
      if (wrong) problems.push({ line, severity: 'error', code: 'config-range', message: `config.${key} ${wrong}.` });
    }
    const model = pairOf(top, 'model');
    if (model && !(isScalar(model.value) && typeof model.value.value === 'string'))
      problems.push({
        line: yamlLine(source, (model.key as { range?: number[] }).range),
        severity: 'error',
        code: 'model',
        message: 'model must be a model name, e.g. gemini-2.0-flash.',
      });
    else if (
      model &&
      /^[^/]+\//.test(String((model.value as { value: string }).value)) &&
      !/^(googleai|models)\//.test(String((model.value as { value: string }).value))
    )
      problems.push({
        line: yamlLine(source, (model.key as { range?: number[] }).range),
        severity: 'error',
        code: 'model',
        message: `model ${String((model.value as { value: string }).value)}: only this API's models are run (a bare name, or with a googleai/ or models/ prefix).`,
      });
    problems.push(...lostKeys(source, top));
  }
  return { problems, warnings };
}

/**
 * A field or default named `__proto__` (Picoschema `__proto__?`, `__proto__(…)` too) in `input` or `output`: dotprompt
 * reads the frontmatter into plain objects, where that name sets the prototype, so the field would be missing from
 * the schema sent and the default from the variables, silently. Walked with a stack: a deep document cannot
 * overflow it.
 */
function lostKeys(source: PromptSource, top: unknown): PromptProblem[] {
  const found: PromptProblem[] = [];
  const stack: { node: unknown; at: string }[] = [];
  for (const part of ['input', 'output']) {
    const v = pairOf(top, part)?.value;
    if (v) stack.push({ node: v, at: part });
  }
  while (stack.length) {
    const { node, at } = stack.pop()!;
    if (isSeq(node)) node.items.forEach((item, i) => stack.push({ node: item, at: `${at}[${i}]` }));
    if (!isMap(node)) continue;
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '';
      if (key.replace(/\?$|\(.*\)$/, '').trim() === '__proto__')
        found.push({
          line: yamlLine(source, (pair.key as { range?: number[] }).range),
          severity: 'error',
          code: 'lost-key',
          message: `${at}: a field named "__proto__" would be lost (dotprompt drops that name when it reads the frontmatter); rename it.`,
        });
      if (pair.value) stack.push({ node: pair.value, at: `${at}.${key}` });
    }
  }
  return found.sort((a, b) => a.line - b.line);
}
