// Enum values compared as sets (their order carries no meaning), with their descriptions and
// deprecation flags read at each value's own index on each side.
import type { JsonPath } from '../jsonTree';
import type { Obj } from '../model';
import type { DiffCode } from './codes';
import type { ChangeSink } from './report';

function values(v: Obj): string[] | undefined {
  return Array.isArray(v.enum) ? v.enum.map((x) => String(x)) : undefined;
}

function at(v: Obj, key: 'enumDescriptions' | 'enumDeprecated', i: number): unknown {
  const list = v[key];
  return Array.isArray(list) ? list[i] : undefined;
}

export function compareEnums(
  sink: ChangeSink,
  o: Obj,
  n: Obj,
  oldPath: JsonPath,
  newPath: JsonPath,
  label: string,
  codes: { removed: DiffCode; added: DiffCode },
): void {
  const before = values(o);
  const after = values(n);
  if (!before && !after) return;
  const newIndex = new Map((after ?? []).map((x, i) => [x, i]));
  const oldIndex = new Map((before ?? []).map((x, i) => [x, i]));
  // No enum on one side means any value: losing the list restricts nothing, gaining one restricts all.
  if (before)
    before.forEach((value, i) => {
      const j = newIndex.get(value);
      if (after && j === undefined) {
        sink.add(codes.removed, `Enum value "${value}" of ${label} was removed.`, [...oldPath, 'enum', i], undefined);
        return;
      }
      if (j === undefined || sink.quiet) return;
      if (at(o, 'enumDeprecated', i) !== true && at(n, 'enumDeprecated', j) === true)
        sink.add(
          'enum-value-deprecated',
          `Enum value "${value}" of ${label} is now deprecated.`,
          [...oldPath, 'enum', i],
          [...newPath, 'enumDeprecated', j],
        );
      const od = at(o, 'enumDescriptions', i);
      const nd = at(n, 'enumDescriptions', j);
      if (od !== nd && (typeof od === 'string' || typeof nd === 'string'))
        sink.add(
          'description-changed',
          `Description of enum value "${value}" of ${label} changed.`,
          [...oldPath, 'enumDescriptions', i],
          [...newPath, 'enumDescriptions', j],
        );
    });
  if (!before && after) {
    sink.add(codes.removed, `${label} now only accepts the values ${after.join(', ')}.`, oldPath, [...newPath, 'enum']);
    return;
  }
  if (after)
    after.forEach((value, j) => {
      if (!oldIndex.has(value))
        sink.add(codes.added, `Enum value "${value}" of ${label} was added.`, undefined, [...newPath, 'enum', j]);
    });
}
