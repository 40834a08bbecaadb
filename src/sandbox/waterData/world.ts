// The emulator's deterministic universe. Datasets and locations are small and kept as compact
// descriptors; observations are never stored: row k of a location is computed from (seed, location, k),
// so the volume setting can reach millions of rows without memory growth.
import {
  CHARACTERISTICS,
  GROUND_LOCATION_TYPES,
  LICENCES,
  ORGANIZATIONS,
  PLACE_WORDS,
  PROVINCES,
  SURFACE_LOCATION_TYPES,
  WATER_BODIES,
  type Characteristic,
} from './vocabulary';
import { HUB_BASINS, placePoint } from './geography';

export interface WorldOptions {
  seed: number;
  datasets: number;
  /** Approximate total number of observations (and records). */
  observations: number;
}

export interface Dataset {
  index: number;
  id: string;
  doi: string;
  name: string;
  province: string;
  organization: string;
  uploader: string;
  version: string;
  licence: string;
  disclaimer: string;
  createTimestamp: string;
  publishedTimestamp: string;
  /** Filled once locations exist. */
  firstDay: number;
  lastDay: number;
  locations: Location[];
}

export interface Location {
  index: number;
  id: number;
  dataset: Dataset;
  monitoringLocationId: string;
  name: string;
  latitude: number;
  longitude: number;
  crs: string;
  accuracy: number | null;
  verticalMeasure: number | null;
  type: string;
  ground: boolean;
  province: string;
  regions: string[];
  characteristics: Characteristic[];
  startDay: number;
  spanDays: number;
  samples: number;
  /** Observation count = samples × characteristics.length. */
  count: number;
  /** Sum of the counts of all earlier locations: observation ids are contiguous per location. */
  offset: number;
  years: number[];
}

export const LOCATION_ID_BASE = 3_270_000;
export const OBSERVATION_ID_BASE = 100_000_000;
const DAY_MS = 86_400_000;
const LAST_DAY = Math.floor(Date.UTC(2025, 11, 31) / DAY_MS);

// Identifiers the official clients' tests use, so documented examples find data in the sandbox.
const KNOWN_DATASETS = [
  { doi: '10.25976/7cny-7h34', id: '0456bedd-cd0c-44ce-8f8d-da0afbb6694b' },
  { doi: '10.25976/1q5q-zy55' },
];

export class World {
  readonly datasets: Dataset[] = [];
  /** Datasets in `Id` order, the order of /Metadata pages. */
  readonly datasetsById: Dataset[];
  readonly locations: Location[] = [];
  readonly totalObservations: number;

  constructor(readonly options: WorldOptions) {
    const provinceKeys = Object.keys(PROVINCES);
    const used = new Set<string>();
    for (let d = 0; d < options.datasets; d++) {
      const province = provinceKeys[d % provinceKeys.length];
      const known = KNOWN_DATASETS[d];
      let doi = known?.doi ?? '';
      for (let attempt = 0; !doi || used.has(doi); attempt++) doi = this.makeDoi(d, attempt);
      used.add(doi);
      const place = this.pick(PLACE_WORDS, 1, d);
      const body = this.pick(WATER_BODIES, 2, d);
      const org = `${this.pick(PLACE_WORDS, 3, d)} ${this.pick(ORGANIZATIONS, 4, d)}`;
      const lic = LICENCES[d % LICENCES.length];
      const created = Date.UTC(2016, 0, 1) + Math.floor(this.rand(5, d) * 8 * 365) * DAY_MS;
      this.datasets.push({
        index: d,
        id: known && 'id' in known && known.id ? known.id : this.makeUuid(d),
        doi,
        name: `${place} ${body} Water Quality Monitoring (${PROVINCES[province].name})`,
        province,
        organization: org,
        uploader: this.rand(6, d) < 0.5 ? org : 'DataStream Initiative',
        version: `${1 + Math.floor(this.rand(7, d) * 3)}.${Math.floor(this.rand(8, d) * 4)}.0`,
        licence: lic.licence,
        disclaimer: lic.disclaimer,
        createTimestamp: new Date(created).toISOString(),
        publishedTimestamp: new Date(created + (1 + Math.floor(this.rand(9, d) * 30)) * DAY_MS).toISOString(),
        firstDay: Number.POSITIVE_INFINITY,
        lastDay: 0,
        locations: [],
      });
    }
    this.datasetsById = [...this.datasets].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

    // Locations scale with volume so each stays far below the 1M partition threshold.
    const locationCount = Math.max(options.datasets * 4, Math.min(20_000, Math.round(options.observations / 250)));
    const perLocation = options.observations / locationCount;
    let offset = 0;
    for (let i = 0; i < locationCount; i++) {
      const dataset = this.datasets[Math.floor(this.rand(10, i) * this.datasets.length)];
      const loc = this.makeLocation(i, dataset, perLocation, offset);
      offset += loc.count;
      this.locations.push(loc);
      dataset.locations.push(loc);
      dataset.firstDay = Math.min(dataset.firstDay, loc.startDay);
      dataset.lastDay = Math.max(dataset.lastDay, loc.startDay + loc.spanDays);
    }
    for (const d of this.datasets) {
      if (!Number.isFinite(d.firstDay)) {
        d.firstDay = LAST_DAY;
        d.lastDay = LAST_DAY;
      }
    }
    this.totalObservations = offset;
  }

