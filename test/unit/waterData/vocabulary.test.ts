import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import data from '../../../src/waterData/core/vocabulary.json';
import { completeQuery } from '../../../src/waterData/core/completion';
import { sharedData } from '../../support/sharedData';
import { commonValues, GUIDELINES } from '../../../scripts/vocabulary-common.mjs';

const shipped = data as { values: Record<string, string[]>; common: Record<string, string[]> };

describe('waterData vocabulary shipped with the extension', () => {
  it('holds exactly as many primary values per field as the shared counts.csv', () => {
    const csv = readFileSync(sharedData('datastream', 'schema', 'counts.csv'), 'utf8')
      .trim()
      .split('\n')
      .slice(1);
    const counts = new Map(csv.map((l) => l.split(',')).map(([f, primary]) => [f, Number(primary)]));
    for (const [field, list] of Object.entries(shipped.values)) assert.equal(list.length, counts.get(field), field);
  });

  it('ranks common values as scripts/vocabulary-common.mjs derives them from the shared schema', () => {
    const file = sharedData(...GUIDELINES.split('/'));
    assert.deepEqual(shipped.common, commonValues(file, shipped.values));
    for (const name of ['pH', 'Temperature, water', 'Dissolved oxygen (DO)'])
      assert.ok(shipped.common.CharacteristicName.includes(name), name);
  });
});

describe('waterData completion ranks common vocabulary first', () => {
  const values = (text: string) => {
    const offset = text.indexOf('|');
    return completeQuery(text.replace('|', ''), offset).map((i) => i.label);
  };

  it('pH and water temperature lead the CharacteristicName values, before obscure names', () => {
    const labels = values("/Observations?$filter=CharacteristicName eq '|");
    assert.equal(labels.length, shipped.values.CharacteristicName.length);
    assert.deepEqual(labels.slice(0, 2), ['pH', 'Temperature, water']);
    const obscure = labels.indexOf('.alpha.-Amino-2,3-dihydro-5-methyl-3-oxo-4-isoxazolepropanoic acid');
    assert.ok(labels.indexOf('Dissolved oxygen (DO)') < obscure);
    assert.equal(new Set(labels).size, labels.length, 'each value once');
  });

  it('other closed lists keep their own order', () => {
    const labels = values("/Locations?$filter=MonitoringLocationType eq '|");
    assert.deepEqual(labels, shipped.values.MonitoringLocationType);
  });
});
