// Turns a stream's outcome into what the panel (and the CLI) shows about a reply.
import type { GenerateContentResponse } from '../../shared/wire/generation';
import type { ErrorView, FunctionCallView, RatingView, TurnSummary } from '../protocol';
import { candidateText } from './aggregate';
import { mapCitations } from './citations';
import { errorAdvice, type GenerationError } from './errors';
import { explainBlockReason, explainFinishReason } from './explain';

// Everything read here may come from the wire (or a saved conversation): each field is shape-checked,
// a wrong-typed one is skipped and named in `warnings`, and nothing throws.

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

class Reader {
  readonly warnings: string[] = [];
  obj(v: unknown, path: string): Obj | undefined {
    if (v === undefined) return undefined;
    if (isObj(v)) return v;
    this.warnings.push(`${path} should be an object; ignored`);
    return undefined;
  }
  list(v: unknown, path: string): unknown[] {
    if (v === undefined) return [];
    if (Array.isArray(v)) return v;
    this.warnings.push(`${path} should be a list; ignored`);
    return [];
  }
  str(v: unknown, path: string): string | undefined {
    if (v === undefined || typeof v === 'string') return v;
    this.warnings.push(`${path} should be a string; ignored`);
    return undefined;
  }
}

function ratings(read: Reader, list: unknown, path: string): RatingView[] {
  const out: RatingView[] = [];
  for (const r of read.list(list, path)) {
    const o = read.obj(r, `${path}[]`);
    if (o)
      out.push({
        category: String(str(o.category) ?? num(o.category) ?? '?'),
        probability: String(str(o.probability) ?? num(o.probability) ?? '?'),
        blocked: o.blocked === true,
      });
  }
  return out;
}

export function errorView(e: GenerationError): ErrorView {
  const keyProblem =
    e.reason === 'API_KEY_INVALID' || (e.code === 403 && /unregistered callers|API Key/i.test(e.message));
  return {
    code: e.code,
    status: e.status,
    message: e.message,
    advice: errorAdvice(e),
    action: keyProblem
      ? 'setApiKey'
      : e.code === 429 || e.code >= 500
        ? 'retry'
        : e.code === 400 || e.code === 404
          ? 'openSettings'
          : undefined,
  };
}

export function summarize(outcome: {
  response: GenerateContentResponse;
  error: GenerationError | null;
  aborted: boolean;
  incomplete: boolean;
  attempts?: number;
  /** Shape problems the aggregator already found in the stream. */
  problems?: readonly { message: string }[];
}): TurnSummary {
  const read = new Reader();
  const r: Obj = read.obj(outcome.response, 'response') ?? {};
  const c = read.obj(read.list(r.candidates, 'candidates')[0], 'candidates[0]');
  const content = read.obj(c?.content, 'candidates[0].content');
  const parts = read.list(content?.parts, 'candidates[0].content.parts');
  const text = candidateText(c);
  const feedback = read.obj(r.promptFeedback, 'promptFeedback');
  const block = read.str(feedback?.blockReason, 'promptFeedback.blockReason');
  const calls: FunctionCallView[] = [];
  for (const p of parts) {
    const call = isObj(p) ? read.obj(p.functionCall, 'functionCall') : undefined;
    if (!call) continue;
    const name = read.str(call.name, 'functionCall.name');
    if (name === undefined) continue;
    calls.push({ name, args: read.obj(call.args, 'functionCall.args') ?? {} });
  }
  const finishReason = read.str(c?.finishReason, 'candidates[0].finishReason');
  const finish = finishReason ? explainFinishReason(finishReason) : undefined;
  const u = read.obj(r.usageMetadata, 'usageMetadata');
  const citationMeta = read.obj(c?.citationMetadata, 'candidates[0].citationMetadata');
  const sources = read.list(citationMeta?.citationSources, 'candidates[0].citationMetadata.citationSources');
  let state: TurnSummary['state'] = 'done';
  if (outcome.aborted) state = 'stopped';
  else if (outcome.error) state = 'error';
  else if (block) state = 'blocked';
  else if (calls.length) state = 'awaitingApproval';
  const summary: TurnSummary = {
    state,
    finish: finish && finishReason ? { reason: finishReason, ...finish } : undefined,
    finishMessage: read.str(c?.finishMessage, 'candidates[0].finishMessage'),
    block: block
      ? { reason: block, message: str(feedback?.blockReasonMessage), ...explainBlockReason(block) }
      : undefined,
    promptRatings: ratings(read, feedback?.safetyRatings, 'promptFeedback.safetyRatings'),
    ratings: ratings(read, c?.safetyRatings, 'candidates[0].safetyRatings'),
    citations: mapCitations(text, sources).map(({ n, uri, license, text: t, start, end }) => ({
      n,
      uri,
      license,
      text: t,
      start,
      end,
    })),
    usage: u
      ? {
          prompt: num(u.promptTokenCount),
          cached: num(u.cachedContentTokenCount),
          candidates: num(u.candidatesTokenCount),
          thoughts: num(u.thoughtsTokenCount),
          total: num(u.totalTokenCount),
        }
      : undefined,
    modelVersion: read.str(r.modelVersion, 'modelVersion'),
    error: outcome.error ? errorView(outcome.error) : undefined,
    incomplete: outcome.incomplete && !block,
    functionCalls: calls,
    retries: outcome.attempts && outcome.attempts > 1 ? outcome.attempts - 1 : undefined,
  };
  const warnings = [...(outcome.problems ?? []).map((p) => p.message), ...read.warnings];
  if (warnings.length) summary.warnings = warnings;
  return summary;
}

export { candidateText };