  /** Deterministic uniform [0,1) from the seed and up to four integers (fixed arity: this runs per field). */
  rand(a: number, b = 0, c = 0, d = 0): number {
    let h = (this.options.seed ^ 0x9e3779b9) >>> 0;
    h = mix(h, a);
    h = mix(h, b);
    h = mix(h, c);
    h = mix(h, d);
    return (h >>> 0) / 4294967296;
  }

  private pick<T>(list: readonly T[], a: number, b = 0): T {
    return list[Math.floor(this.rand(a, b) * list.length)];
  }

  private makeDoi(d: number, attempt: number): string {
    const alnum = 'abcdefghijklmnopqrstuvwxyz0123456789';
    const c = (k: number) => alnum[Math.floor(this.rand(11, d, attempt, k) * alnum.length)];
    const digit = (k: number) => String(Math.floor(this.rand(12, d, attempt, k) * 10));
    return `10.25976/${c(0)}${c(1)}${c(2)}${c(3)}-${c(4)}${c(5)}${digit(6)}${digit(7)}`;
  }

  private makeUuid(d: number): string {
    const hex = (k: number, n: number) =>
      Array.from({ length: n }, (_, j) => Math.floor(this.rand(13, d, k, j) * 16).toString(16)).join('');
    return `${hex(0, 8)}-${hex(1, 4)}-4${hex(2, 3)}-${'89ab'[Math.floor(this.rand(14, d) * 4)]}${hex(3, 3)}-${hex(4, 12)}`;
  }

