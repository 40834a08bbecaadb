// One entry point for the editor, the CLI and the bench: parse (or reuse a parse), build the
// model, run the rules, place findings at offsets, apply the user's severities.
import type { Diagnostic, Severity, SeveritySetting } from './diagnostic';
import { isRestDescriptionValue } from './detect';
import type { JsonPath, JsonTree } from './jsonTree';
import { keyOf, nodeAt } from './jsonTreeLookup';
import { buildModel, type DiscoveryModel, type Obj } from './model';
import { parseJson, type ParsedJson, type ParseLimits } from './parse';
import { RULES } from './rules';
import type { Finding, Report, Rule } from './rules/types';

/** Built-in codes that do not come from a Rule object. */
export const PARSE_CODES: Record<string, { severity: Severity; summary: string }> = {
  'json-syntax': {
    severity: 'error',
    summary: 'The text is not valid JSON (comments and trailing commas are accepted).',
  },
  'json-duplicate-key': {
    severity: 'error',
    summary: 'A key appears twice in one object; JSON readers keep only one of them.',
  },
  'document-too-large': {
    severity: 'warning',
    summary: 'The document is over the analysis size limit and is not checked.',
  },
  'document-too-deep': {
    severity: 'warning',
    summary: 'The document nests deeper than the analysis limit and is not checked.',
  },
  'rule-failed': {
    severity: 'info',
    summary: 'A rule stopped on an unexpected input; the other rules still ran. Please report the document.',
  },
  'not-a-discovery-document': {
    severity: 'error',
    summary: 'CLI only: a file given to `lint` has no top-level `"kind": "discovery#restDescription"`.',
  },
};

export type RuleSettings = Readonly<Record<string, SeveritySetting | undefined>>;

export interface AnalyzeOptions extends ParseLimits {
  rules?: RuleSettings;
}

export interface Analysis {
  parsed: ParsedJson;
  /** Undefined when the text is not a description document or could not be read. */
  model: DiscoveryModel | undefined;
  diagnostics: Diagnostic[];
}

export function analyzeText(text: string, options: AnalyzeOptions = {}): Analysis {
  return analyzeParsed(parseJson(text, options), options);
}

export function analyzeParsed(parsed: ParsedJson, options: AnalyzeOptions = {}): Analysis {
  const settings = options.rules ?? {};
  const out: Diagnostic[] = [];
  const push = (d: Diagnostic): void => {
    const s = severityFor(d.code, d.severity, settings);
    if (s !== 'off') out.push(s === d.severity ? d : { ...d, severity: s });
  };
  for (const p of parsed.problems) push(p);
  const tree = parsed.tree;
  if (tree) {
    for (const dup of tree.duplicates) {
      const name = keyOf(tree, dup.node) ?? '';
      push({
        code: 'json-duplicate-key',
        severity: 'error',
        offset: tree.keyStart[dup.node],
        length: tree.keyEnd[dup.node] - tree.keyStart[dup.node],
        message: `Duplicate key "${name}": only the last one counts. Remove or rename one of them.`,
        data: { key: name, firstOffset: tree.keyStart[dup.first] },
      });
    }
  }
  let model: DiscoveryModel | undefined;
  if (isRestDescriptionValue(parsed.value)) {
    model = buildModel(parsed.value as Obj);
    const runs = RULES.map((rule): RuleRun => {
      const severity = settings[rule.code] ?? rule.defaultSeverity;
      const findings: Finding[] = [];
      return {
        rule,
        severity,
        on: severity !== 'off',
        keyBit: 0,
        findings,
        report: (f) => findings.push(f),
        failure: undefined,
      };
    });
    walkEach(model, runs);
    for (const run of runs) {
      if (!run.on) continue;
      const { rule, severity } = run;
      if (rule.eachSchemaNode || rule.eachMethod) {
        for (const f of run.findings) out.push(place(tree, rule.code, severity as Severity, f));
      } else {
        try {
          rule.check(model, (f) => out.push(place(tree, rule.code, severity as Severity, f)));
        } catch (err) {
          run.failure = { err };
        }
      }
      // One rule tripping over an input nobody foresaw must not take the other rules' findings with it.
      if (run.failure) push(ruleFailed(rule.code, run.failure.err));
    }
  }
  out.sort((a, b) => a.offset - b.offset);
  return { parsed, model, diagnostics: out };
}

