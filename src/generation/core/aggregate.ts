// Lossless assembly of streamed chunks into one GenerateContentResponse. Unlike the SDKs'
// assemblers it keeps mid-stream citations, the first promptFeedback, thought parts and their
// signatures, inline data, unknown parts and unknown fields (see the reference digest, §4).
import type {
  Candidate, CitationMetadata, Content, GenerateContentResponse, Part, SafetyRating,
} from '../../shared/wire/generation';

const PLAIN_TEXT_KEYS = new Set(['text', 'thought', 'thoughtSignature']);

function isPlainText(p: Part): boolean {
  if (typeof p.text !== 'string') return false;
  for (const k in p) if (!PLAIN_TEXT_KEYS.has(k)) return false;
  return true;
}

interface CandidateState {
  candidate: Candidate;
  ratingOrder: string[];
  ratings: Map<string, SafetyRating>;
}

export class Aggregator {
  /** The live aggregate: updated in place by `add`, so reading it costs nothing per chunk. */
  readonly response: GenerateContentResponse = {};
  private readonly states = new Map<number, CandidateState>();
  private chunkCount = 0;

  get chunks(): number {
    return this.chunkCount;
  }

  add(chunk: GenerateContentResponse): void {
    this.chunkCount++;
    const out = this.response;
    for (const key in chunk) {
      const value = chunk[key];
      if (value === undefined) continue;
      if (key === 'candidates') {
        const list = value as Candidate[];
        if (!Array.isArray(list)) continue;
        for (let i = 0; i < list.length; i++) this.addCandidate(list[i], i);
      } else if (key === 'promptFeedback') {
        // The service sends it on the first chunk only; a later one must not erase a block reason.
        if (!out.promptFeedback || (!out.promptFeedback.blockReason && (value as { blockReason?: string }).blockReason)) {
          out.promptFeedback = value as GenerateContentResponse['promptFeedback'];
        }
      } else {
        // usageMetadata is a running total, modelVersion/responseId repeat: the last value is the truth.
        out[key] = value;
      }
    }
  }

  private addCandidate(c: Candidate, position: number): void {
    if (!c || typeof c !== 'object') return;
    const index = typeof c.index === 'number' ? c.index : position;
    let state = this.states.get(index);
    if (!state) {
      state = { candidate: {}, ratingOrder: [], ratings: new Map() };
      this.states.set(index, state);
      const list = (this.response.candidates ??= []);
      list.push(state.candidate);
    }
    const target = state.candidate;
    for (const key in c) {
      const value = c[key];
      if (value === undefined) continue;
      switch (key) {
        case 'content':
          this.addContent(target, value as Content);
          break;
        case 'safetyRatings':
          this.addRatings(state, value as SafetyRating[]);
          break;
        case 'citationMetadata':
          this.addCitations(state, value as CitationMetadata);
          break;
        case 'groundingMetadata':
          target.groundingMetadata = { ...(target.groundingMetadata ?? {}), ...(value as Record<string, unknown>) };
          break;
        default:
          // finishReason, finishMessage, index, tokenCount and unknown fields: last value wins.
          target[key] = value;
      }
    }
  }

  private addContent(target: Candidate, content: Content): void {
    if (!content || typeof content !== 'object') return;
    const into = (target.content ??= {});
    for (const key in content) {
      if (key === 'parts') continue;
      if (key === 'role' && into.role !== undefined) continue;
      if (content[key] !== undefined) into[key] = content[key];
    }
    const parts = content.parts;
    if (!Array.isArray(parts)) return;
    const out = (into.parts ??= []);
    for (const part of parts) {
      if (!part || typeof part !== 'object') continue;
      const prev = out.length ? out[out.length - 1] : undefined;
      if (prev && isPlainText(part) && isPlainText(prev) && !prev.thoughtSignature && !!prev.thought === !!part.thought) {
        prev.text += part.text!;
        if (part.thoughtSignature !== undefined) prev.thoughtSignature = part.thoughtSignature;
      } else {
        out.push({ ...part });
      }
    }
  }

  private addRatings(state: CandidateState, ratings: SafetyRating[]): void {
    if (!Array.isArray(ratings)) return;
    let changed = false;
    for (const r of ratings) {
      if (!r || typeof r !== 'object') continue;
      const prev = state.ratings.get(r.category);
      // The 2024 service repeats identical ratings on every chunk: keep the old object then.
      if (prev && shallowEqual(prev, r)) continue;
      if (!prev) state.ratingOrder.push(r.category);
      // A rating that blocked once stays marked blocked even if a later chunk omits the flag.
      state.ratings.set(r.category, prev?.blocked && !r.blocked ? { ...r, blocked: true } : r);
      changed = true;
    }
    if (changed) state.candidate.safetyRatings = state.ratingOrder.map((c) => state.ratings.get(c)!);
  }

  private addCitations(state: CandidateState, meta: CitationMetadata): void {
    if (!meta || typeof meta !== 'object') return;
    const into = (state.candidate.citationMetadata ??= {});
    for (const key in meta) {
      const value = meta[key];
      if (!Array.isArray(value)) {
        if (value !== undefined) into[key] = value;
        continue;
      }
      // citationSources (or Vertex's `citations`): union across chunks, without duplicates.
      const list = ((into[key] as unknown[] | undefined) ??= []) as unknown[];
      for (const item of value) {
        if (list.some((known) => sameValue(known, item))) continue;
        list.push(item);
      }
    }
  }
}

function shallowEqual(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  let n = 0;
  for (const k in a) {
    if (a[k] !== b[k]) return false;
    n++;
  }
  for (const _ in b) n--;
  return n === 0;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object') return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let n = 0;
  for (const k in x) {
    if (!sameValue(x[k], y[k])) return false;
    n++;
  }
  for (const _ in y) n--;
  return n === 0;
}

/** The answer text of a candidate (thought parts excluded). */
export function candidateText(c: Candidate | undefined): string {
  let s = '';
  for (const p of c?.content?.parts ?? []) if (typeof p.text === 'string' && !p.thought) s += p.text;
  return s;
}

/** Parts ready to resend as history: empty text parts dropped, everything else (signatures too) unchanged. */
export function historyParts(c: Content | undefined): Part[] {
  return (c?.parts ?? []).filter((p) => !(isPlainText(p) && p.text === '' && !p.thoughtSignature));
}
