// Controlled vocabularies of the DataStream schema (strict "primary" lists), for completion and for
// warning about values the service will never match.
import data from './vocabulary.json';
import { WATER_REGION_IDS } from '../../shared/wire/waterData';
import { ownValue } from '../../shared/wire/ownKeys';

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
  return ownValue(values, field);
}

/** The field's vocabulary for completion: common values first in their rank order, then the rest in list order. */
export function rankedVocabulary(field: string): readonly string[] | undefined {
  const list = vocabulary(field);
  const first = ownValue(common, field);
  if (!list || !first?.length) return list;
  const ranked = new Set(first);
  return [...first, ...list.filter((v) => !ranked.has(v))];
}

/** Whether `value` is in the field's list (a set per field: a long filter checks thousands of values). */
export function inVocabulary(field: string, value: string): boolean {
  return indexOf(field)?.exact.has(value) ?? false;
}

/** A close vocabulary entry for a mistyped value: same text ignoring case and punctuation, or a prefix. */
export function closestValue(field: string, value: string): string | undefined {
  const list = vocabulary(field);
  const index = indexOf(field);
  if (!list || !index) return undefined;
  const n = normalise(value);
  if (!n) return undefined;
  const same = index.normalised.get(n);
  if (same !== undefined) return list[same];
  // One native search of all normalised entries (NUL-separated, in list order) finds the first entry that
  // starts with, then contains, the value, instead of a callback per entry for every value checked.
  const at = (pos: number) => (pos < 0 ? undefined : list[entryAt(index.starts, pos)]);
  return at(index.joined.indexOf(`\0${n}`) + 1 || -1) ?? at(index.joined.indexOf(n));
}

interface VocabularyIndex {
  exact: Set<string>;
  /** Normalised entry → its first position in the list. */
  normalised: Map<string, number>;
  /** `\0a\0b\0…`: every normalised entry behind a NUL. */
  joined: string;
  /** starts[i] is where entry i begins in `joined`. */
  starts: number[];
}

const normalise = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]+/g, '');
const INDEXES = new Map<string, VocabularyIndex>();

function indexOf(field: string): VocabularyIndex | undefined {
  let index = INDEXES.get(field);
  if (index) return index;
  const list = vocabulary(field);
  if (!list) return undefined;
  const normalised = new Map<string, number>();
  const starts: number[] = [];
  let joined = '';
  list.forEach((v, i) => {
    const n = normalise(v);
    if (!normalised.has(n)) normalised.set(n, i);
    joined += '\0';
    starts.push(joined.length);
    joined += n;
  });
  INDEXES.set(field, (index = { exact: new Set(list), normalised, joined, starts }));
  return index;
}

/** The entry whose text holds position `pos` of `joined` (binary search over the sorted starts). */
function entryAt(starts: number[], pos: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
