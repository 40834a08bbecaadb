import * as assert from 'node:assert/strict';
import { queryFixes } from '../../../src/waterData/core/queryFixes';
import { analyzeQuery } from '../../../src/waterData/core/validate';

/** Applies the first fix of the diagnostic whose message matches, and returns the new cell text. */
function fixed(text: string, message: RegExp): { title: string; text: string } {
  const d = analyzeQuery(text).diagnostics.find((x) => message.test(x.message));
  assert.ok(
    d,
    `diagnostics: ${analyzeQuery(text)
      .diagnostics.map((x) => x.message)
      .join(' | ')}`,
  );
  const [fix] = queryFixes(text, d);
  assert.ok(fix, `no fix for ${d.message}`);
  return { title: fix.title, text: text.slice(0, fix.start) + fix.newText + text.slice(fix.end) };
}

describe('waterData query fixes', () => {
  it("quotes an unquoted text value ('pH') and the result has no error", () => {
    const r = fixed('/Observations?$filter=CharacteristicName eq pH', /^Quote text values/);
    assert.equal(r.title, "Quote as text: 'pH'");
    assert.equal(r.text, "/Observations?$filter=CharacteristicName eq 'pH'");
    assert.deepEqual(
      analyzeQuery(r.text).diagnostics.filter((d) => d.severity === 'error'),
      [],
    );
  });

  it('quotes a number given for a text field', () => {
    const r = fixed('/Observations?$filter=CharacteristicName eq 5', /^Quote text values/);
    assert.equal(r.text, "/Observations?$filter=CharacteristicName eq '5'");
  });

  it('quotes a bare date', () => {
    const r = fixed('/Observations?$filter=ActivityStartDate gt 2020-03-23', /^Quote dates/);
    assert.equal(r.text, "/Observations?$filter=ActivityStartDate gt '2020-03-23'");
  });

  it('takes the suggested vocabulary value', () => {
    const r = fixed("/Observations?$filter=CharacteristicName eq 'ph'", /did you mean 'pH'/);
    assert.equal(r.text, "/Observations?$filter=CharacteristicName eq 'pH'");
  });

  it('offers nothing for a diagnostic without a described fix, or a span outside the text', () => {
    assert.deepEqual(queryFixes('abc', { start: 0, end: 3, message: 'Metadata Id is a UUID', severity: 'error' }), []);
    assert.deepEqual(queryFixes('ab', { start: 1, end: 9, message: "Quote text values: 'x'", severity: 'error' }), []);
  });
});
