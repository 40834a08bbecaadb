// Parameters of one method (or the document's global parameters), matched by name; a removed and an
// added parameter that agree on location, type, format and repetition, one each, read as a rename.
import type { JsonPath } from '../jsonTree';
import { isObj, type Obj } from '../model';
import { str } from './context';
import { compareEnums } from './enums';
import type { ChangeSink } from './report';

const required = (p: Obj) => p.required === true;
const repeated = (p: Obj) => p.repeated === true;
const shape = (p: Obj) => JSON.stringify([str(p.location), str(p.type), str(p.format), repeated(p)]);

function table(v: unknown): Map<string, Obj> {
  const out = new Map<string, Obj>();
  if (isObj(v)) for (const k in v) if (isObj(v[k])) out.set(k, v[k]);
  return out;
}

/** `owner` names whose parameters these are in messages, e.g. `drive.files.list` or `the document`. */
export function compareParameters(
  sink: ChangeSink,
  oldMap: unknown,
  newMap: unknown,
  oldBase: JsonPath,
  newBase: JsonPath,
  owner: string,
): void {
  const before = table(oldMap);
  const after = table(newMap);
  const removed = [...before.keys()].filter((k) => !after.has(k));
  const added = new Set([...after.keys()].filter((k) => !before.has(k)));
  for (const name of removed) {
    const oldPath = [...oldBase, name];
    const candidates = [...added].filter((a) => shape(after.get(a)!) === shape(before.get(name)!));
    const rivals = removed.filter((r) => shape(before.get(r)!) === shape(before.get(name)!));
    if (candidates.length === 1 && rivals.length === 1) {
      added.delete(candidates[0]);
      sink.add('parameter-renamed', `Parameter "${name}" of ${owner} was renamed to "${candidates[0]}".`, oldPath, [
        ...newBase,
        candidates[0],
      ]);
      continue;
    }
    sink.add('parameter-removed', `Parameter "${name}" of ${owner} was removed.`, oldPath, undefined);
  }
  for (const name of added) {
    const p = after.get(name)!;
    const path = [...newBase, name];
    if (required(p))
      sink.add('parameter-required-added', `Required parameter "${name}" was added to ${owner}.`, undefined, path);
    else sink.add('parameter-added', `Optional parameter "${name}" was added to ${owner}.`, undefined, path);
  }
  for (const [name, o] of before) {
    const n = after.get(name);
    if (n) compareParameter(sink, o, n, [...oldBase, name], [...newBase, name], `parameter "${name}" of ${owner}`);
  }
}

function compareParameter(sink: ChangeSink, o: Obj, n: Obj, oldPath: JsonPath, newPath: JsonPath, label: string) {
  const field = (key: string): [JsonPath, JsonPath] => [
    [...oldPath, key],
    [...newPath, key],
  ];
  const Label = label[0].toUpperCase() + label.slice(1);
  if (!required(o) && required(n))
    sink.add('parameter-made-required', `${Label} is now required.`, oldPath, [...newPath, 'required']);
  if (required(o) && !required(n))
    sink.add('parameter-made-optional', `${Label} is now optional.`, [...oldPath, 'required'], newPath);
  if (str(o.location) !== str(n.location))
    sink.add(
      'parameter-location-changed',
      `${Label} moved from ${str(o.location) ?? 'nowhere'} to ${str(n.location) ?? 'nowhere'}.`,
      ...field('location'),
    );
  if (str(o.type) !== str(n.type))
    sink.add(
      'parameter-type-changed',
      `Type of ${label} changed from ${str(o.type) ?? 'none'} to ${str(n.type) ?? 'none'}.`,
      ...field('type'),
    );
  if (str(o.format) !== str(n.format))
    sink.add(
      'parameter-format-changed',
      `Format of ${label} changed from ${str(o.format) ?? 'none'} to ${str(n.format) ?? 'none'}.`,
      ...field('format'),
    );
  if (repeated(o) !== repeated(n))
    sink.add(
      'parameter-repeated-changed',
      `${Label} ${repeated(n) ? 'now takes repeated values' : 'no longer takes repeated values'}.`,
      ...field('repeated'),
    );
  if (str(o.pattern) !== str(n.pattern))
    sink.add('parameter-pattern-changed', `Pattern of ${label} changed.`, ...field('pattern'));
  if (str(o.description) !== str(n.description))
    sink.add('description-changed', `Description of ${label} changed.`, ...field('description'));
  if (o.deprecated !== true && n.deprecated === true)
    sink.add('parameter-deprecated', `${Label} is now deprecated.`, oldPath, [...newPath, 'deprecated']);
  compareEnums(sink, o, n, oldPath, newPath, label, {
    removed: 'parameter-enum-value-removed',
    added: 'parameter-enum-value-added',
  });
}
