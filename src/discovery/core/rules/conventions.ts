// Conventions that real documents often break for good reasons: off by default, for authors who
// want their own documents to follow them.
import { isObj } from '../model';
import { methodRule, type Rule } from './types';
import { describeMethod, methodParameters, str, templateVariables } from './util';

export const methodIdShape: Rule = {
  code: 'method-id-shape',
  defaultSeverity: 'off',
  summary:
    'A method id is `name.resource….method` (off by default: 308 of 456 public documents differ for historical reasons).',
  check(model, report) {
    const name = str(model.root.name);
    if (name === undefined) return;
    for (let mi = 0; mi < model.methods.length; mi++) {
      const m = model.methods[mi];
      if (m.id === undefined) continue;
      const expected = [name, ...m.resource, m.name].join('.');
      if (m.id !== expected)
        report({
          path: [...m.path, 'id'],
          message: `Method id "${m.id}" is not "${expected}" (name.resources.method).`,
          data: { expected },
        });
    }
  },
};

export const flatPathVariableUnknown = methodRule(
  {
    code: 'flat-path-variable-unknown',
    defaultSeverity: 'off',
    summary:
      'Every `{var}` in `flatPath` is a parameter (off by default: real documents use synthetic names such as `{projectsId}`).',
  },
  (m, model, report) => {
    const flat = str(m.value.flatPath);
    if (flat === undefined) return;
    const params = methodParameters(m);
    for (const v of templateVariables(flat)) {
      if (!isObj(params[v.name]))
        report({
          path: [...m.path, 'flatPath'],
          message: `flatPath variable {${v.name}} of ${describeMethod(m)} is not a parameter.`,
          data: { name: v.name },
        });
    }
  },
);

export const methodScopesMissing: Rule = {
  code: 'method-scopes-missing',
  defaultSeverity: 'off',
  summary:
    'In a document with `auth`, every method lists its `scopes` (off by default: some public methods need none).',
  check(model, report) {
    if (model.scopes.size === 0) return;
    for (let mi = 0; mi < model.methods.length; mi++) {
      const m = model.methods[mi];
      if (!Array.isArray(m.value.scopes) || m.value.scopes.length === 0) {
        report({
          path: m.path,
          at: 'key',
          message: `${describeMethod(m)} lists no scopes; clients will not know which authorization it needs.`,
        });
      }
    }
  },
};
