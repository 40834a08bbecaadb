// Assertions of an evaluation, from a dataset item's `expect` and the prompt's `metadata.expect`:
//   {type: contains, value: TEXT}      the output holds TEXT (exact, case-sensitive)
//   {type: equals, value: TEXT}        the output is TEXT (exact)
//   {type: regex, value: RE, flags?}   a JavaScript regular expression found anywhere in the output
//   {type: is-json}                    the output parses as JSON
//   {type: json-schema, value?: S}     the output is JSON conforming to S (default: the prompt's output schema)
//   {type: max-latency-ms, value: N}   the cell's latency ≤ N
//   {type: model-graded, prompt: FILE, value?: CRITERIA, model?: NAME}
//                                      a judge prompt file answers {pass, reason} about the output
import { schemaErrors } from './jsonSchema';

export type Assertion =
  | { type: 'contains' | 'equals'; value: string }
  | { type: 'regex'; value: string; re: RegExp }
  | { type: 'is-json' }
  | { type: 'json-schema'; schema: unknown }
  | { type: 'max-latency-ms'; value: number }
  | { type: 'model-graded'; prompt: string; value?: string; model?: string };

export const ASSERTION_TYPES = [
  'contains',
  'equals',
  'regex',
  'is-json',
  'json-schema',
  'max-latency-ms',
  'model-graded',
] as const;

export interface AssertionResult {
  type: Assertion['type'];
  pass: boolean;
  /** Why it failed (or the judge's reason). */
  reason?: string;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Parses one assertion; throws an Error whose message says what is wrong (the caller adds the line). */
export function parseAssertion(raw: unknown, outputSchema: unknown): Assertion {
  if (!isRecord(raw) || typeof raw.type !== 'string')
    throw new Error(`an assertion is an object with a type (${ASSERTION_TYPES.join(', ')})`);
  const type = raw.type;
  const allowed = (keys: string[]) => {
    for (const k of Object.keys(raw))
      if (k !== 'type' && !keys.includes(k)) throw new Error(`${type}: unknown key "${k}"`);
  };
  switch (raw.type) {
    case 'contains':
    case 'equals':
      allowed(['value']);
      if (typeof raw.value !== 'string') throw new Error(`${raw.type} needs a text value`);
      return { type: raw.type, value: raw.value };
    case 'regex': {
      allowed(['value', 'flags']);
      if (typeof raw.value !== 'string') throw new Error('regex needs a value (a JavaScript regular expression)');
      const flags = typeof raw.flags === 'string' ? raw.flags : '';
      try {
        return { type: 'regex', value: raw.value, re: new RegExp(raw.value, flags.replace(/[gy]/g, '')) };
      } catch (e) {
        throw new Error(`regex ${raw.value}: ${(e as Error).message}`, { cause: e });
      }
    }
    case 'is-json':
      allowed([]);
      return { type: 'is-json' };
    case 'json-schema':
      allowed(['value']);
      if (raw.value === undefined && !outputSchema)
        throw new Error('json-schema needs a value (a JSON Schema) when the prompt declares no output schema');
      if (raw.value !== undefined && !isRecord(raw.value))
        throw new Error('json-schema value must be a JSON Schema object');
      return { type: 'json-schema', schema: raw.value ?? outputSchema };
    case 'max-latency-ms':
      allowed(['value']);
      if (typeof raw.value !== 'number' || !(raw.value >= 0))
        throw new Error('max-latency-ms needs a number of milliseconds');
      return { type: 'max-latency-ms', value: raw.value };
    case 'model-graded':
      allowed(['prompt', 'value', 'model']);
      if (typeof raw.prompt !== 'string' || !raw.prompt)
        throw new Error('model-graded needs prompt: the judge .prompt file (relative to this prompt file)');
      if (raw.value !== undefined && typeof raw.value !== 'string')
        throw new Error('model-graded value must be text (the criteria)');
      if (raw.model !== undefined && typeof raw.model !== 'string')
        throw new Error('model-graded model must be a model name');
      return {
        type: 'model-graded',
        prompt: raw.prompt,
        value: raw.value,
        model: raw.model,
      };
    default:
      throw new Error(`unknown assertion type "${raw.type}" (known: ${ASSERTION_TYPES.join(', ')})`);
  }
}

/** Judges a reply for the model-graded assertion: pass/fail with a reason, or an error. */
export type Judge = (
  a: Extract<Assertion, { type: 'model-graded' }>,
  output: string,
  input: Record<string, unknown>,
  signal?: AbortSignal,
) => Promise<{ pass: boolean; reason: string }>;

/** Checks what needs no model; model-graded goes to the judge. */
export async function check(
  a: Assertion,
  cell: { output: string; latencyMs: number; input: Record<string, unknown> },
  judge: Judge | undefined,
  signal?: AbortSignal,
): Promise<AssertionResult> {
  const out = cell.output;
  switch (a.type) {
    case 'contains':
      return out.includes(a.value)
        ? { type: a.type, pass: true }
        : { type: a.type, pass: false, reason: `does not contain ${JSON.stringify(a.value)}` };
    case 'equals':
      return out === a.value
        ? { type: a.type, pass: true }
        : { type: a.type, pass: false, reason: `is not ${JSON.stringify(a.value)}` };
    case 'regex':
      return a.re.test(out)
        ? { type: a.type, pass: true }
        : { type: a.type, pass: false, reason: `no match for /${a.value}/` };
    case 'is-json':
    case 'json-schema': {
      let value: unknown;
      try {
        value = JSON.parse(out);
      } catch (e) {
        return { type: a.type, pass: false, reason: `not JSON: ${(e as Error).message}` };
      }
      if (a.type === 'is-json') return { type: a.type, pass: true };
      const errors = schemaErrors(a.schema, value);
      return errors.length
        ? { type: a.type, pass: false, reason: errors.slice(0, 5).join('; ') }
        : { type: a.type, pass: true };
    }
    case 'max-latency-ms':
      return cell.latencyMs <= a.value
        ? { type: a.type, pass: true }
        : { type: a.type, pass: false, reason: `took ${Math.round(cell.latencyMs)} ms (limit ${a.value} ms)` };
    case 'model-graded': {
      if (!judge) return { type: a.type, pass: false, reason: 'no judge is available' };
      try {
        const verdict = await judge(a, out, cell.input, signal);
        return { type: a.type, pass: verdict.pass, reason: verdict.reason };
      } catch (e) {
        return { type: a.type, pass: false, reason: `the judge failed: ${(e as Error).message}` };
      }
    }
  }
}
