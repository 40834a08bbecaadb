// Variants named on the command line (or chosen in the editor): a model, or a model with generation settings
// that override the prompt file's `config`, under a name the results carry. `NAME=k=v,k=v` is short for the
// common case (`warm=temperature=1.2,topK=40`); `NAME={"model": …, "temperature": …}` takes any JSON value.
import { putOwn } from '../../../shared/wire/ownKeys';
import { configValueProblem } from '../prompt/frontmatter';
import { bareModel } from '../prompt/promptFile';
import type { Variant } from './runner';

export class VariantError extends Error {}

const NAME = /^[\w.-]+$/;
const MODEL = /^[\w.-]+$/;

/** Splits `a=1,b=["x,y"],c="p,q"` at the commas outside brackets, braces and quotes. */
function topLevelParts(spec: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < spec.length; i++) {
    const ch = spec[i];
    if (quoted) {
      if (ch === '\\') i++;
      else if (ch === '"') quoted = false;
    } else if (ch === '"') quoted = true;
    else if (ch === '[' || ch === '{') depth++;
    else if (ch === ']' || ch === '}') depth = Math.max(0, depth - 1);
    else if (ch === ',' && depth === 0) {
      parts.push(spec.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(spec.slice(start));
  return parts.map((p) => p.trim()).filter(Boolean);
}

/** A value as JSON when it is JSON (numbers, booleans, lists), else the text itself. */
function valueOf(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function settingsOf(spec: string): Record<string, unknown> {
  if (spec.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(spec);
    } catch (e) {
      throw new VariantError(`its settings are not valid JSON (${(e as Error).message})`);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new VariantError('its settings must be a JSON object');
    return parsed as Record<string, unknown>;
  }
  const out: Record<string, unknown> = {};
  for (const part of topLevelParts(spec)) {
    const eq = part.indexOf('=');
    if (eq <= 0) throw new VariantError(`"${part}" is not key=value`);
    const key = part.slice(0, eq).trim();
    if (Object.hasOwn(out, key)) throw new VariantError(`${key} is set twice`);
    putOwn(out, key, valueOf(part.slice(eq + 1).trim()));
  }
  return out;
}

/**
 * Parses one `NAME=SETTINGS` variant. `model` among the settings chooses the model (bare, or with a models/
 * or googleai/ prefix); without it the variant runs on `defaultModel`. Every other setting is a generation
 * setting checked against the API's names and ranges.
 */
export function parseVariant(text: string, defaultModel: string | undefined): Variant {
  const eq = text.indexOf('=');
  const name = eq < 0 ? text : text.slice(0, eq);
  if (!NAME.test(name)) throw new VariantError(`"${text}": a variant is NAME=SETTINGS, NAME of letters, digits, . _ -`);
  try {
    const settings = settingsOf(eq < 0 ? '' : text.slice(eq + 1).trim());
    const { model: rawModel, ...config } = settings;
    if (rawModel !== undefined && typeof rawModel !== 'string') throw new VariantError('model must be a model name');
    const model = rawModel !== undefined ? bareModel(rawModel) : defaultModel;
    if (!model) throw new VariantError('no model: set model=… or give the prompt file a model');
    if (!MODEL.test(model)) throw new VariantError(`model ${model} is not a bare model name`);
    for (const [key, value] of Object.entries(config)) {
      const wrong = configValueProblem(key, value);
      if (wrong) throw new VariantError(wrong);
    }
    return Object.keys(config).length ? { name, model, config } : { name, model };
  } catch (e) {
    if (e instanceof VariantError) throw new VariantError(`variant ${name}: ${e.message}`);
    throw e;
  }
}

/** Models first (each a variant of its own name), then the named variants; every name once. */
export function variantsOf(models: string[], named: string[], fileModel: string | undefined): Variant[] {
  const variants: Variant[] = models.map((m) => ({ name: m, model: m }));
  for (const text of named) variants.push(parseVariant(text, models[0] ?? fileModel));
  const seen = new Set<string>();
  for (const v of variants) {
    if (seen.has(v.name)) throw new VariantError(`two variants are named ${v.name}`);
    seen.add(v.name);
  }
  return variants;
}
