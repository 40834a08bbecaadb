import type { SeveritySetting } from '../diagnostic';
import type { JsonPath } from '../jsonTree';
import type { DiscoveryModel, MethodEntry, SchemaNode } from '../model';

export interface Finding {
  path: JsonPath;
  /** Underline the property key rather than its value. */
  at?: 'key' | 'value';
  message: string;
  data?: Record<string, unknown>;
}

export type Report = (finding: Finding) => void;

export interface Rule {
  /** Stable code shown in diagnostics and used in settings. */
  readonly code: string;
  readonly defaultSeverity: SeveritySetting;
  /** One line for docs and settings. */
  readonly summary: string;
  check(model: DiscoveryModel, report: Report): void;
  /**
   * Rules that look at one schema node (or one method) at a time say so, and the analysis runs all of
   * them in one walk: a fresh worker runs each rule's own loop unoptimised and compiles each on its own.
   */
  readonly eachSchemaNode?: (node: SchemaNode, model: DiscoveryModel, report: Report) => void;
  readonly eachMethod?: (method: MethodEntry, model: DiscoveryModel, report: Report) => void;
  /**
   * A schema-node rule that finds nothing on a node without this key says so: the shared walk then calls
   * it only on nodes that have the key (a call per rule per node was most of the walk's own time).
   */
  readonly nodeKey?: string;
}

type RuleInfo = Pick<Rule, 'code' | 'defaultSeverity' | 'summary' | 'nodeKey'>;

/** A rule checking each schema node on its own; `check` walks the nodes for callers that run it alone. */
export function schemaNodeRule(
  info: RuleInfo,
  eachSchemaNode: (node: SchemaNode, model: DiscoveryModel, report: Report) => void,
): Rule {
  return {
    ...info,
    eachSchemaNode,
    check(model, report) {
      const nodes = model.schemaNodes;
      for (let i = 0; i < nodes.length; i++) eachSchemaNode(nodes[i], model, report);
    },
  };
}

/** A rule checking each method on its own; `check` walks the methods for callers that run it alone. */
export function methodRule(
  info: RuleInfo,
  eachMethod: (method: MethodEntry, model: DiscoveryModel, report: Report) => void,
): Rule {
  return {
    ...info,
    eachMethod,
    check(model, report) {
      const methods = model.methods;
      for (let i = 0; i < methods.length; i++) eachMethod(methods[i], model, report);
    },
  };
}
