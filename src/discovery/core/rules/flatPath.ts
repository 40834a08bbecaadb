// flatPath is path with every reserved expansion spelled out segment by segment; client generators
// build their URL templates from it, so a flatPath that drifts from path sends requests elsewhere.
// Variable names are free (real documents use synthetic names such as {projectsId}); only the literal
// text and the shape of the variables are compared.
import type { Rule } from './types';
import { describeMethod, str } from './util';

/** A flatPath variable, kept apart from literal characters. */
const VAR = Symbol('var');
type FlatUnit = string | typeof VAR;

/** What one piece of `path` may stand for in flatPath. */
type PathUnit =
  | { kind: 'char'; ch: string }
  /** {var}: exactly one flatPath variable. */
  | { kind: 'one' }
  /** {+var} and other multi-segment operators: one or more units of any kind. */
  | { kind: 'many' };

// Past this the comparison would cost more than it is worth; such paths are not real ones.
const MAX_WORK = 1_000_000;

function flatUnits(flat: string): { units: FlatUnit[]; nonSimple: string[] } {
  const units: FlatUnit[] = [];
  const nonSimple: string[] = [];
  const re = /\{([^{}]*)\}/g;
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(flat))) {
    units.push(...flat.slice(last, m.index));
    if (!/^[A-Za-z0-9_.-]+$/.test(m[1])) nonSimple.push(m[0]);
    units.push(VAR);
    last = m.index + m[0].length;
  }
  units.push(...flat.slice(last));
  return { units, nonSimple };
}

function pathUnits(path: string): PathUnit[] {
  const units: PathUnit[] = [];
  const re = /\{([+#./;?&]?)([^{}]*)\}/g;
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(path))) {
    for (const ch of path.slice(last, m.index)) units.push({ kind: 'char', ch });
    units.push(m[1] === '' && !m[2].includes(',') && !m[2].endsWith('*') ? { kind: 'one' } : { kind: 'many' });
    last = m.index + m[0].length;
  }
  for (const ch of path.slice(last)) units.push({ kind: 'char', ch });
  return units;
}

/** Whether flatPath is one spelling-out of path; undefined when too large to decide. */
export function flatPathFollowsPath(path: string, flat: string): boolean | undefined {
  const p = pathUnits(path);
  const f = flatUnits(flat).units;
  if ((p.length + 1) * (f.length + 1) > MAX_WORK) return undefined;
  // ok[i][j]: p[i..] matches f[j..]; filled from the end so no recursion depth limit applies.
  const width = f.length + 1;
  const ok = new Uint8Array((p.length + 1) * width);
  ok[p.length * width + f.length] = 1;
  for (let i = p.length - 1; i >= 0; i--) {
    const u = p[i];
    for (let j = f.length; j >= 0; j--) {
      let v = 0;
      if (u.kind === 'char') v = j < f.length && f[j] === u.ch ? ok[(i + 1) * width + j + 1] : 0;
      else if (u.kind === 'one') v = j < f.length && f[j] === VAR ? ok[(i + 1) * width + j + 1] : 0;
      // One unit consumed, then either stop here or keep consuming.
      else if (j < f.length) v = ok[(i + 1) * width + j + 1] || ok[i * width + j + 1];
      ok[i * width + j] = v;
    }
  }
  return ok[0] === 1;
}

export const flatPathInconsistent: Rule = {
  code: 'flat-path-inconsistent',
  defaultSeverity: 'warning',
  summary:
    '`flatPath` spells out `path`: the same literal text, `{var}` kept, each `{+var}` expanded into segments, and only simple `{var}` forms.',
  check(model, report) {
    for (const m of model.methods) {
      const flat = str(m.value.flatPath);
      const path = str(m.value.path);
      if (flat === undefined || path === undefined) continue;
      const at = [...m.path, 'flatPath'];
      const { nonSimple } = flatUnits(flat);
      if (nonSimple.length > 0) {
        report({
          path: at,
          message: `flatPath of ${describeMethod(m)} uses ${nonSimple.join(', ')}; flatPath spells every segment out, so write only simple {name} variables.`,
          data: { nonSimple },
        });
        continue;
      }
      if (flatPathFollowsPath(path, flat) === false) {
        report({
          path: at,
          message: `flatPath "${flat}" of ${describeMethod(m)} does not follow path "${path}": the literal text must be the same, each {var} must stay one variable and each {+var} must expand into segments.`,
          data: { path },
        });
      }
    }
  },
};