  private makeLocation(i: number, dataset: Dataset, perLocation: number, offset: number): Location {
    const prov = PROVINCES[dataset.province];
    const ground = this.rand(20, i) < 0.12;
    const type = ground ? this.pick(GROUND_LOCATION_TYPES, 21, i) : this.pick(SURFACE_LOCATION_TYPES, 21, i);
    const eligible = CHARACTERISTICS.filter((c) => !c.media || c.media === (ground ? 'ground' : 'surface'));
    // Every location measures water temperature; the rest is a deterministic subset.
    const nChars = 2 + Math.floor(this.rand(22, i) * 5);
    const chosen = new Set<Characteristic>([eligible[0]]);
    for (let k = 0; chosen.size < nChars && k < 50; k++)
      chosen.add(eligible[Math.floor(this.rand(23, i, k) * eligible.length)]);
    const characteristics = [...chosen];
    const startDay =
      Math.floor(Date.UTC(2005 + Math.floor(this.rand(24, i) * 14), 0, 1) / DAY_MS) +
      Math.floor(this.rand(25, i) * 300);
    const spanDays = Math.max(30, Math.floor((LAST_DAY - startDay) * (0.3 + 0.7 * this.rand(26, i))));
    const target = perLocation * (0.5 + this.rand(27, i));
    const samples = Math.max(1, Math.round(target / characteristics.length));
    const id = LOCATION_ID_BASE + i * 7 + 1 + Math.floor(this.rand(28, i) * 6);
    const startYear = new Date(startDay * DAY_MS).getUTCFullYear();
    const endYear = new Date((startDay + spanDays) * DAY_MS).getUTCFullYear();
    const years: number[] = [];
    for (let y = startYear; y <= endYear; y++) years.push(y);
    const place = this.pick(PLACE_WORDS, 29, i);
    const body = ground ? type : this.pick(WATER_BODIES, 30, i);
    const regions = ['admin.2.ca', `admin.4.ca.${dataset.province}`];
    if (prov.hub) regions.push(`hub.${prov.hub}`);
    // A hub is a basin: its sites lie inside it, not merely inside the province.
    const point = placePoint(prov, prov.hub ? HUB_BASINS[prov.hub] : undefined, (attempt, axis) =>
      this.rand(axis === 0 ? 31 : 32, i, attempt),
    );
    return {
      index: i,
      id,
      dataset,
      monitoringLocationId: `${dataset.province.toUpperCase()}-${place.slice(0, 3).toUpperCase()}${String(i).padStart(4, '0')}`,
      name: `${place} ${body} at site ${1 + (i % 40)}`,
      latitude: round(point.latitude, 5),
      longitude: round(point.longitude, 5),
      crs: this.rand(33, i) < 0.7 ? 'WGS84' : 'NAD83',
      accuracy: this.rand(34, i) < 0.5 ? null : Math.round(1 + this.rand(35, i) * 30),
      verticalMeasure: ground ? round(150 + this.rand(36, i) * 900, 1) : null,
      type,
      ground,
      province: dataset.province,
      regions,
      characteristics,
      startDay,
      spanDays,
      samples,
      count: samples * characteristics.length,
      offset,
      years,
    };
  }

  locationById(id: number): Location | undefined {
    let lo = 0;
    let hi = this.locations.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const m = this.locations[mid].id;
      if (m === id) return this.locations[mid];
      if (m < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /** First location whose id is greater than `id`. */
  locationIndexAfter(id: number): number {
    let lo = 0;
    let hi = this.locations.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.locations[mid].id <= id) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** (location index, k) of the first observation whose id is greater than `id`. */
  observationAfter(id: number): { loc: number; k: number } {
    const ordinal = id - OBSERVATION_ID_BASE + 1;
    if (ordinal <= 0) return { loc: 0, k: 0 };
    let lo = 0;
    let hi = this.locations.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.locations[mid].offset <= ordinal) lo = mid;
      else hi = mid - 1;
    }
    const loc = this.locations[lo];
    if (!loc) return { loc: 0, k: 0 };
    const k = ordinal - loc.offset;
    return k >= loc.count ? { loc: lo + 1, k: 0 } : { loc: lo, k };
  }

  observationId(loc: Location, k: number): number {
    return OBSERVATION_ID_BASE + loc.offset + k;
  }

  characteristicOf(loc: Location, k: number): Characteristic {
    return loc.characteristics[k % loc.characteristics.length];
  }

  dayOf(loc: Location, k: number): number {
    const s = Math.floor(k / loc.characteristics.length);
    return loc.startDay + Math.floor((s * loc.spanDays) / loc.samples);
  }

  yearOf(loc: Location, k: number): number {
    return Number(isoDay(this.dayOf(loc, k)).slice(0, 4));
  }
}

function mix(h: number, x: number): number {
  h = Math.imul(h ^ (x >>> 0), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

export function round(x: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(x * f) / f;
}

const dayCache = new Map<number, string>();

export function isoDay(day: number): string {
  let s = dayCache.get(day);
  if (s === undefined) {
    s = new Date(day * DAY_MS).toISOString().slice(0, 10);
    if (dayCache.size < 100_000) dayCache.set(day, s);
  }
  return s;
}
