// Names from a query cell or a request used as keys: `constructor`, `toString`, `__proto__` are names like any
// other, in the editor's checks and hover and in the emulator's answers.
import * as assert from 'node:assert/strict';
import { analyzeQuery } from '../../../src/waterData/core/validate';
import { hoverQuery } from '../../../src/waterData/core/hover';
import { parseFilter, FilterSyntaxError } from '../../../src/waterData/core/filter';
import { rankedVocabulary, vocabulary } from '../../../src/waterData/core/vocabulary';
import { summarizeResult } from '../../../src/waterData/core/summary';
import { startWaterEmulator, type TestServer } from './emulatorServer';

const HOSTILE = ['constructor', 'toString', '__proto__', 'hasOwnProperty'];
const messages = (cell: string) => analyzeQuery(cell).diagnostics.map((d) => d.message);

describe('water data: hostile names as keys', () => {
  it('a query option named constructor or toString is an unknown option, as any other name', () => {
    for (const k of HOSTILE)
      assert.deepEqual(
        messages(`/Observations?${k}=1`),
        messages('/Observations?zzz=1').map((m) => m.replaceAll('zzz', k)),
        k,
      );
  });

  it('a function named constructor in $filter is an unknown function', () => {
    for (const k of HOSTILE)
      assert.throws(
        () => parseFilter(`${k}(LocationId, 'x')`),
        (e: unknown) => e instanceof FilterSyntaxError && e.message.includes(`Unknown function ${k}()`),
        k,
      );
  });

  it('hover on an option, operator or field named constructor says nothing or the field is unknown', () => {
    for (const k of HOSTILE) {
      assert.equal(hoverQuery(`/Observations?${k}=1`, 15), undefined, k);
      assert.equal(hoverQuery(`/Observations?${k}=abc`, 14 + k.length + 2), undefined, k);
      const op = hoverQuery(`/Observations?$filter=LocationId ${k} 1`, 34);
      assert.equal(op, undefined, k);
      const field = hoverQuery(`/Observations?$filter=${k} eq 1`, 23);
      assert.ok(field === undefined || typeof field.markdown === 'string', k);
      if (field) assert.doesNotMatch(field.markdown, /function|native code|\[object/, k);
    }
  });

  it('a field named constructor has no vocabulary', () => {
    for (const k of HOSTILE) {
      assert.equal(vocabulary(k), undefined, k);
      assert.equal(rankedVocabulary(k), undefined, k);
    }
  });

  it('the text summary shows an empty cell for a row without a column named constructor or __proto__', () => {
    const columns = ['Id', 'constructor', '__proto__'];
    const full = JSON.parse('{"Id": 1, "constructor": "c", "__proto__": "p"}') as Record<string, unknown>;
    const text = summarizeResult({
      entitySet: 'Observations',
      requestUrl: 'https://x.example/Observations',
      columns,
      rows: [full, { Id: 2 }],
      pages: 1,
      attributions: [],
    });
    const lines = text.split('\n');
    const last = lines.findIndex((l) => /^2\b/.test(l.trim()));
    assert.ok(last > 0, text);
    assert.equal(lines[last].trim(), '2', text);
    assert.doesNotMatch(text, /function|\[object|\{\}/);
  });

  describe('emulator', () => {
    let s: TestServer;
    before(async () => {
      s = await startWaterEmulator({ minIntervalMs: 0 });
    });
    after(() => s.close());

    it('a query parameter named constructor or toString is ignored like any unknown plain parameter', async () => {
      const get = async (q: string) => {
        const r = await fetch(`${s.baseUrl}/Locations?${q}`, { headers: { 'x-api-key': s.apiKey } });
        return { status: r.status, body: (await r.json()) as unknown };
      };
      const plain = await get('zzz=1');
      assert.equal(plain.status, 200);
      for (const k of HOSTILE) assert.deepEqual(await get(`${k}=1`), plain, k);
    });
  });
});
