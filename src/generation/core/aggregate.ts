// Lossless assembly of streamed chunks into one GenerateContentResponse. Unlike the SDKs'
// assemblers it keeps mid-stream citations, the first promptFeedback, thought parts and their
// signatures, inline data, unknown parts and unknown fields (see the reference digest, §4).
// The wire is outside input: every field it interprets is shape-checked first. A known field of the
// wrong type is left out of the typed aggregate (so no reader of it can trip over it) but kept raw in
// `problems` and reported; it never throws. Keys are set as own data properties, so a `__proto__`
// key is data, not a prototype swap.
import type { Candidate, Content, GenerateContentResponse, Part, SafetyRating } from '../../shared/wire/generation';
import { keyCount, sameJson, shallowEqual } from './sameJson';

function isPlainText(p: Part): boolean {
  if (typeof p.text !== 'string') return false;
  for (const k in p) if (k !== 'text' && k !== 'thought' && k !== 'thoughtSignature') return false;
  return true;
}

interface CandidateState {
  candidate: Candidate;
  ratingOrder: unknown[];
  ratings: Map<unknown, SafetyRating>;
  /**
   * The safetyRatings list the last chunk carried. The service repeats the same list on every chunk, and a
   * list equal item by item to the one before changes nothing, so it is compared with that list instead of
   * being looked up rating by rating.
   */
  lastRatings: unknown[] | undefined;
  /** How many keys each item of lastRatings has (an equal item has as many). */
  lastRatingKeys: number[];
  /** The last part while it is plain text that a following plain-text part may be merged into. */
  open: Part | undefined;
  /**
   * Per citation list key: the canonical text of each item already kept (dedup in O(1)), and the list the key
   * carried last (an item equal to the one at its place there is already kept). One lookup per key per event.
   */
  citations: Map<string, { seen: Set<string>; last: unknown[] | undefined }>;
}

/** A wire field of the wrong shape, kept raw. */
export interface WireProblem {
  /** Where it was, e.g. `candidates[0].citationMetadata.citationSources`. */
  path: string;
  message: string;
  value: unknown;
}

