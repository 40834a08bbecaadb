import * as assert from 'node:assert/strict';
import { hoverQuery } from '../../../src/waterData/core/hover';

/** The hover at the `|` of the text, and the text it is about. */
function at(textWithCursor: string): { markdown: string; about: string } | undefined {
  const offset = textWithCursor.indexOf('|');
  const text = textWithCursor.replace('|', '');
  const found = hoverQuery(text, offset);
  return found && { markdown: found.markdown, about: text.slice(found.start, found.end) };
}

describe('waterData hover', () => {
  it('explains the entity set on the request line, after GET and a base URL too', () => {
    assert.deepEqual(at('/Obs|ervations?$top=5')?.about, 'Observations');
    assert.match(at('/Obs|ervations?$top=5')!.markdown, /\*\*\/Observations\*\*: Observations meeting the query/);
    const url = at('GET https://api.datastream.org/v1/odata/v4/Rec|ords');
    assert.equal(url?.about, 'Records');
    assert.match(url.markdown, /CSV/);
    assert.equal(at('/Nope|s?$top=5'), undefined);
  });

  it('explains operators, and/or, endswith and values of the vocabularies', () => {
    const filter =
      "/Observations\n$filter = CharacteristicName e|q 'pH'\n    an|d ActivityMediaName in ('Surface Water', 'Mud|')";
    const marks = [...filter.matchAll(/\|/g)].map((m) => m.index);
    const clean = filter.replace(/\|/g, '');
    const hovers = marks.map((m, i) => hoverQuery(clean, m - i)!);
    assert.match(hovers[0].markdown, /\*\*eq\*\*: equals/);
    assert.match(hovers[1].markdown, /\*\*and\*\*: both conditions/);
    assert.match(hovers[2].markdown, /'Mud'\*\* is not in the DataStream vocabulary of ActivityMediaName/);
    assert.equal(clean.slice(hovers[2].start, hovers[2].end), "'Mud'");
    assert.match(
      at("/Observations?$filter=CharacteristicName eq 'p|H'")!.markdown,
      /in the DataStream vocabulary of CharacteristicName/,
    );
    assert.match(at("/Metadata?$filter=endsw|ith(DOI, 'x')")!.markdown, /ends with/);
    assert.match(at("/Locations?$filter=Latitude g|e '40'")!.markdown, /sent as `gte`/);
  });

  it('says when a field is not one of the entity set', () => {
    assert.match(at("/Records?$filter=Lat|itude gt '40'")!.markdown, /not a filter field of Records/);
    assert.match(at('/Locations\n$select = Id,\n    Colo|ur')!.markdown, /\*\*Colour\*\* is not a field of Locations/);
  });

  it('has nothing to say on comments, unknown options and encoded values', () => {
    assert.equal(at('/Locations\n# $to|p = 5'), undefined);
    assert.equal(at('/Locations\n$expa|nd = x'), undefined);
    assert.equal(at('/Locations?$filter=Regi|onId%20eq%20%27x%27'), undefined);
  });
});
