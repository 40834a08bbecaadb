// Executes one validated query over the World: lazy iteration in Id order (so $skiptoken is a cursor),
// location-level pruning before any observation is generated, exact or sampled counts.
import type { WaterEntitySet } from '../../shared/wire/waterData';
import { evaluate, fieldsOf, type Accessor, type Expr } from './filter';
import { ACTIVITY_BY_METHOD } from './vocabulary';
import type { Dataset, Location, World } from './world';
import { locationRow, metadataRow, observationRow, recordRow } from './rows';

export interface Query {
  set: WaterEntitySet;
  filter?: Expr;
  /** Cursor: rows with an Id after this one. */
  after?: string | number;
}

export class BudgetExceeded extends Error {}

/** Counts generated-row work so "too complicated" queries fail deterministically like the 30 s limit. */
export class Budget {
  scanned = 0;
  private readonly started = Date.now();
  constructor(
    private readonly maxScan: number,
    private readonly maxMs: number,
  ) {}
  tick(n = 1): void {
    this.scanned += n;
    if (this.scanned > this.maxScan) throw new BudgetExceeded('scan budget');
    if ((this.scanned & 0xfff) === 0 && Date.now() - this.started > this.maxMs) throw new BudgetExceeded('time budget');
  }
}

const OBSERVATION_FIELDS = new Set([
  'CharacteristicName',
  'ActivityStartYear',
  'ActivityMediaName',
  'ActivityGroupType',
]);

function datasetValues(d: Dataset, field: string): readonly (string | number | null)[] | undefined {
  switch (field) {
    case 'DOI':
      return [d.doi];
    case 'DatasetName':
      return [d.name];
    case 'CreateTimestamp':
      return [d.createTimestamp];
    default:
      return undefined;
  }
}

/** Location-level accessor; observation-level fields answer with every value the location has. */
export function locationAccessor(l: Location): Accessor {
  return (field) => {
    const ds = datasetValues(l.dataset, field);
    if (ds) return ds;
    switch (field) {
      case 'Id':
      case 'LocationId':
        return [l.id];
      case 'Name':
        return [l.name];
      case 'RegionId':
        return l.regions;
      case 'MonitoringLocationType':
        return [l.type];
      case 'Latitude':
      case 'LatitudeNormalized':
        return [l.latitude];
      case 'Longitude':
      case 'LongitudeNormalized':
        return [l.longitude];
      case 'CharacteristicName':
        return l.characteristics.map((c) => c.name);
      case 'ActivityStartYear':
        return l.years;
      case 'ActivityMediaName':
        return [l.ground ? 'Groundwater' : 'Surface Water'];
      case 'ActivityGroupType':
        return [...new Set(l.characteristics.map((c) => ACTIVITY_BY_METHOD[c.method].group))];
      default:
        return [];
    }
  };
}

function observationAccessor(world: World, l: Location, k: number, base: Accessor): Accessor {
  return (field) => {
    switch (field) {
      case 'CharacteristicName':
        return [world.characteristicOf(l, k).name];
      case 'ActivityStartYear':
        return [world.yearOf(l, k)];
      case 'ActivityGroupType':
        return [ACTIVITY_BY_METHOD[world.characteristicOf(l, k).method].group];
      default:
        return base(field);
    }
  };
}

export interface Hit {
  id: string | number;
  row: () => Record<string, unknown>;
}

export function* execute(world: World, q: Query, budget: Budget): Generator<Hit> {
  const f = q.filter;
  if (q.set === 'Metadata') {
    for (const d of world.datasetsById) {
      if (q.after !== undefined && !(d.id > String(q.after))) continue;
      budget.tick();
      if (f && !datasetMatches(d, f, budget)) continue;
      yield { id: d.id, row: () => metadataRow(world, d) };
    }
    return;
  }
  if (q.set === 'Locations') {
    const start = q.after === undefined ? 0 : world.locationIndexAfter(Number(q.after));
    for (let i = start; i < world.locations.length; i++) {
      const l = world.locations[i];
      budget.tick();
      if (f && !evaluate(f, locationAccessor(l))) continue;
      yield { id: l.id, row: () => locationRow(l) };
    }
    return;
  }
  const records = q.set === 'Records';
  const perObservation = f ? [...fieldsOf(f)].some((x) => OBSERVATION_FIELDS.has(x)) : false;
  const from = q.after === undefined ? { loc: 0, k: 0 } : world.observationAfter(Number(q.after));
  for (let i = from.loc; i < world.locations.length; i++) {
    const l = world.locations[i];
    budget.tick();
    const base = locationAccessor(l);
    if (f && !evaluate(f, base)) continue;
    for (let k = i === from.loc ? from.k : 0; k < l.count; k++) {
      budget.tick();
      if (perObservation && f && !evaluate(f, observationAccessor(world, l, k, base))) continue;
      yield {
        id: world.observationId(l, k),
        row: () => (records ? recordRow(world, l, k) : observationRow(world, l, k)),
      };
    }
  }
}

function datasetMatches(d: Dataset, f: Expr, budget: Budget): boolean {
  const direct = fieldsOf(f);
  if ([...direct].every((x) => x === 'DOI' || x === 'DatasetName' || x === 'CreateTimestamp')) {
    return evaluate(f, (field) => datasetValues(d, field) ?? []);
  }
  // Location-level criteria on a dataset mean "has a location that matches".
  for (const l of d.locations) {
    budget.tick();
    if (evaluate(f, locationAccessor(l))) return true;
  }
  return false;
}

export interface CountResult {
  value: number;
  estimate: boolean;
}

/** Exact where cheap; sampled (and marked as an estimate) where every observation would need generating. */
export function count(world: World, q: Query, budget: Budget, estimateAbove: number): CountResult {
  const f = q.filter;
  if (q.set === 'Metadata' || q.set === 'Locations' || !f) {
    let n = 0;
    if (!f && q.set !== 'Metadata' && q.set !== 'Locations') n = world.totalObservations;
    else for (const _ of execute(world, q, budget)) n++;
    return finish(world, n, false, estimateAbove);
  }
  const perObservation = [...fieldsOf(f)].some((x) => OBSERVATION_FIELDS.has(x));
  let n = 0;
  let sampled = false;
  const SAMPLE = 400;
  for (const l of world.locations) {
    budget.tick();
    const base = locationAccessor(l);
    if (!evaluate(f, base)) continue;
    if (!perObservation) {
      n += l.count;
      continue;
    }
    if (l.count <= SAMPLE * 4) {
      for (let k = 0; k < l.count; k++) {
        budget.tick();
        if (evaluate(f, observationAccessor(world, l, k, base))) n++;
      }
    } else {
      sampled = true;
      let hits = 0;
      for (let s = 0; s < SAMPLE; s++) {
        budget.tick();
        const k = Math.floor(((s + 0.5) * l.count) / SAMPLE);
        if (evaluate(f, observationAccessor(world, l, k, base))) hits++;
      }
      n += Math.round((hits * l.count) / SAMPLE);
    }
  }
  return finish(world, n, sampled, estimateAbove);
}

function finish(world: World, n: number, sampled: boolean, estimateAbove: number): CountResult {
  if (n <= estimateAbove && !sampled) return { value: n, estimate: false };
  // The service's large counts are "~0.0005% accurate": perturb deterministically within that.
  const wobble = (world.rand(99, n) - 0.5) * 2 * 0.000005;
  return { value: Math.max(0, Math.round(n * (1 + wobble))), estimate: true };
}
