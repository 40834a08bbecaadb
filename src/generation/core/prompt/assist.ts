// Completion and hover data for a .prompt file, from its text and a position (0-based line and character):
// frontmatter keys at the top level, generation settings under `config:`, and in the template, after `{{`,
// the input variables the frontmatter declares (input.schema, input.default) and dotprompt's helpers.
import { ownValue } from '../../../shared/wire/ownKeys';
import { splitPromptSource } from './source';
import { FRONTMATTER_KEYS } from './frontmatter';
import type { PromptProblem } from './problems';
import { bareModel } from './promptFile';

/** What each generation setting means (the API's GenerationConfig), for completion details and hover. */
export const CONFIG_DOCS: Record<string, string> = {
  temperature: 'Randomness of the reply, 0 to 2: lower is more focused and repeatable.',
  topP: 'Nucleus sampling, 0 to 1: tokens are drawn from the smallest set whose probabilities reach topP.',
  topK: 'Tokens are drawn from the K most likely (a positive integer; not every model takes it).',
  maxOutputTokens: 'The most tokens the reply may have; a longer one stops with finishReason MAX_TOKENS.',
  stopSequences: 'Up to 5 strings; the reply stops before the first of them it would write.',
  candidateCount: 'How many replies to generate (1).',
  responseMimeType: 'text/plain, application/json or text/x.enum (an output schema sets application/json).',
  seed: 'A fixed seed makes sampling repeatable where the model supports it.',
  presencePenalty: 'Penalises tokens already used at all, -2 to 2: more new topics.',
  frequencyPenalty: 'Penalises tokens by how often they were used, -2 to 2: less repetition.',
  responseLogprobs: 'Return the log probabilities of the chosen tokens.',
  logprobs: 'How many top candidate tokens to return log probabilities for, with responseLogprobs.',
  responseModalities: 'What the reply may hold: TEXT, IMAGE, AUDIO.',
  thinkingConfig: 'Thinking models: thinkingBudget (tokens) and includeThoughts.',
  mediaResolution: 'Resolution of media input: MEDIA_RESOLUTION_LOW, _MEDIUM or _HIGH.',
  speechConfig: 'Voice of an audio reply.',
  enableEnhancedCivicAnswers: 'Enhanced answers on civic topics where available.',
  imageConfig: 'Image replies: aspectRatio and imageSize.',
  safetySettings: 'Per harm category, the threshold above which the reply is blocked (sent as safetySettings).',
};

/** dotprompt's helpers and what they do. */
export const HELPER_DOCS: Record<string, string> = {
  role: '{{role "system"}}, "user" or "model": the text after it is a turn of that role.',
  media: '{{media url=… contentType=…}}: an image, audio, video or PDF part (a data: URL is sent inline).',
  history: '{{history}}: where earlier turns of a conversation go.',
  section: '{{section "name"}}: a named place for tooling; nothing is sent for it.',
  json: '{{json value indent=2}}: the value as JSON text.',
  ifEquals: '{{#ifEquals a b}}…{{/ifEquals}}: the block when a equals b.',
  unlessEquals: '{{#unlessEquals a b}}…{{/unlessEquals}}: the block unless a equals b.',
};

export interface AssistItem {
  label: string;
  kind: 'key' | 'setting' | 'variable' | 'helper';
  detail: string;
}

interface Where {
  region: 'frontmatter' | 'template' | 'none';
  /** In the frontmatter: the parent key of the line's block (undefined at the top level). */
  parent?: string;
}

function whereAt(lines: string[], line: number): Where {
  if (lines[0]?.trim() !== '---') return { region: 'template' };
  const close = lines.findIndex((l, i) => i > 0 && /^---\s*$/.test(l));
  if (line === 0 || line === close) return { region: 'none' };
  if (close !== -1 && line > close) return { region: 'template' };
  const indent = lines[line].length - lines[line].trimStart().length;
  if (indent === 0) return { region: 'frontmatter' };
  for (let i = line - 1; i > 0; i--) {
    const l = lines[i];
    if (!l.trim()) continue;
    const ind = l.length - l.trimStart().length;
    if (ind < indent) return { region: 'frontmatter', parent: /^\s*([\w.?()-]+)\s*:/.exec(l)?.[1] };
  }
  return { region: 'frontmatter' };
}

