// "Did you mean": the candidate with the smallest edit distance (a swap of two neighbours counts
// as one edit, the commonest typo), if it is close enough to be a typo. Suggestions are a courtesy,
// so their cost is bounded per document: only candidates whose length is within the allowed
// distance are compared, each comparison is a banded distance that stops as soon as it cannot win,
// answers are remembered per name, and after a budget of work no more suggestions are made.

/** Edit distance (with adjacent transpositions); any value over `cap` is reported as `cap + 1`. */
export function editDistance(a: string, b: string, cap = Infinity): number {
  if (a === b) return 0;
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) > cap) return cap + 1;
  if (!Number.isFinite(cap)) cap = Math.max(n, m);
  const over = cap + 1;
  // Three rows of the band |i - j| <= cap, indexed by j; cells outside the band are "over".
  let prev2 = new Int32Array(m + 1).fill(over);
  let prev = new Int32Array(m + 1).fill(over);
  let cur = new Int32Array(m + 1).fill(over);
  for (let j = 0; j <= Math.min(m, cap); j++) prev[j] = j;
  for (let i = 1; i <= n; i++) {
    const lo = Math.max(1, i - cap);
    const hi = Math.min(m, i + cap);
    cur.fill(over, Math.max(0, lo - 1), Math.min(m, hi + 1) + 1);
    cur[0] = i <= cap ? i : over;
    let rowMin = cur[0];
    const ai = a.charCodeAt(i - 1);
    for (let j = lo; j <= hi; j++) {
      const bj = b.charCodeAt(j - 1);
      let v = prev[j - 1] + (ai === bj ? 0 : 1);
      if (prev[j] + 1 < v) v = prev[j] + 1;
      if (cur[j - 1] + 1 < v) v = cur[j - 1] + 1;
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj && prev2[j - 2] + 1 < v)
        v = prev2[j - 2] + 1;
      if (v > over) v = over;
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > cap) return over;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return Math.min(prev[m], over);
}

/** The most edits a suggestion for `name` may be away. */
function allowedDistance(name: string): number {
  return Math.max(1, Math.min(3, Math.floor(name.length / 3)));
}

/** Names longer than this get no suggestion: nobody types them, and comparing them costs. */
const MAX_NAME_LENGTH = 200;
/** Work (distance-table cells) one suggester may spend in all: a few tens of milliseconds. */
export const SUGGESTION_BUDGET = 1_500_000;

/** Suggests names from a fixed set for many queries, with bounded total work. */
export class NameSuggester {
  private readonly byLower = new Map<string, string>();
  private readonly byLength = new Map<number, string[]>();
  private readonly memo = new Map<string, string | undefined>();
  /** Distance-table cells computed so far (the budget's unit). */
  spent = 0;

  constructor(
    candidates: Iterable<string>,
    private readonly budget = SUGGESTION_BUDGET,
  ) {
    for (const c of candidates) {
      if (c.length > MAX_NAME_LENGTH + 3) continue;
      const lower = c.toLowerCase();
      if (!this.byLower.has(lower)) this.byLower.set(lower, c);
      const list = this.byLength.get(c.length);
      if (list) list.push(c);
      else this.byLength.set(c.length, [c]);
    }
  }

  suggest(name: string): string | undefined {
    if (this.memo.has(name)) return this.memo.get(name);
    const answer = this.compute(name);
    this.memo.set(name, answer);
    return answer;
  }

  private compute(name: string): string | undefined {
    if (name.length > MAX_NAME_LENGTH) return undefined;
    const same = this.byLower.get(name.toLowerCase());
    if (same !== undefined) return same;
    const cap = allowedDistance(name);
    let best: string | undefined;
    let bestD = cap + 1;
    // Nearest lengths first: an equal-length typo is the likeliest, and a better bound cuts later work.
    for (let delta = 0; delta <= cap && bestD > 1; delta++) {
      for (const len of delta === 0 ? [name.length] : [name.length - delta, name.length + delta]) {
        if (delta >= bestD) break;
        for (const c of this.byLength.get(len) ?? []) {
          if (this.spent > this.budget) return best;
          this.spent += Math.min(name.length, c.length) * (2 * bestD + 1) + 1;
          const d = editDistance(name, c, bestD - 1);
          if (d < bestD) {
            bestD = d;
            best = c;
            if (d <= 1) break;
          }
        }
      }
    }
    return bestD <= cap ? best : undefined;
  }
}

export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  return new NameSuggester(candidates).suggest(name);
}
