// Controlled vocabularies of the DataStream schema (strict "primary" lists), for completion and for
// warning about values the service will never match.
import data from './vocabulary.json';
import { WATER_REGION_IDS } from '../../shared/wire/waterData';

const values = (data as { values: Record<string, string[]> }).values;

/** Filter fields whose values come from a closed list. */
export const VOCABULARY_FIELDS = ['CharacteristicName', 'MonitoringLocationType', 'ActivityMediaName', 'ActivityGroupType'] as const;

export function vocabulary(field: string): readonly string[] | undefined {
  if (field === 'RegionId') return WATER_REGION_IDS;
  return values[field];
}

/** A close vocabulary entry for a mistyped value: same text ignoring case and punctuation, or a prefix. */
export function closestValue(field: string, value: string): string | undefined {
  const list = vocabulary(field);
  if (!list) return undefined;
  const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '');
  const n = norm(value);
  if (!n) return undefined;
  return list.find((v) => norm(v) === n) ?? list.find((v) => norm(v).startsWith(n)) ?? list.find((v) => norm(v).includes(n));
}
