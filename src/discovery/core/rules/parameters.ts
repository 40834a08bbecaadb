import { isObj } from '../model';
import { methodRule, schemaNodeRule, type Rule } from './types';
import {
  describeMethod,
  eachParameterOrderEntry,
  methodParameters,
  repeats,
  str,
  templateVariables,
  type TemplateVariable,
} from './util';

export const parameterOrderUnknown: Rule = {
  code: 'parameter-order-unknown',
  defaultSeverity: 'error',
  summary: 'Every `parameterOrder` entry names a parameter of the method.',
  check(model, report) {
    eachParameterOrderEntry(model.methods, (m, name, i, params) => {
      if (typeof name === 'string' && !Object.hasOwn(params, name)) {
        report({
          path: [...m.path, 'parameterOrder', i],
          message: `"${name}" in parameterOrder of ${describeMethod(m)} is not one of its parameters; declare it under "parameters" or remove it.`,
          data: { name },
        });
      }
    });
  },
};

export const parameterOrderDuplicate = methodRule(
  {
    code: 'parameter-order-duplicate',
    defaultSeverity: 'error',
    summary: 'No parameter appears twice in `parameterOrder`.',
  },
  (m, model, report) => {
    const order = m.value.parameterOrder;
    if (!Array.isArray(order)) return;
    const seen = repeats(order);
    for (let i = 0; i < order.length; i++) {
      const name: unknown = order[i];
      if (seen(name, i))
        report({
          path: [...m.path, 'parameterOrder', i],
          message: `"${String(name)}" is listed twice in parameterOrder; remove the repeat.`,
          data: { name, index: i },
        });
    }
  },
);

export const parameterOrderMissingRequired = methodRule(
  {
    code: 'parameter-order-missing-required',
    defaultSeverity: 'warning',
    summary: 'Required parameters are listed in `parameterOrder` (generators build method signatures from it).',
  },
  (m, model, report) => {
    const order = Array.isArray(m.value.parameterOrder) ? m.value.parameterOrder : [];
    const params = methodParameters(m);
    for (const name in params) {
      const p = params[name];
      if (isObj(p) && p.required === true && !order.includes(name)) {
        report({
          path: [...m.path, 'parameters', name],
          at: 'key',
          message: `Required parameter "${name}" is missing from parameterOrder of ${describeMethod(m)}; add it so generated clients take it as an argument.`,
          data: { name, method: m.path },
        });
      }
    }
  },
);

export const parameterOrderOptional: Rule = {
  code: 'parameter-order-optional',
  defaultSeverity: 'warning',
  summary: '`parameterOrder` lists only required parameters.',
  check(model, report) {
    eachParameterOrderEntry(model.methods, (m, name, i, params) => {
      const p = typeof name === 'string' ? params[name] : undefined;
      if (isObj(p) && p.required !== true) {
        report({
          path: [...m.path, 'parameterOrder', i],
          message: `"${String(name)}" is in parameterOrder but not required; mark it "required": true or remove it from parameterOrder.`,
          data: { name },
        });
      }
    });
  },
};

export const pathVariableUndeclared = methodRule(
  {
    code: 'path-variable-undeclared',
    defaultSeverity: 'error',
    summary: 'Every `{var}`/`{+var}` in a method `path` is a parameter with `"location": "path"`.',
  },
  (m, model, report) => {
    const path = str(m.value.path);
    if (path === undefined) return;
    const params = methodParameters(m);
    const vars = templateVariables(path);
    for (let vi = 0; vi < vars.length; vi++) {
      const v = vars[vi];
      const p = params[v.name] ?? model.globalParameters.get(v.name);
      if (!isObj(p)) {
        report({
          path: [...m.path, 'path'],
          message: `Path variable {${v.operator}${v.name}} of ${describeMethod(m)} has no parameter; add a "${v.name}" parameter with "location": "path".`,
          data: { name: v.name, method: m.path },
        });
      } else if (p.location !== 'path') {
        report({
          path: [...m.path, 'path'],
          message: `Path variable {${v.operator}${v.name}} names parameter "${v.name}", whose location is "${String(p.location)}"; set its "location" to "path".`,
          data: { name: v.name, method: m.path, wrongLocation: true },
        });
      }
    }
  },
);

