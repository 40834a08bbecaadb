// Turns a stream's outcome into what the panel (and the CLI) shows about a reply.
import type { GenerateContentResponse, SafetyRating } from '../../shared/wire/generation';
import type { ErrorView, FunctionCallView, RatingView, TurnSummary } from '../protocol';
import { candidateText } from './aggregate';
import { mapCitations } from './citations';
import { errorAdvice, type GenerationError } from './errors';
import { explainBlockReason, explainFinishReason } from './explain';

function ratings(list: SafetyRating[] | undefined): RatingView[] {
  return (list ?? []).map((r) => ({ category: String(r.category), probability: String(r.probability), blocked: !!r.blocked }));
}

export function errorView(e: GenerationError): ErrorView {
  const keyProblem = e.reason === 'API_KEY_INVALID' || (e.code === 403 && /unregistered callers|API Key/i.test(e.message));
  return {
    code: e.code,
    status: e.status,
    message: e.message,
    advice: errorAdvice(e),
    action: keyProblem ? 'setApiKey' : e.code === 429 || e.code >= 500 ? 'retry' : e.code === 400 || e.code === 404 ? 'openSettings' : undefined,
  };
}

export function summarize(
  outcome: { response: GenerateContentResponse; error: GenerationError | null; aborted: boolean; incomplete: boolean; attempts?: number },
): TurnSummary {
  const r = outcome.response;
  const c = r.candidates?.[0];
  const text = candidateText(c);
  const block = r.promptFeedback?.blockReason;
  const calls: FunctionCallView[] = (c?.content?.parts ?? [])
    .filter((p) => p.functionCall)
    .map((p) => ({ name: p.functionCall!.name, args: p.functionCall!.args ?? {} }));
  const finish = c?.finishReason ? explainFinishReason(c.finishReason) : undefined;
  const u = r.usageMetadata;
  let state: TurnSummary['state'] = 'done';
  if (outcome.aborted) state = 'stopped';
  else if (outcome.error) state = 'error';
  else if (block) state = 'blocked';
  else if (calls.length) state = 'awaitingApproval';
  return {
    state,
    finish: finish && c?.finishReason ? { reason: c.finishReason, ...finish } : undefined,
    finishMessage: c?.finishMessage,
    block: block ? { reason: block, message: r.promptFeedback?.blockReasonMessage, ...explainBlockReason(block) } : undefined,
    promptRatings: ratings(r.promptFeedback?.safetyRatings),
    ratings: ratings(c?.safetyRatings),
    citations: mapCitations(text, c?.citationMetadata?.citationSources).map(({ n, uri, license, text: t, start, end }) => ({ n, uri, license, text: t, start, end })),
    usage: u
      ? { prompt: u.promptTokenCount, cached: u.cachedContentTokenCount, candidates: u.candidatesTokenCount, thoughts: u.thoughtsTokenCount, total: u.totalTokenCount }
      : undefined,
    modelVersion: r.modelVersion,
    error: outcome.error ? errorView(outcome.error) : undefined,
    incomplete: outcome.incomplete && !block,
    functionCalls: calls,
    retries: outcome.attempts && outcome.attempts > 1 ? outcome.attempts - 1 : undefined,
  };
}

/** Thought text of a candidate, shown apart from the answer. */
export function thoughtText(r: GenerateContentResponse): string {
  let s = '';
  for (const p of r.candidates?.[0]?.content?.parts ?? []) if (p.thought && typeof p.text === 'string') s += p.text;
  return s;
}

export { candidateText };
