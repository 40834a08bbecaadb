import * as assert from 'node:assert/strict';
import { completeQuery } from '../../../src/waterData/core/completion';

function at(textWithCursor: string, dois?: string[]) {
  const offset = textWithCursor.indexOf('|');
  const text = textWithCursor.replace('|', '');
  return { items: completeQuery(text, offset, { dois }), text, offset };
}
const labels = (t: string, dois?: string[]) => at(t, dois).items.map((i) => i.label);

describe('waterData completion', () => {
  it('entity sets on the request line', () => {
    assert.deepEqual(labels('/Lo|'), ['/Metadata', '/Locations', '/Observations', '/Records']);
    const { items } = at('/Lo|');
    assert.equal(items[0].replaceStart, 0);
  });

  it('query options after ? and & and on new lines', () => {
    assert.ok(labels('/Locations?|').includes('$filter'));
    assert.ok(labels('/Locations?$top=5&$f|').includes('$select'));
    assert.ok(labels('/Locations\n|').includes('$count'));
  });

  it('fields of the entity set in $select, minus those already chosen', () => {
    const l = labels('/Locations?$select=Id,Na|');
    assert.ok(l.includes('Name'));
    assert.ok(!l.includes('Id'));
    assert.ok(!l.includes('CharacteristicName'));
  });

  it('filter fields, then operators, then vocabulary values, then and/or', () => {
    assert.ok(labels('/Observations?$filter=|').includes('CharacteristicName'));
    assert.ok(labels('/Observations?$filter=|').includes('endswith'));
    assert.ok(!labels('/Records?$filter=|').includes('Latitude'), 'Records has no Latitude filter');
    assert.deepEqual(labels('/Observations?$filter=CharacteristicName |'), [
      'eq',
      'ne',
      'lt',
      'gt',
      'lte',
      'gte',
      'in',
    ]);
    const values = at("/Observations?$filter=CharacteristicName eq 'Temp|");
    assert.ok(values.items.some((i) => i.insertText === "'Temperature, water'"));
    assert.equal(
      values.text.slice(values.items[0].replaceStart, values.items[0].replaceEnd),
      "'Temp",
      'replaces the partial string',
    );
    assert.deepEqual(labels("/Observations?$filter=CharacteristicName eq 'pH' |"), ['and', 'or']);
    assert.ok(labels("/Observations?$filter=CharacteristicName eq 'pH' and |").includes('RegionId'));
  });

  it('values in in-lists, RegionIds, media names, and DOIs seen before', () => {
    assert.ok(labels("/Locations?$filter=RegionId in ('hub.atlantic', |").includes('admin.4.ca.ns'));
    assert.deepEqual(labels('/Observations?$filter=ActivityMediaName eq |').length, 8);
    assert.deepEqual(labels('/Locations?$filter=DOI eq |', ['10.25976/7cny-7h34']), ['10.25976/7cny-7h34']);
  });

  it('works in the multi-line form on a wrapped filter line', () => {
    const l = labels("/Observations\n$filter = CharacteristicName eq 'pH'\n    and ActivityMediaName eq |");
    assert.ok(l.includes('Surface Water'));
  });

  it('writes an option as the line needs: bare or %24 as typed, only the name before an existing =', () => {
    const bare = at('/Observations\n$top = 5\nse|').items[0];
    assert.deepEqual([bare.insertText, bare.filterText], ['$select = ', 'select']);
    const encoded = at('/Observations?%24top=5&%24se|').items[0];
    assert.deepEqual([encoded.insertText, encoded.filterText], ['%24select=', '%24select']);
    const renamed = at('/Observations\n$se|lect = Id');
    assert.equal(renamed.items[0].insertText, '$select');
    assert.equal(renamed.text.slice(renamed.items[0].replaceStart, renamed.items[0].replaceEnd), '$select');
  });
});
