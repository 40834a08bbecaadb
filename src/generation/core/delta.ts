// What one streamed chunk adds to the reply on screen, computed once for the panel and the CLI.
// Chunks come from the wire, so every field is checked before it is read: a chunk of the wrong
// shape adds nothing rather than throwing in the middle of a stream.
import type { Candidate, GenerateContentResponse } from '../../shared/wire/generation';

export interface TextDelta {
  /** Answer text (thought parts excluded). */
  text: string;
  /** The model's reasoning, shown apart from the answer. */
  thought: string;
}

/**
 * The candidate the reply shows: the one whose index is 0. A candidate without an index counts
 * as the one at its position, the same rule the aggregator assembles by, so a chunk carrying only
 * a second candidate (candidateCount > 1) never leaks into the first one's text.
 */
export function primaryCandidate(response: GenerateContentResponse | undefined): Candidate | undefined {
  const list: unknown = response?.candidates;
  if (!Array.isArray(list)) return undefined;
  for (let i = 0; i < list.length; i++) {
    const c: unknown = list[i];
    if (!c || typeof c !== 'object') continue;
    const index = (c as Candidate).index;
    if ((typeof index === 'number' ? index : i) === 0) return c as Candidate;
  }
  return undefined;
}

/** Answer and thought text of a candidate's parts. */
export function textOf(candidate: Candidate | undefined): TextDelta {
  let text = '';
  let thought = '';
  const parts: unknown =
    candidate?.content && typeof candidate.content === 'object' ? candidate.content.parts : undefined;
  if (!Array.isArray(parts)) return { text, thought };
  for (const p of parts as unknown[]) {
    if (!p || typeof p !== 'object') continue;
    const part = p as { text?: unknown; thought?: unknown };
    if (typeof part.text !== 'string') continue;
    if (part.thought) thought += part.text;
    else text += part.text;
  }
  return { text, thought };
}

/** The text a chunk adds to the primary candidate. */
export function chunkDelta(chunk: GenerateContentResponse): TextDelta {
  return textOf(primaryCandidate(chunk));
}
