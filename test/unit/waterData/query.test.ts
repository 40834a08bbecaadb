import * as assert from 'node:assert/strict';
import { analyzeQuery, hasErrors } from '../../../src/waterData/core/validate';
import { buildUrl, toRequest } from '../../../src/waterData/core/url';

const BASE = 'https://api.datastream.org/v1/odata/v4';

function errorsOf(text: string) {
  return analyzeQuery(text).diagnostics.filter((d) => d.severity === 'error');
}

function urlOf(text: string): string {
  const q = analyzeQuery(text);
  assert.deepEqual(
    q.diagnostics.filter((d) => d.severity === 'error'),
    [],
  );
  return buildUrl(BASE, toRequest(q));
}

describe('waterData query cells: parsing both forms', () => {
  it('reads the single-line form as pasted from the docs', () => {
    const q = analyzeQuery('/Locations?$top=5');
    assert.equal(q.entitySet, 'Locations');
    assert.equal(q.top, 5);
    assert.equal(q.form, 'single-line');
    assert.equal(q.diagnostics.length, 0);
  });

  it('decodes an encoded single line and keeps positions in the source', () => {
    const text = '/Observations?%24filter=CharacteristicName%20eq%20%27Dissolved%20oxygen%20saturation%27&%24top=10';
    const q = analyzeQuery(text);
    assert.equal(q.entitySet, 'Observations');
    assert.equal(q.top, 10);
    const ast = q.filter!.ast!;
    assert.equal(ast.kind, 'compare');
    assert.equal(
      ast.kind === 'compare' && ast.value.kind === 'string' && ast.value.value,
      'Dissolved oxygen saturation',
    );
    const bad = analyzeQuery('/Observations?%24filter=Colour%20eq%20%27x%27');
    const e = bad.diagnostics.find((d) => /Colour/.test(d.message))!;
    assert.equal(text.slice(0, 0) + '/Observations?%24filter=Colour%20eq%20%27x%27'.slice(e.start, e.end), 'Colour');
  });

  it('accepts a full URL from the docs and a GET prefix', () => {
    const q = analyzeQuery(
      "GET https://api.datastream.org/v1/odata/v4/Metadata?$select=DOI,DatasetName,Licence,Citation,Version&$filter=RegionId in ('hub.mackenzie', 'hub.lakewinnipeg')",
    );
    assert.equal(q.entitySet, 'Metadata');
    assert.deepEqual(
      q.select!.map((s) => s.name),
      ['DOI', 'DatasetName', 'Licence', 'Citation', 'Version'],
    );
    assert.equal(hasErrors(q), false);
  });

  it('reads the multi-line form with wrapped filters, comments and bare option names', () => {
    const text = [
      '# pH in Alberta',
      '/Observations',
      "$filter = CharacteristicName eq 'pH'",
      "    and RegionId eq 'admin.4.ca.ab'",
      '$select = Id, LocationId,',
      '    ResultValue',
      'top = 50',
    ].join('\n');
    const q = analyzeQuery(text);
    assert.equal(q.form, 'multi-line');
    assert.deepEqual(q.diagnostics, []);
    assert.equal(q.top, 50);
    assert.deepEqual(
      q.select!.map((s) => s.name),
      ['Id', 'LocationId', 'ResultValue'],
    );
    assert.equal(toRequest(q).filter, "CharacteristicName eq 'pH' and RegionId eq 'admin.4.ca.ab'");
    const sel = q.select![2];
    assert.equal(text.slice(sel.start, sel.end), 'ResultValue');
  });

  it('builds URLs with every name and value encoded (no raw $, quotes or spaces)', () => {
    const url = urlOf(
      "/Observations?$filter=CharacteristicName in ('Temperature, water', 'pH')&$select=Id,DOI&$top=100",
    );
    assert.equal(
      url,
      `${BASE}/Observations?%24select=Id%2CDOI&%24filter=CharacteristicName%20in%20%28%27Temperature%2C%20water%27%2C%20%27pH%27%29&%24top=100`,
    );
    assert.doesNotMatch(url.slice(url.indexOf('?')), /[$' ()]/);
  });

  it('escapes hostile quotes in values', () => {
    const q = analyzeQuery("/Locations?$filter=Name eq 'O''Brien Creek'' or 1 eq 1'");
    assert.equal(hasErrors(q), false);
    const req = toRequest(q);
    assert.equal(req.filter, "Name eq 'O''Brien Creek'' or 1 eq 1'");
    assert.equal(q.filter!.ast!.kind, 'compare', 'the injected "or" stays inside the string');
  });

  it('canonicalises ge/le to gte/lte and accepts unquoted numbers', () => {
    const q = analyzeQuery("/Observations?$filter=ActivityStartYear ge 2019 and LocationId le '3271776'");
    assert.equal(hasErrors(q), false);
    assert.equal(toRequest(q).filter, "ActivityStartYear gte 2019 and LocationId lte '3271776'");
  });

  it('accepts every operator, in lists, endswith, and/or with parentheses', () => {
    const f =
      "(DOI eq '10.25976/7cny-7h34' or DOI ne '10.25976/1q5q-zy55') and RegionId in ('hub.atlantic','admin.4.ca.ns') and Latitude gt '44' and Latitude lt '47.5' and Longitude gte -66 and Longitude lte -60 and endswith(DOI, 'zy55')";
    const q = analyzeQuery(`/Locations?$filter=${f}`);
    assert.deepEqual(q.diagnostics, []);
    assert.equal(
      toRequest(q).filter,
      "(DOI eq '10.25976/7cny-7h34' or DOI ne '10.25976/1q5q-zy55') and RegionId in ('hub.atlantic', 'admin.4.ca.ns') and Latitude gt '44' and Latitude lt '47.5' and Longitude gte -66 and Longitude lte -60 and endswith(DOI, 'zy55')",
    );
  });
});

describe('waterData query cells: errors with positions', () => {
  const at = (text: string, needle: string, re: RegExp) => {
    const e = errorsOf(text).find((d) => re.test(d.message));
    assert.ok(e, `an error matching ${re} in ${JSON.stringify(errorsOf(text))}`);
    assert.equal(e.start, text.indexOf(needle), `starts at "${needle}"`);
    return e;
  };

  it('unknown entity set, with a suggestion', () => {
    const e = at('/location?$top=5', 'location', /Unknown entity set "location": did you mean Locations/);
    assert.equal(e.end, 9);
  });

  it('$top above 10000, not a number, zero', () => {
    at('/Locations?$top=10001', '10001', /at most 10000/);
    at('/Locations?$top=ten', 'ten', /whole number/);
    at('/Locations?$top=0', '0', /at least 1/);
  });

  it('$count must be boolean and $skiptoken has the form Id:<id>', () => {
    at('/Locations?$count=yes', 'yes', /true or false/);
    at('/Locations?$skiptoken=1234', '1234', /Id:<id>/);
    at('/Metadata?$skiptoken=Id:12', 'Id:12', /UUID/);
    assert.equal(hasErrors(analyzeQuery('/Metadata?$skiptoken=Id:000000ab-000a-00a0-0aba-0ab00abc0a0a')), false);
  });

  it('removed and unknown options', () => {
    at('/Locations?$orderby=Name', '$orderby', /removed/);
    at('/Locations?$skip=10', '$skip', /removed/);
    at('/Locations?$expand=x', '$expand', /not supported/);
    at('/Locations?$top=1&$top=2', '$top=2', /twice/);
  });

  it('never accepts an API key in the query', () => {
    at('/Locations?apikey=secret', 'apikey', /Never put the API key/);
  });

  it('$select fields must belong to the set', () => {
    at('/Locations?$select=Id,CharacteristicName', 'CharacteristicName', /Locations has no field "CharacteristicName"/);
    at('/Locations?$select=Id,,Name', ',,', /Empty field/);
  });

  it('$filter fields must be filterable for the set', () => {
    at("/Records?$filter=Latitude gt '49'", 'Latitude', /Records cannot be filtered by "Latitude"/);
    at("/Metadata?$filter=Name eq 'x'", 'Name', /Metadata cannot be filtered by "Name".*\(Name filters Locations\)/);
  });

  it('syntax errors point at the offending token', () => {
    at("/Locations?$filter=RegionId eq 'hub.atlantic", "'hub.atlantic", /Unterminated string/);
    at("/Locations?$filter=RegionId equals 'x'", 'equals', /Unknown operator/);
    at('/Locations?$filter=RegionId eq hub', 'hub', /Quote text values/);
    at("/Locations?$filter=RegionId eq 'a' )", ')', /Unbalanced/);
    at("/Locations?$filter=contains(Name, 'x')", 'contains', /not offered/);
    at('/Locations?$filter=CreateTimestamp gt 2020-03-23', '2020-03-23', /Quote dates/);
    at('/Locations?$filter=RegionId eq "x"', '"x"', /single quotes/);
    for (const [text, re] of [
      ["/Locations?$filter=(RegionId eq 'hub.atlantic'", /Expected "\)" to close the "\(" at column 1/],
      ["/Locations?$filter=RegionId eq 'x' and", /Expected a field name, found the end/],
    ] as const) {
      const e = errorsOf(text).find((d) => re.test(d.message));
      assert.ok(e, `${re} in ${JSON.stringify(errorsOf(text))}`);
      assert.equal(e.start, text.length, 'at the end of the filter');
    }
  });

  it('value checks per field', () => {
    at("/Observations?$filter=ActivityStartYear gt '19'", "'19'", /four-digit year/);
    at("/Locations?$filter=Latitude gt '95'", "'95'", /between -90 and 90/);
    at("/Observations?$filter=LocationId eq 'abc'", "'abc'", /whole number/);
    at("/Metadata?$filter=CreateTimestamp gt '2020/03/23'", "'2020/03/23'", /yyyy-mm-dd/);
    at(
      "/Locations?$filter=RegionId eq 'ds.hub.atlantic'",
      "'ds.hub.atlantic'",
      /old RegionId spelling; use 'hub.atlantic'/,
    );
  });

  it('vocabulary and RegionId problems are warnings with suggestions', () => {
    const q = analyzeQuery(
      "/Observations?$filter=CharacteristicName eq 'temperature, WATER' and RegionId eq 'hub.arctic'",
    );
    assert.equal(hasErrors(q), false);
    const msgs = q.diagnostics.map((d) => d.message);
    assert.ok(
      msgs.some((m) => /did you mean 'Temperature, water'/.test(m)),
      msgs.join('\n'),
    );
    assert.ok(msgs.some((m) => /Unknown RegionId "hub.arctic"/.test(m)));
  });

  it('a long filter of mistyped values: every one is reported, the first hundred with a suggestion', () => {
    // Each suggestion searches the whole vocabulary: in a pasted filter of thousands of values they were
    // half of the work (the scaling bench's 1 MB cell), for suggestions past the first screen nobody reads.
    const values = Array.from({ length: 150 }, (_, i) => `'temperature, WATER ${i % 2 ? '' : ' '}'`).join(', ');
    const q = analyzeQuery(`/Observations?$filter=CharacteristicName in (${values})`);
    const unknown = q.diagnostics.filter((d) => /is not a CharacteristicName/.test(d.message));
    assert.equal(unknown.length, 150);
    assert.equal(unknown.filter((d) => /did you mean 'Temperature, water'/.test(d.message)).length, 100);
    assert.ok(unknown.slice(0, 100).every((d) => /did you mean/.test(d.message)));
  });

  it('multi-line errors point into the right line', () => {
    const text = "/Observations\n$filter = CharacteristicName eq 'pH'\n    and Regionid eq 'hub.atlantic'";
    at(text, 'Regionid', /did you mean RegionId/);
    at('/Locations\nhello', 'hello', /Expected a query option/);
  });
});