interface RuleRun {
  rule: Rule;
  severity: SeveritySetting;
  on: boolean;
  /** Bit of the rule's node key in a node's key mask (0: the rule runs on every node). */
  keyBit: number;
  /** Findings of a rule run in a shared walk, kept apart so the order stays that of running the rules one by one. */
  findings: Finding[];
  report: Report;
  /** Boxed: a rule may throw anything, undefined included. */
  failure: { err: unknown } | undefined;
}

/**
 * One walk over the schema nodes and one over the methods for every rule that checks them one at a time.
 * Two functions, so the walk over the methods does not run in code compiled while only the first had run.
 */
function walkEach(model: DiscoveryModel, runs: RuleRun[]): void {
  walkSchemaNodes(
    model,
    runs.filter((r) => r.on && r.rule.eachSchemaNode),
  );
  walkMethods(
    model,
    runs.filter((r) => r.on && r.rule.eachMethod),
  );
}

function walkSchemaNodes(model: DiscoveryModel, runs: RuleRun[]): void {
  // The keys rules wait for, one bit each: a node's keys are enumerated once and matched against these,
  // rather than each rule looking up its (mostly absent) key on every node.
  const keys: string[] = [];
  for (const run of runs) {
    const key = run.rule.nodeKey;
    if (key === undefined) continue;
    let b = keys.indexOf(key);
    if (b < 0 && keys.length < 31) b = keys.push(key) - 1;
    run.keyBit = b < 0 ? 0 : 1 << b;
  }
  const nodes = model.schemaNodes;
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    let present = 0;
    if (keys.length > 0) {
      for (const k in node.value) {
        for (let b = 0; b < keys.length; b++) {
          if (k === keys[b]) {
            present |= 1 << b;
            break;
          }
        }
      }
    }
    for (let j = 0; j < runs.length; j++) {
      const run = runs[j];
      if (run.failure || (run.keyBit !== 0 && (present & run.keyBit) === 0)) continue;
      try {
        run.rule.eachSchemaNode!(node, model, run.report);
      } catch (err) {
        // The rule stops here, as it would have in its own loop; what it found so far stays.
        run.failure = { err };
      }
    }
  }
}

function walkMethods(model: DiscoveryModel, runs: RuleRun[]): void {
  const methods = model.methods;
  for (let i = 0; i < methods.length; i++) {
    for (let j = 0; j < runs.length; j++) {
      const run = runs[j];
      if (run.failure) continue;
      try {
        run.rule.eachMethod!(methods[i], model, run.report);
      } catch (err) {
        run.failure = { err };
      }
    }
  }
}

function ruleFailed(code: string, err: unknown): Diagnostic {
  return {
    code: 'rule-failed',
    severity: 'info',
    offset: 0,
    length: 0,
    message: `Rule ${code} could not check this document: ${(err as Error)?.message ?? err}.`,
  };
}

function severityFor(code: string, fallback: Severity, settings: RuleSettings): SeveritySetting {
  return settings[code] ?? fallback;
}

/** Turns a path-based finding into an offset range; a path missing from the text falls back to its nearest ancestor. */
export function place(tree: JsonTree | undefined, code: string, severity: Severity, f: Finding): Diagnostic {
  const range = rangeOfPath(tree, f.path, f.at ?? 'value');
  return {
    code,
    severity,
    message: f.message,
    offset: range.offset,
    length: range.length,
    ...(f.data ? { data: { ...f.data, path: f.path } } : { data: { path: f.path } }),
  };
}

export function rangeOfPath(
  tree: JsonTree | undefined,
  path: JsonPath,
  at: 'key' | 'value' = 'value',
): { offset: number; length: number } {
  if (!tree) return { offset: 0, length: 0 };
  for (let n = path.length; n >= 0; n--) {
    const node = nodeAt(tree, n === path.length ? path : path.slice(0, n));
    if (node < 0) continue;
    if ((at === 'key' || n < path.length) && tree.keyStart[node] >= 0) {
      return { offset: tree.keyStart[node], length: tree.keyEnd[node] - tree.keyStart[node] };
    }
    return { offset: tree.start[node], length: tree.end[node] - tree.start[node] };
  }
  return { offset: 0, length: 0 };
}
