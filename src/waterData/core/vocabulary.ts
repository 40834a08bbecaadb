// Controlled vocabularies of the DataStream schema (strict "primary" lists), for completion and for
// warning about values the service will never match.
import data from './vocabulary.json';
import { WATER_REGION_IDS } from '../../shared/wire/waterData';

const values = (data as { values: Record<string, string[]> }).values;
/** Per field, the values people look for most, best first (scripts/vocabulary-common.mjs). */
const common = (data as { common?: Record<string, string[]> }).common ?? {};

/** Filter fields whose values come from a closed list. */
export const VOCABULARY_FIELDS = [
  'CharacteristicName',
  'MonitoringLocationType',
  'ActivityMediaName',
  'ActivityGroupType',
] as const;

export function vocabulary(field: string): readonly string[] | undefined {
  if (field === 'RegionId') return WATER_REGION_IDS;
  return values[field];
}

/** The field's vocabulary for completion: common values first in their rank order, then the rest in list order. */
export function rankedVocabulary(field: string): readonly string[] | undefined {
  const list = vocabulary(field);
  const first = common[field];
  if (!list || !first?.length) return list;
  const ranked = new Set(first);
  return [...first, ...list.filter((v) => !ranked.has(v))];
}

/** A close vocabulary entry for a mistyped value: same text ignoring case and punctuation, or a prefix. */
export function closestValue(field: string, value: string): string | undefined {
  const list = vocabulary(field);
  if (!list) return undefined;
  const n = normalise(value);
  if (!n) return undefined;
  // The normalised vocabulary is built once per field, not once per value checked (a long filter checks many).
  let normed = NORMALISED.get(field);
  if (!normed) NORMALISED.set(field, (normed = list.map(normalise)));
  const at = (i: number) => (i < 0 ? undefined : list[i]);
  return (
    at(normed.indexOf(n)) ?? at(normed.findIndex((v) => v.startsWith(n))) ?? at(normed.findIndex((v) => v.includes(n)))
  );
}

const normalise = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]+/g, '');
const NORMALISED = new Map<string, string[]>();
