// Quick fixes as plain text edits, computed from a diagnostic's rule data and the analysis.
import type { Analysis } from './analyze';
import type { Diagnostic } from './diagnostic';
import { appendArrayItem, insertProperty, removeNode, replaceValue, type TextEdit } from './edits';
import type { JsonPath } from './jsonTree';
import { isObj } from './model';

export interface QuickFix {
  title: string;
  edits: TextEdit[];
  /** The fix a user most likely wants (VS Code shows it first / applies it with auto-fix). */
  preferred?: boolean;
}

function at(obj: unknown, path: JsonPath): unknown {
  let v = obj;
  for (const s of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[s];
  }
  return v;
}

/** Fixes for one diagnostic; empty when the rule has none or the text moved on. */
export function quickFixes(analysis: Analysis, d: Diagnostic): QuickFix[] {
  const tree = analysis.parsed.tree;
  const model = analysis.model;
  const path = d.data?.path as JsonPath | undefined;
  if (!tree || !model || !path) return [];
  const out: QuickFix[] = [];
  const add = (title: string, edits: (TextEdit | undefined)[], preferred?: boolean): void => {
    const ok = edits.filter((e): e is TextEdit => e !== undefined);
    if (ok.length === edits.length && ok.length > 0) out.push({ title, edits: ok, preferred });
  };
  const data = d.data ?? {};
  const parentOf = (p: JsonPath) => p.slice(0, -1);

  switch (d.code) {
    case 'ref-unresolved': {
      const target = String(data.target);
      if (typeof data.suggestion === 'string')
        add(`Change to "${data.suggestion}"`, [replaceValue(tree, path, data.suggestion)], true);
      if (isObj(model.root.schemas)) {
        add(`Create schema "${target}"`, [
          insertProperty(tree, ['schemas'], target, { id: target, type: 'object', description: '', properties: {} }),
        ]);
      }
      break;
    }
    case 'schema-id-mismatch': {
      const name = String(data.name);
      const idPath = path[path.length - 1] === 'id' ? path : [...path, 'id'];
      add(
        `Set id to "${name}"`,
        [
          at(model.root, idPath) === undefined
            ? insertProperty(tree, path, 'id', name)
            : replaceValue(tree, idPath, name),
        ],
        true,
      );
      break;
    }
    case 'parameter-order-unknown':
    case 'parameter-order-duplicate':
    case 'parameter-order-optional':
      add(`Remove "${String(data.name)}" from parameterOrder`, [removeNode(tree, path)], true);
      break;
    case 'parameter-order-missing-required': {
      const method = data.method as JsonPath;
      const order = [...method, 'parameterOrder'];
      const edit = Array.isArray(at(model.root, order))
        ? appendArrayItem(tree, order, data.name)
        : insertProperty(tree, method, 'parameterOrder', [data.name]);
      add(`Add "${String(data.name)}" to parameterOrder`, [edit], true);
      break;
    }
    case 'path-variable-undeclared': {
      const method = data.method as JsonPath;
      const name = String(data.name);
      if (data.wrongLocation) {
        add(
          `Set location of "${name}" to "path"`,
          [replaceValue(tree, [...method, 'parameters', name, 'location'], 'path')],
          true,
        );
      } else {
        const param = { type: 'string', description: '', location: 'path', required: true };
        const edit = isObj(at(model.root, [...method, 'parameters']))
          ? insertProperty(tree, [...method, 'parameters'], name, param)
          : insertProperty(tree, method, 'parameters', { [name]: param });
        add(`Add path parameter "${name}"`, [edit], true);
      }
      break;
    }
    case 'path-parameter-not-required':
      add('Mark as required', [insertProperty(tree, path, 'required', true)], true);
      break;
    case 'enum-descriptions-length':
    case 'enum-deprecated-length': {
      const key = d.code === 'enum-descriptions-length' ? 'enumDescriptions' : 'enumDeprecated';
      const holder = parentOf(path);
      const values = at(model.root, [...holder, 'enum']);
      const current = at(model.root, [...holder, key]);
      if (Array.isArray(values) && Array.isArray(current)) {
        const pad = key === 'enumDescriptions' ? '' : false;
        const kept: unknown[] = current;
        const next = values.map((_, i) => (i < kept.length ? kept[i] : pad));
        add(
          current.length < values.length
            ? `Pad ${key} to ${values.length} entries`
            : `Trim ${key} to ${values.length} entries`,
          [replaceValue(tree, [...holder, key], next)],
          true,
        );
      }
      break;
    }
    case 'http-method-unknown':
    case 'type-unknown':
      if (typeof data.replacement === 'string')
        add(`Change to "${data.replacement}"`, [replaceValue(tree, path, data.replacement)], true);
      break;
    case 'scope-unknown': {
      const scope = String(data.scope);
      const scopes = at(model.root, ['auth', 'oauth2', 'scopes']);
      const edit = isObj(scopes)
        ? insertProperty(tree, ['auth', 'oauth2', 'scopes'], scope, { description: '' })
        : isObj(model.root.auth)
          ? undefined
          : insertProperty(tree, [], 'auth', { oauth2: { scopes: { [scope]: { description: '' } } } });
      add(`Declare scope "${scope}" in auth.oauth2.scopes`, [edit], true);
      break;
    }
    case 'media-upload-inconsistent':
      if (data.add === 'supportsMediaUpload')
        add(
          'Add "supportsMediaUpload": true',
          [insertProperty(tree, parentOf(path), 'supportsMediaUpload', true)],
          true,
        );
      break;
    case 'enum-duplicate-value': {
      const holder = path.slice(0, -2);
      const i = Number(data.index);
      const edits = [removeNode(tree, path)];
      for (const k of ['enumDescriptions', 'enumDeprecated']) {
        const arr = at(model.root, [...holder, k]);
        if (Array.isArray(arr) && arr.length > i) edits.push(removeNode(tree, [...holder, k, i]));
      }
      add('Remove the repeated value', edits, true);
      break;
    }
    case 'document-id-mismatch':
    case 'base-url-mismatch':
      if (typeof data.expected === 'string')
        add(`Change to "${data.expected}"`, [replaceValue(tree, path, data.expected)], true);
      break;
    case 'value-type':
      if (
        data.expected === 'string' &&
        (typeof at(model.root, path) === 'number' || typeof at(model.root, path) === 'boolean')
      ) {
        add('Write the value as a string', [replaceValue(tree, path, String(at(model.root, path)))], true);
      } else if (data.expected === 'boolean' && (at(model.root, path) === 'true' || at(model.root, path) === 'false')) {
        add('Write the value as a boolean', [replaceValue(tree, path, at(model.root, path) === 'true')], true);
      }
      break;
    default:
      break;
  }
  return out;
}
