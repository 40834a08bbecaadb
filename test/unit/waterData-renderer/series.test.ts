import assert from 'node:assert/strict';
import { activityTime, buildSeries, characteristics } from '../../../src/waterData/renderer/series';
import { describeLicence } from '../../../src/waterData/renderer/attribution';
import { compareValues, parseFilter, sortIndices, toCsv, toTsv } from '../../../src/waterData/renderer/values';
import { boundsOf, fitProjection, graticuleStep, ringsPath } from '../../../src/waterData/renderer/geo';

describe('waterData renderer: pure helpers', () => {
  it('reads activity times with and without time zones', () => {
    assert.equal(
      activityTime({ ActivityStartDate: '2020-01-01', ActivityStartTime: '15:30:00' })!.t,
      Date.UTC(2020, 0, 1, 15, 30) / 1000,
    );
    assert.equal(
      activityTime({ ActivityStartDate: '2021-01-01', ActivityStartTime: '12:00' })!.t,
      Date.UTC(2021, 0, 1, 12) / 1000,
    );
    const z = activityTime({
      ActivityStartDate: '2020-06-01',
      ActivityStartTime: '08:00:00',
      ActivityStartTimeZone: '-05:00',
    })!;
    assert.deepEqual(z, { t: Date.UTC(2020, 5, 1, 13) / 1000, zoned: true });
    assert.equal(activityTime({ ActivityStartDate: null }), undefined);
  });

  it('builds aligned per-location series, averaging samples at the same time and merging the long tail', () => {
    const rows = [];
    for (let loc = 0; loc < 10; loc++) {
      for (let d = 0; d < 3 + (9 - loc); d++) {
        rows.push({
          CharacteristicName: 'pH',
          LocationId: loc,
          ActivityStartDate: `2020-01-0${(d % 9) + 1}`,
          ResultValue: 7 + loc / 10,
          ResultUnit: 'None',
        });
      }
    }
    rows.push({ CharacteristicName: 'pH', LocationId: 0, ActivityStartDate: 'bad', ResultValue: 1 });
    rows.push({ CharacteristicName: 'pH', LocationId: 0, ActivityStartDate: '2020-01-01', ResultValue: 'n/a' });
    const s = buildSeries(rows, 'pH', 4);
    assert.equal(s.labels.length, 4);
    assert.equal(s.labels[0], 'Location 0');
    assert.equal(s.labels[3], 'Other locations (7)');
    assert.equal(s.skipped, 2);
    assert.equal(s.unit, 'None');
    assert.equal(s.x.length, 9);
    for (const y of s.ys) assert.equal(y.length, s.x.length);
    // Location 0 has 12 samples over 9 days: day 1 appears twice (d=0 and d=9) with the same value.
    assert.equal(s.ys[0][0], 7);
    assert.deepEqual(characteristics(rows), [{ name: 'pH', count: rows.length }]);
  });

  it('maps licence ids and URLs to names', () => {
    assert.equal(describeLicence('odc-by')!.url, 'https://opendatacommons.org/licenses/by/1-0/');
    assert.equal(
      describeLicence('https://opendatacommons.org/licenses/pddl/1-0/')!.name,
      'Open Data Commons Public Domain Dedication and License (ODC-PDDL) v1.0',
    );
    assert.deepEqual(describeLicence('OGL'), {
      name: 'Open Government Licence – Canada',
      url: undefined,
      needsDisclaimer: true,
    });
    assert.equal(describeLicence(''), undefined);
  });

  it('compares, filters and serialises values', () => {
    assert.ok(compareValues(9, 10) < 0);
    assert.ok(compareValues('9', '10') < 0, 'numeric strings sort as numbers');
    assert.ok(compareValues('b', 'A') > 0);
    const rows = [{ v: 3 }, { v: null }, { v: 1 }, { v: 2 }];
    assert.deepEqual(sortIndices(rows, [0, 1, 2, 3], 'v', 'desc'), [0, 3, 2, 1]);
    assert.equal(parseFilter('  '), undefined);
    assert.equal(parseFilter('>=2')!(2), true);
    assert.equal(parseFilter('>=2')!(null), false);
    assert.equal(parseFilter('<2020-06-01')!('2020-05-31'), true);
    assert.equal(parseFilter('!=ph')!('pH'), false);
    assert.equal(parseFilter('""')!(null), true);
    assert.equal(parseFilter('WATER')!('Temperature, water'), true);
    assert.equal(toTsv(['a', 'b'], [{ a: 'x\ty', b: ['k1', 'k2'] }], false), '"x\ty"\tk1; k2');
    assert.equal(toCsv(['a'], [{ a: ' lead' }, { a: 'q"q' }]), 'a\r\n" lead"\r\n"q""q"\r\n');
  });

  it('fits a projection around the points and draws rings across the antimeridian without streaks', () => {
    const b = boundsOf([{ index: 0, lat: 50, lon: -100, name: '', id: '' }]);
    assert.ok(b.east - b.west >= 10 && b.north - b.south >= 6);
    const p = fitProjection({ west: -141, south: 41.7, east: -52.6, north: 83.1 }, 800, 480);
    assert.ok(Math.abs(p.x(-96.8) - 400) < 1 && p.y(83.1) >= -1 && p.y(41.7) <= 481);
    const ring = [
      [179, 60],
      [-179, 60],
      [-179, 62],
      [179, 62],
      [179, 60],
    ];
    const d = ringsPath([ring], fitProjection({ west: -185, south: 55, east: -170, north: 65 }, 800, 480));
    const xs = d
      .slice(1, -1)
      .split('L')
      .map((pt) => Number(pt.split(',')[0]));
    assert.ok(Math.max(...xs) - Math.min(...xs) < 400, `ring spans ${Math.max(...xs) - Math.min(...xs)} px`);
    assert.equal(graticuleStep(40), 5);
    assert.equal(graticuleStep(6), 1);
  });
});
