// The model-graded assertion: a judge .prompt file rendered with the reply under test ({{output}}), the
// item's input ({{input.<name>}}) and the assertion's criteria ({{criteria}}), sent to the judge's model; its
// answer is JSON {"pass": bool, "reason": text} (give the judge an output schema) or text starting PASS/FAIL.
import { generateContent } from '../client';
import { primaryCandidate, textOf } from '../delta';
import type { ConnectionOptions } from '../http';
import type { PromptFile } from '../prompt/promptFile';
import type { Judge } from './assertions';

export function readVerdict(text: string): { pass: boolean; reason: string } {
  const trimmed = text.trim();
  try {
    const v: unknown = JSON.parse(trimmed);
    if (typeof v === 'object' && v !== null && typeof (v as { pass?: unknown }).pass === 'boolean') {
      const reason = (v as { reason?: unknown }).reason;
      return { pass: (v as { pass: boolean }).pass, reason: typeof reason === 'string' ? reason : '' };
    }
  } catch {
    // not JSON: read it as text
  }
  const m = /^\W*(pass|fail)\b[\s*_:.,-]*([\s\S]*)$/i.exec(trimmed);
  if (m) return { pass: m[1].toLowerCase() === 'pass', reason: m[2].trim() };
  throw new Error(`the judge answered neither {"pass": …, "reason": …} nor PASS/FAIL: ${trimmed.slice(0, 120)}`);
}

/**
 * A Judge over loaded judge prompt files (by the assertion's `prompt` path); the model is the assertion's,
 * else the judge file's, else `fallbackModel` (the cell's is not known here: the CLI passes the first variant's).
 */
export function promptJudge(
  judges: ReadonlyMap<string, PromptFile>,
  connection: Pick<ConnectionOptions, 'baseUrl' | 'apiKey' | 'keyInQuery' | 'fetch' | 'retry' | 'sleep'>,
  fallbackModel: string,
): Judge {
  return async (a, output, input, signal) => {
    const file = judges.get(a.prompt);
    if (!file) throw new Error(`the judge prompt ${a.prompt} is not loaded`);
    const rendered = await file.render(
      { output, input, criteria: a.value ?? '' },
      { model: a.model ?? file.model ?? fallbackModel },
    );
    const r = await generateContent({
      ...connection,
      model: `models/${rendered.model}`,
      request: rendered.request,
      signal,
    });
    if (r.error) throw new Error(`${r.error.code} ${r.error.status}: ${r.error.message}`);
    if (r.aborted || !r.response) throw new Error('stopped');
    return readVerdict(textOf(primaryCandidate(r.response)).text);
  };
}
