import { NameSuggester } from '../similar';
import type { Rule } from './types';

export const refUnresolved: Rule = {
  code: 'ref-unresolved',
  defaultSeverity: 'error',
  summary: 'Every `$ref` names a key of `schemas`.',
  check(m, report) {
    // One suggester per run: its total work is bounded however many refs are unresolved.
    let suggester: NameSuggester | undefined;
    for (let ri = 0; ri < m.refs.length; ri++) {
      const r = m.refs[ri];
      if (m.schemas.has(r.target)) continue;
      const guess = (suggester ??= new NameSuggester(m.schemas.keys())).suggest(r.target);
      report({
        path: r.path,
        message: `"$ref": "${r.target}" names no schema. ${guess ? `Did you mean "${guess}"? ` : ''}Add a schema "${r.target}" under "schemas" or point to an existing one.`,
        data: { target: r.target, suggestion: guess },
      });
    }
  },
};

export const schemaIdMismatch: Rule = {
  code: 'schema-id-mismatch',
  defaultSeverity: 'error',
  summary: "A top-level schema's `id` equals its key in `schemas`.",
  check(m, report) {
    for (const s of m.schemas.values()) {
      const id = s.value.id;
      if (id === undefined) {
        report({
          path: s.path,
          at: 'key',
          message: `Schema "${s.name}" has no "id"; add "id": "${s.name}".`,
          data: { name: s.name },
        });
      } else if (id !== s.name) {
        report({
          path: [...s.path, 'id'],
          message: `Schema id "${typeof id === 'string' ? id : JSON.stringify(id)}" differs from its key "${s.name}"; clients resolve $ref by the key. Set "id" to "${s.name}".`,
          data: { name: s.name },
        });
      }
    }
  },
};

export const schemaUnused: Rule = {
  code: 'schema-unused',
  defaultSeverity: 'off',
  summary: 'A schema is reachable from some method (off by default: real documents keep unreferenced schemas).',
  check(m, report) {
    const reached = new Set<string>();
    const queue: string[] = [];
    for (let ri = 0; ri < m.refs.length; ri++) {
      const r = m.refs[ri];
      if (r.holder.method && !reached.has(r.target)) {
        reached.add(r.target);
        queue.push(r.target);
      }
    }
    const refsIn = new Map<string, string[]>();
    for (let ri = 0; ri < m.refs.length; ri++) {
      const r = m.refs[ri];
      if (!r.holder.inSchema) continue;
      const l = refsIn.get(r.holder.inSchema);
      if (l) l.push(r.target);
      else refsIn.set(r.holder.inSchema, [r.target]);
    }
    while (queue.length) {
      for (const t of refsIn.get(queue.pop()!) ?? [])
        if (!reached.has(t)) {
          reached.add(t);
          queue.push(t);
        }
    }
    for (const s of m.schemas.values()) {
      if (!reached.has(s.name))
        report({
          path: s.path,
          at: 'key',
          message: `Schema "${s.name}" is not used by any method.`,
          data: { name: s.name },
        });
    }
  },
};