/** At most this many problems are kept: a hostile stream must not grow them without bound. */
const MAX_PROBLEMS = 100;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function kind(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** Sets an own data property whatever the key (plain assignment to `__proto__` would swap the prototype). */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** Identity of a citation item for dedup; items JSON cannot print (too deep) are never equal. */
function canonical(v: unknown): string | undefined {
  try {
    return JSON.stringify(v);
  } catch {
    return undefined;
  }
}

export class Aggregator {
  /** The live aggregate: updated in place by `add`, so reading it costs nothing per chunk. */
  readonly response: GenerateContentResponse = {};
  private readonly states = new Map<number, CandidateState>();
  /** The state the last candidate used: every event of a one-candidate reply names the same index (no Map lookup). */
  private lastState: CandidateState | undefined;
  private lastIndex = NaN;
  private chunkCount = 0;
  /** Wire fields of the wrong shape, kept raw (the first MAX_PROBLEMS). */
  readonly problems: WireProblem[] = [];

  get chunks(): number {
    return this.chunkCount;
  }

  private problem(path: string, expected: string, value: unknown): void {
    if (this.problems.length < MAX_PROBLEMS)
      this.problems.push({ path, message: `${path} should be ${expected} but is ${kind(value)}; ignored`, value });
  }

  add(chunk: GenerateContentResponse): void {
    this.chunkCount++;
    if (!isObject(chunk)) {
      this.problem('chunk', 'an object', chunk);
      return;
    }
    const out = this.response;
    for (const key in chunk) {
      const value = chunk[key];
      if (value === undefined) continue;
      if (key === 'candidates') {
        if (!Array.isArray(value)) {
          this.problem('candidates', 'a list', value);
          continue;
        }
        for (let i = 0; i < value.length; i++) this.addCandidate(value[i], i);
      } else if (key === 'promptFeedback') {
        if (!isObject(value)) {
          this.problem('promptFeedback', 'an object', value);
          continue;
        }
        // The service sends it on the first chunk only; a later one must not erase a block reason.
        if (!out.promptFeedback || (!out.promptFeedback.blockReason && value.blockReason)) {
          out.promptFeedback = value;
        }
      } else if (key === 'usageMetadata') {
        // Named stores for the fields every event repeats (a store by computed key is a generic lookup).
        if (isObject(value)) out.usageMetadata = value;
        else this.problem('usageMetadata', 'an object', value);
      } else if (key === 'modelVersion') {
        out.modelVersion = value as string;
      } else {
        // usageMetadata is a running total, modelVersion/responseId repeat: the last value is the truth.
        put(out, key, value);
      }
    }
  }

  private addCandidate(c: unknown, position: number): void {
    if (!isObject(c)) {
      this.problem(`candidates[${position}]`, 'an object', c);
      return;
    }
    const index = typeof c.index === 'number' ? c.index : position;
    let state = index === this.lastIndex ? this.lastState : this.states.get(index);
    if (!state) {
      state = {
        candidate: {},
        ratingOrder: [],
        ratings: new Map(),
        lastRatings: undefined,
        lastRatingKeys: [],
        open: undefined,
        citations: new Map(),
      };
      this.states.set(index, state);
      const list = (this.response.candidates ??= []);
      list.push(state.candidate);
    }
    this.lastIndex = index;
    this.lastState = state;
    const target = state.candidate;
    // The index, not its path: the path string is only built when a problem is reported (a template per
    // candidate per event was a measurable part of reading a stream).
    const at = index;
    for (const key in c) {
      const value = c[key];
      if (value === undefined) continue;
      switch (key) {
        case 'content':
          this.addContent(state, value, at);
          break;
        case 'safetyRatings':
          this.addRatings(state, value, at);
          break;
        case 'citationMetadata':
          this.addCitations(state, value, at);
          break;
        case 'groundingMetadata':
          if (isObject(value)) {
            // Merged in place: a spread per chunk rebuilt the whole object each time.
            const into = (target.groundingMetadata ??= {});
            for (const k in value) put(into, k, value[k]);
          } else this.problem(`candidates[${at}].groundingMetadata`, 'an object', value);
          break;
        case 'finishReason':
        case 'finishMessage':
          if (typeof value === 'string') target[key] = value;
          else this.problem(`candidates[${at}].${key}`, 'a string', value);
          break;
        case 'index':
          (target as Record<string, unknown>).index = value;
          break;
        default:
          // tokenCount and unknown fields: last value wins.
          put(target, key, value);
      }
    }
  }

  private addContent(state: CandidateState, content: unknown, at: number): void {
    const target = state.candidate;
    if (!isObject(content)) {
      this.problem(`candidates[${at}].content`, 'an object', content);
      return;
    }
    const into = (target.content ??= {});
    for (const key in content) {
      if (key === 'parts') continue;
      if (key === 'role' && into.role !== undefined) continue;
      if (content[key] !== undefined) put(into, key, content[key]);
    }
    const parts = content.parts;
    if (parts === undefined) return;
    if (!Array.isArray(parts)) {
      this.problem(`candidates[${at}].content.parts`, 'a list', parts);
      return;
    }
    const out = (into.parts ??= []);
    for (const raw of parts as unknown[]) {
      if (!isObject(raw)) {
        this.problem(`candidates[${at}].content.parts[]`, 'an object', raw);
        continue;
      }
      const part = raw as Part;
      if (
        part.functionCall !== undefined &&
        !(isObject(part.functionCall) && typeof part.functionCall.name === 'string')
      ) {
        this.problem(`candidates[${at}].content.parts[].functionCall`, 'an object with a name', part.functionCall);
        continue;
      }
      const plain = isPlainText(part);
      const prev = out.length ? out[out.length - 1] : undefined;
      // The last part is known to be open when this aggregator left it so (no walk over its keys per chunk).
      const open = prev !== undefined && (prev === state.open || (isPlainText(prev) && !prev.thoughtSignature));
      if (plain && open && !!prev.thought === !!part.thought) {
        prev.text += part.text!;
        if (part.thoughtSignature !== undefined) {
          prev.thoughtSignature = part.thoughtSignature;
          state.open = undefined;
        } else state.open = prev;
      } else {
        const copy = { ...part };
        out.push(copy);
        state.open = plain && !copy.thoughtSignature ? copy : undefined;
      }
    }
  }

  private addRatings(state: CandidateState, ratings: unknown, at: number): void {
    if (!Array.isArray(ratings)) {
      this.problem(`candidates[${at}].safetyRatings`, 'a list', ratings);
      return;
    }
    if (sameRatings(state, ratings)) return;
    state.lastRatings = ratings;
    state.lastRatingKeys.length = 0;
    let changed = false;
    for (const item of ratings as unknown[]) {
      if (!isObject(item)) {
        this.problem(`candidates[${at}].safetyRatings[]`, 'an object', item);
        // Compared with nothing: the next chunk's list is read (and its problems reported) again.
        state.lastRatings = undefined;
        continue;
      }
      const r = item as SafetyRating;
      if (state.lastRatings) state.lastRatingKeys.push(keyCount(r));
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

  private addCitations(state: CandidateState, meta: unknown, at: number): void {
    if (!isObject(meta)) {
      this.problem(`candidates[${at}].citationMetadata`, 'an object', meta);
      return;
    }
    const into = (state.candidate.citationMetadata ??= {});
    for (const key in meta) {
      const value = meta[key];
      if (value === undefined) continue;
      if (!Array.isArray(value)) {
        if (key === 'citationSources' || key === 'citations')
          this.problem(`candidates[${at}].citationMetadata.${key}`, 'a list', value);
        else put(into, key, value);
        continue;
      }
      // citationSources (or Vertex's `citations`): union across chunks, without duplicates.
      // An own list only: `constructor` or `__proto__` would find Object's members on a plain object.
      const had: unknown = Object.hasOwn(into, key) ? into[key] : undefined;
      const list: unknown[] = Array.isArray(had) ? had : [];
      if (list !== had) put(into, key, list);
      let kept = state.citations.get(key);
      if (!kept) state.citations.set(key, (kept = { seen: new Set(), last: undefined }));
      const { seen, last } = kept;
      kept.last = value;
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (!isObject(item)) {
          if (key === 'citationSources') {
            this.problem(`candidates[${at}].citationMetadata.citationSources[]`, 'an object', item);
            continue;
          }
        } else if (last !== undefined && i < last.length && sameJson(last[i], item, 0)) {
          // The same source at the same place as in the chunk before (the service repeats the list): it
          // was kept or found a duplicate then, so it is one now, without printing it to compare.
          continue;
        }
        const id = canonical(item);
        if (id !== undefined) {
          if (seen.has(id)) continue;
          seen.add(id);
        }
        list.push(item);
      }
    }
  }
}

/**
 * Whether `ratings` equals the list the chunk before carried, item by item (same keys, identical values). The
 * key counts of that list's items were kept, so each item here is walked once.
 */
function sameRatings(state: CandidateState, ratings: unknown[]): boolean {
  const last = state.lastRatings;
  if (last === undefined || last.length !== ratings.length) return false;
  const counts = state.lastRatingKeys;
  for (let i = 0; i < ratings.length; i++) {
    const x = last[i] as SafetyRating;
    const y = ratings[i];
    if (typeof y !== 'object' || y === null || Array.isArray(y)) return false;
    // The two keys every rating has are compared by name (one shape, no lookup by key); any other key by key.
    if ((y as SafetyRating).category !== x.category || (y as SafetyRating).probability !== x.probability) return false;
    let n = 0;
    for (const k in y) {
      if (
        k !== 'category' &&
        k !== 'probability' &&
        (y as Record<string, unknown>)[k] !== (x as Record<string, unknown>)[k]
      )
        return false;
      n++;
    }
    if (n !== counts[i]) return false;
  }
  return true;
}

/** The answer text of a candidate (thought parts excluded). */
export function candidateText(c: Candidate | undefined): string {
  let s = '';
  const parts = c?.content?.parts;
  if (!Array.isArray(parts)) return s;
  for (const p of parts) if (isObject(p) && typeof p.text === 'string' && !p.thought) s += p.text;
  return s;
}

/** Parts ready to resend as history: empty text parts dropped, everything else (signatures too) unchanged. */
export function historyParts(c: Content | undefined): Part[] {
  const parts = c?.parts;
  if (!Array.isArray(parts)) return [];
  return parts.filter((p) => isObject(p)).filter((p) => !(isPlainText(p) && p.text === '' && !p.thoughtSignature));
}