export const pathParameterUnused = methodRule(
  {
    code: 'path-parameter-unused',
    defaultSeverity: 'error',
    summary: 'Every parameter with `"location": "path"` appears in the method `path`.',
  },
  (m, model, report) => {
    const path = str(m.value.path);
    if (path === undefined) return;
    const vars = templateVariables(path);
    const params = methodParameters(m);
    for (const name in params) {
      const p = params[name];
      if (isObj(p) && p.location === 'path' && !hasVariable(vars, name)) {
        report({
          path: [...m.path, 'parameters', name],
          at: 'key',
          message: `Path parameter "${name}" does not appear in path "${path}"; add {${name}} to the path or change its location to "query".`,
          data: { name },
        });
      }
    }
  },
);

function hasVariable(vars: readonly TemplateVariable[], name: string): boolean {
  for (let i = 0; i < vars.length; i++) if (vars[i].name === name) return true;
  return false;
}

export const pathParameterNotRequired = methodRule(
  {
    code: 'path-parameter-not-required',
    defaultSeverity: 'warning',
    summary: 'Path parameters are `"required": true` (a URL cannot leave them out).',
  },
  (m, model, report) => {
    const params = methodParameters(m);
    for (const name in params) {
      const p = params[name];
      if (isObj(p) && p.location === 'path' && p.required !== true) {
        report({
          path: [...m.path, 'parameters', name],
          at: 'key',
          message: `Path parameter "${name}" is not marked "required": true; a URL cannot omit it.`,
          data: { name },
        });
      }
    }
  },
);

export const pathReservedExpansionMultiple = methodRule(
  {
    code: 'path-reserved-expansion-multiple',
    // Older generators reject this, but current real documents (aiplatform) use it: inform, do not fail.
    defaultSeverity: 'info',
    summary: 'A `path` holds at most one `{+var}` (some generators cannot split two greedy segments).',
  },
  (m, model, report) => {
    const path = str(m.value.path);
    if (path === undefined) return;
    let plus = 0;
    const vars = templateVariables(path);
    for (let vi = 0; vi < vars.length; vi++) if (vars[vi].operator === '+') plus++;
    if (plus > 1)
      report({
        path: [...m.path, 'path'],
        message: `Path "${path}" has ${plus} {+var} expansions; older generators cannot tell where one ends.`,
      });
  },
);

const LOCATIONS = new Set(['query', 'path']);

export const parameterLocationInvalid = schemaNodeRule(
  {
    code: 'parameter-location-invalid',
    defaultSeverity: 'error',
    summary: "A parameter's `location` is `query` or `path`.",
  },
  (n, model, report) => {
    if (n.context !== 'parameter' && n.context !== 'globalParameter') return;
    const loc = n.value.location;
    if (loc === undefined) {
      report({
        path: n.path,
        at: 'key',
        message: `Parameter "${String(n.path[n.path.length - 1])}" has no "location"; add "location": "query" or "path".`,
        data: { name: n.path[n.path.length - 1] },
      });
    } else if (typeof loc !== 'string' || !LOCATIONS.has(loc)) {
      report({
        path: [...n.path, 'location'],
        message: `Location ${JSON.stringify(loc)} is not supported; use "query" or "path".`,
      });
    }
  },
);

export const globalParameterShadowed = methodRule(
  {
    code: 'global-parameter-shadowed',
    defaultSeverity: 'info',
    summary: 'A method parameter has the same name as a document-level parameter.',
  },
  (m, model, report) => {
    for (const name in methodParameters(m)) {
      if (model.globalParameters.has(name)) {
        report({
          path: [...m.path, 'parameters', name],
          at: 'key',
          message: `Parameter "${name}" of ${describeMethod(m)} shadows the document-level parameter of the same name; generated clients may expose only one.`,
        });
      }
    }
  },
);