/** Input variable names the frontmatter declares (Picoschema keys without `?` or a type in parentheses). */
export function declaredVariables(text: string): string[] {
  const yaml = splitPromptSource(text).source?.yaml;
  if (!yaml) return [];
  const value: unknown = yaml.toJS();
  const input = (value as { input?: { schema?: unknown; default?: unknown } } | null)?.input;
  const names = new Set<string>();
  const schema = input?.schema as { properties?: unknown } | undefined;
  if (schema && typeof schema === 'object') {
    const keys =
      schema.properties && typeof schema.properties === 'object' ? Object.keys(schema.properties) : Object.keys(schema);
    for (const k of keys) if (k !== 'type' && k !== 'required' && k !== '(*)') names.add(k.replace(/[?(].*$/, ''));
  }
  if (input?.default && typeof input.default === 'object') for (const k of Object.keys(input.default)) names.add(k);
  return [...names];
}

/** Whether the position is in the value of the top-level `model:` key (where model names complete). */
export function inModelValue(text: string, line: number, character: number): boolean {
  const lines = text.split(/\r?\n/);
  const where = whereAt(lines, line);
  return (
    where.region === 'frontmatter' &&
    !where.parent &&
    /^model\s*:\s*[\w./-]*$/.test((lines[line] ?? '').slice(0, character))
  );
}

export function completionsAt(text: string, line: number, character: number): AssistItem[] {
  const lines = text.split(/\r?\n/);
  const where = whereAt(lines, line);
  const before = (lines[line] ?? '').slice(0, character);
  if (where.region === 'frontmatter') {
    if (/:/.test(before)) return [];
    if (!where.parent)
      return Object.entries(FRONTMATTER_KEYS).map(([label, detail]) => ({ label, kind: 'key', detail }));
    if (where.parent === 'config')
      return Object.entries(CONFIG_DOCS).map(([label, detail]) => ({ label, kind: 'setting', detail }));
    return [];
  }
  if (where.region === 'template' && /\{\{[#/^]?\s*[\w.]*$/.test(before)) {
    const vars = declaredVariables(text).map((label): AssistItem => ({
      label,
      kind: 'variable',
      detail: 'input variable',
    }));
    const helpers = /\{\{\s*[\w.]*$|\{\{#\s*[\w.]*$/.test(before)
      ? Object.entries(HELPER_DOCS).map(([label, detail]): AssistItem => ({ label, kind: 'helper', detail }))
      : [];
    return [...vars, ...helpers];
  }
  return [];
}

/** The meaning of the frontmatter key, setting or helper under the position, if any. */
export function hoverAt(text: string, line: number, character: number): { word: string; text: string } | undefined {
  const lines = text.split(/\r?\n/);
  const l = lines[line] ?? '';
  const words = [...l.matchAll(/[\w]+/g)];
  const w = words.find((m) => m.index <= character && character <= m.index + m[0].length)?.[0];
  if (!w) return undefined;
  const where = whereAt(lines, line);
  if (where.region === 'frontmatter') {
    const key = new RegExp(`^\\s*${w}\\s*:`).test(l);
    if (!key) return undefined;
    const text = !where.parent
      ? ownValue(FRONTMATTER_KEYS, w)
      : where.parent === 'config'
        ? ownValue(CONFIG_DOCS, w)
        : undefined;
    return text ? { word: w, text } : undefined;
  }
  const helper = where.region === 'template' ? ownValue(HELPER_DOCS, w) : undefined;
  return helper ? { word: w, text: helper } : undefined;
}

/**
 * The frontmatter's `model:` when the endpoint's models.list (bare names that generate content) does not
 * hold it: a warning at the value, naming a few models it does hold. A run would be answered 404.
 */
export function unknownModelProblem(text: string, known: readonly string[]): PromptProblem | undefined {
  const lines = text.split(/\r?\n/);
  if (lines[0]?.trim() !== '---') return undefined;
  for (let i = 1; i < lines.length && !/^---\s*$/.test(lines[i]); i++) {
    const m = /^model\s*:\s*(["']?)([^"'#\s]+)\1\s*(#.*)?$/.exec(lines[i]);
    if (!m) continue;
    const model = bareModel(m[2]);
    if (known.includes(model) || /^[^/]+\//.test(model)) return undefined;
    const close = [...known].sort((a, b) => similarity(b, model) - similarity(a, model)).slice(0, 3);
    return {
      line: i + 1,
      column: lines[i].indexOf(m[2]),
      severity: 'warning',
      code: 'model-unknown',
      message: `${model} is not among this endpoint's models (models.list)${close.length ? `; for example ${close.join(', ')}` : ''}.`,
    };
  }
  return undefined;
}

/** Length of the common prefix: enough to put gemini-2.0-flash-lite before gemini-2.5-pro for gemini-2.0-flsh. */
function similarity(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}
