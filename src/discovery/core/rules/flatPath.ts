// flatPath is path with every reserved expansion spelled out segment by segment; client generators
// build their URL templates from it, so a flatPath that drifts from path sends requests elsewhere.
// Variable names are free (real documents use synthetic names such as {projectsId}); only the literal
// text and the shape of the variables are compared.
import { methodRule } from './types';
import { describeMethod, str } from './util';

// Both templates become code-point arrays in reused scratch buffers (no string or object per
// character): this rule ran over every method of every document and was the lint's largest cost.
/** A flatPath variable, and the path unit that must meet exactly one of them ({var}). */
const VAR = -1;
/** The path's multi-segment operators ({+var} …) become ANY (one unit) followed by STAR (any more). */
const ANY = -2;
const STAR = -3;

// Past this the comparison would cost more than it is worth; such paths are not real ones.
const MAX_WORK = 1_000_000;

let flatBuf = new Int32Array(256);
let pathBuf = new Int32Array(256);

/** Index of the `}` closing the `{` at `open` with no brace between, or -1 (then `{` is literal text). */
function closeOf(s: string, open: number): number {
  for (let j = open + 1; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c === 125) return j;
    if (c === 123) return -1;
  }
  return -1;
}

/** Whether s[from, to) is a non-empty run of [A-Za-z0-9_.-] (a scan: no substring and no regular expression per variable). */
function simpleName(s: string, from: number, to: number): boolean {
  if (to <= from) return false;
  for (let k = from; k < to; k++) {
    const c = s.charCodeAt(k);
    const ok =
      (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 46 || c === 45;
    if (!ok) return false;
  }
  return true;
}

/** Fills flatBuf with flatPath's units; returns their count and the {…} forms that are not simple names. */
function flatUnits(flat: string, nonSimple?: string[]): number {
  if (flatBuf.length < flat.length) flatBuf = new Int32Array(flat.length * 2);
  let n = 0;
  for (let i = 0; i < flat.length;) {
    const cp = flat.codePointAt(i)!;
    const close = cp === 123 ? closeOf(flat, i) : -1;
    if (close >= 0) {
      if (nonSimple && !simpleName(flat, i + 1, close)) nonSimple.push(flat.slice(i, close + 1));
      flatBuf[n++] = VAR;
      i = close + 1;
    } else {
      flatBuf[n++] = cp;
      i += cp > 0xffff ? 2 : 1;
    }
  }
  return n;
}

const OPERATORS = '+#./;?&';

/** Units of the last pathUnits call (a multi-segment operator counts once); it returns its entries. */
let pathUnitCount = 0;

/** Fills pathBuf with path's units; returns the number of entries (a multi-segment operator takes two). */
function pathUnits(path: string): number {
  if (pathBuf.length < path.length * 2) pathBuf = new Int32Array(path.length * 4);
  let n = 0;
  let units = 0;
  for (let i = 0; i < path.length; units++) {
    const cp = path.codePointAt(i)!;
    const close = cp === 123 ? closeOf(path, i) : -1;
    if (close >= 0) {
      const hasOperator = close > i + 1 && OPERATORS.includes(path[i + 1]);
      // A single variable without explode: no operator, no comma, no trailing `*` (read in place).
      let single = !hasOperator && path.charCodeAt(close - 1) !== 42;
      for (let k = i + 1; single && k < close; k++) if (path.charCodeAt(k) === 44) single = false;
      if (single) pathBuf[n++] = VAR;
      else {
        pathBuf[n++] = ANY;
        pathBuf[n++] = STAR;
      }
      i = close + 1;
    } else {
      pathBuf[n++] = cp;
      i += cp > 0xffff ? 2 : 1;
    }
  }
  pathUnitCount = units;
  return n;
}

/** Whether flatPath is one spelling-out of path; undefined when too large to decide. */
export function flatPathFollowsPath(path: string, flat: string): boolean | undefined {
  return followsUnits(path, flatUnits(flat));
}

/** flatPathFollowsPath over the `fn` units flatUnits last left in flatBuf. */
function followsUnits(path: string, fn: number): boolean | undefined {
  const pn = pathUnits(path);
  if ((pathUnitCount + 1) * (fn + 1) > MAX_WORK) return undefined;
  // Wildcard matching with single-unit tokens and stars: on a mismatch only the last star needs to
  // take one more unit (an earlier star's choices are subsumed), so this is linear on real paths.
  const p = pathBuf;
  const f = flatBuf;
  let pi = 0;
  let fi = 0;
  let star = -1;
  let mark = 0;
  while (fi < fn) {
    const u = pi < pn ? p[pi] : 0;
    if (pi < pn && u !== STAR && (u === ANY || u === f[fi])) {
      pi++;
      fi++;
    } else if (pi < pn && u === STAR) {
      star = pi++;
      mark = fi;
    } else if (star >= 0) {
      pi = star + 1;
      fi = ++mark;
    } else return false;
  }
  while (pi < pn && p[pi] === STAR) pi++;
  return pi === pn;
}

export const flatPathInconsistent = methodRule(
  {
    code: 'flat-path-inconsistent',
    defaultSeverity: 'warning',
    summary:
      '`flatPath` spells out `path`: the same literal text, `{var}` kept, each `{+var}` expanded into segments, and only simple `{var}` forms.',
  },
  (m, model, report) => {
    const flat = str(m.value.flatPath);
    const path = str(m.value.path);
    if (flat === undefined || path === undefined) return;
    const nonSimple: string[] = [];
    const fn = flatUnits(flat, nonSimple);
    if (nonSimple.length > 0) {
      report({
        path: [...m.path, 'flatPath'],
        message: `flatPath of ${describeMethod(m)} uses ${nonSimple.join(', ')}; flatPath spells every segment out, so write only simple {name} variables.`,
        data: { nonSimple },
      });
      return;
    }
    // A flatPath equal to its path (1,104 of compute's 1,130 methods) follows it: with only simple
    // {name} forms left, each is one variable on both sides and the literal text is the same.
    if (flat !== path && followsUnits(path, fn) === false) {
      report({
        path: [...m.path, 'flatPath'],
        message: `flatPath "${flat}" of ${describeMethod(m)} does not follow path "${path}": the literal text must be the same, each {var} must stay one variable and each {+var} must expand into segments.`,
        data: { path },
      });
    }
  },
);
