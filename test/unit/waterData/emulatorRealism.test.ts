// Generated data checked against outside facts: units against the DataStream schema's lookups (the
// shared data, read here and never by the emulator), and hub sites against the basin they belong to.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { World } from '../../../src/sandbox/waterData/world';
import { observationRow } from '../../../src/sandbox/waterData/rows';
import { DEFAULT_WATER_EMULATOR_OPTIONS } from '../../../src/sandbox/waterData';

const LOOKUP = resolve(__dirname, '../../../../shared/data/datastream/schema/lookup');
const read = (name: string) => JSON.parse(readFileSync(resolve(LOOKUP, name), 'utf8')) as Record<string, unknown>;

/** A unit column as text: the wire carries a string, or null for "no unit". */
function unitText(value: unknown): string {
  if (value === null) return '';
  assert.equal(typeof value, 'string', `unit ${JSON.stringify(value)}`);
  return value as string;
}

/** Units the schema allows for a characteristic: its own lookups and its WQX group's; undefined when none says. */
function allowedUnits(): (name: string) => Set<string> | undefined {
  const byName = read('CharacteristicName-MeasurementUnit.json') as Record<string, string[]>;
  const byGuideline = read('CharacteristicName-Guideline-MeasurementUnit.json') as Record<string, string[]>;
  const group = read('CharacteristicName-CharacteristicWQXGroup.json') as Record<string, string>;
  const byGroup = read('CharacteristicWQXGroup-MeasurementUnit.json') as Record<string, string[]>;
  return (name) => {
    const units = [
      ...(byName[name] ?? []),
      ...(byGuideline[name] ?? []),
      ...(group[name] ? (byGroup[group[name]] ?? []) : []),
    ];
    return units.length ? new Set(units) : undefined;
  };
}

describe('waterData emulator: realism of generated data', () => {
  const world = new World({
    seed: DEFAULT_WATER_EMULATOR_OPTIONS.seed,
    datasets: DEFAULT_WATER_EMULATOR_OPTIONS.datasets,
    observations: 120_000,
  });

  it("every observation carries a unit its characteristic's lookup (or its group's) allows", () => {
    const allowed = allowedUnits();
    let checked = 0;
    const wrong = new Map<string, number>();
    for (const l of world.locations) {
      for (let k = 0; k < Math.min(l.count, 40); k++) {
        const o = observationRow(world, l, k);
        const units = allowed(String(o.CharacteristicName));
        if (!units) continue;
        checked++;
        // A unitless lookup ("" for pH) is a null unit on the wire.
        const unit = unitText(o.ResultUnit);
        if (!units.has(unit))
          wrong.set(
            `${String(o.CharacteristicName)} in ${unit}`,
            (wrong.get(`${String(o.CharacteristicName)} in ${unit}`) ?? 0) + 1,
          );
        if (o.ResultDetectionQuantitationLimitUnit !== null)
          assert.ok(units.has(unitText(o.ResultDetectionQuantitationLimitUnit)));
      }
    }
    assert.ok(checked > 5000, `${checked} observations checked`);
    assert.deepEqual([...wrong], []);
  });

  it('hub.mackenzie sites lie in the Mackenzie basin: not in southern Alberta, not east of its divides', () => {
    const hubSites = world.locations.filter((l) => l.regions.includes('hub.mackenzie'));
    assert.ok(hubSites.length >= 10, `${hubSites.length} sites`);
    for (const l of hubSites) {
      const { latitude: lat, longitude: lon } = l;
      const where = `${l.monitoringLocationId} at ${lat}, ${lon}`;
      // Facts about the basin, independent of the emulator's outline: it reaches south of 54° N only along
      // the Rockies (Athabasca headwaters near Jasper, 52.2° N); Edmonton (53.5° N) and everything south of
      // it drain to the Saskatchewan River; in the Territories nothing east of 106° W belongs to it (Thelon and
      // Back rivers), and north of 66.5° N it ends west of Great Bear Lake's outflow divide (about 117° W).
      if (l.province === 'ab') assert.ok(lat >= 54 || (lon <= -116 && lat >= 52.2), where);
      if (l.province === 'nt') {
        assert.ok(lon <= -106, where);
        if (lat > 66.6) assert.ok(lon <= -117, where);
      }
      assert.ok(lat >= 52 && lat <= 69.5 && lon >= -141 && lon <= -102, where);
    }
  });

  it("other sites stay inside their province's extent", () => {
    for (const l of world.locations.slice(0, 400)) {
      assert.ok(Number.isFinite(l.latitude) && Number.isFinite(l.longitude));
      assert.ok(
        l.latitude >= 41.5 && l.latitude <= 70.5 && l.longitude >= -141 && l.longitude <= -52,
        `${l.latitude}, ${l.longitude}`,
      );
    }
  });
});
