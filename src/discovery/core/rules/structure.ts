// Structural checks against our JSON schema, one rule per finding kind so each has its own severity.
import type { DiscoveryModel } from '../model';
import { validateStructure, type StructuralCode, type StructuralFinding } from '../schema';
import type { Rule } from './types';

const cache = new WeakMap<DiscoveryModel, Map<StructuralCode, StructuralFinding[]>>();

function findings(model: DiscoveryModel, code: StructuralCode): StructuralFinding[] {
  let byCode = cache.get(model);
  if (!byCode) {
    byCode = new Map();
    for (const f of validateStructure(model.root)) {
      const l = byCode.get(f.code);
      if (l) l.push(f);
      else byCode.set(f.code, [f]);
    }
    cache.set(model, byCode);
  }
  return byCode.get(code) ?? [];
}

function structural(code: StructuralCode, defaultSeverity: Rule['defaultSeverity'], summary: string): Rule {
  return {
    code,
    defaultSeverity,
    summary,
    check(model, report) {
      for (const f of findings(model, code)) report({ path: f.path, at: f.at, message: f.message, data: f.data });
    },
  };
}

export const valueType = structural(
  'value-type',
  'error',
  'A value has the JSON type our schema gives it (e.g. `required` is a boolean, `default` a string).',
);
export const valueNotAllowed = structural(
  'value-not-allowed',
  'warning',
  'A fixed-vocabulary value (`kind`, `discoveryVersion`, `protocol`, `labels`) is one the format defines.',
);
export const keyMissing = structural(
  'key-missing',
  'error',
  'Keys every document or method needs are present (`kind`, `discoveryVersion`, `id`, `name`, `version`, `rootUrl`, `servicePath`; method `id`, `path`).',
);
export const keyUnknown = structural(
  'key-unknown',
  'hint',
  'A key the format and real documents do not use (often a typo); it is kept but ignored by tools.',
);
