// Hostile query cells and $filter texts: limits with a clear message, no stack overflow, no throw,
// and the same in the emulator's own parser (a 400 in the service's error shape, never a 5xx).
import * as assert from 'node:assert/strict';
import { analyzeQuery } from '../../../src/waterData/core/validate';
import {
  formatFilter,
  parseFilter,
  walkFilter,
  FilterSyntaxError,
  MAX_FILTER_NESTING,
} from '../../../src/waterData/core/filter';
import { joinMapped, mapped } from '../../../src/waterData/core/mappedText';
import { evaluate, fieldsOf, parseExpr, FilterError } from '../../../src/sandbox/waterData/filter';
import { startWaterEmulator, type TestServer } from './emulatorServer';

const chain = (n: number, joiner = 'and') =>
  Array.from({ length: n }, (_, i) => `LocationId eq ${i}`).join(` ${joiner} `);

describe('water data: hostile queries', () => {
  it('a $select of ~200K characters is read, not a stack overflow', () => {
    const q = analyzeQuery(`/Observations?$select=${'ResultValue,'.repeat(20000)}Id`);
    assert.equal(q.select?.length, 20001);
    assert.ok(q.diagnostics.some((d) => /selected twice/.test(d.message)));
    const joined = joinMapped([mapped('a'.repeat(300000), 0), mapped('b'.repeat(300000), 300001)], ' ');
    assert.equal(joined.text.length, 600001);
    assert.equal(joined.offsets.length, 600002);
  });

  it('nesting deeper than the limit is a diagnostic that says so', () => {
    const deep = `${'('.repeat(100000)}LocationId eq 1${')'.repeat(100000)}`;
    const q = analyzeQuery(`/Locations?$filter=${deep}`);
    const d = q.diagnostics.find((x) => /nest/i.test(x.message));
    assert.ok(d, JSON.stringify(q.diagnostics.slice(0, 3)));
    assert.match(d.message, new RegExp(`${MAX_FILTER_NESTING}`));
    assert.throws(() => parseFilter(deep), FilterSyntaxError);
    const ok = `${'('.repeat(MAX_FILTER_NESTING)}LocationId eq 1${')'.repeat(MAX_FILTER_NESTING)}`;
    assert.equal(formatFilter(parseFilter(ok)), ok);
  });

  it('a chain of 50,000 conditions parses, validates, walks and formats', () => {
    const text = chain(50000);
    const q = analyzeQuery(`/Locations?$filter=${text} or ${chain(3)}`);
    assert.deepEqual(
      q.diagnostics.filter((d) => d.severity === 'error'),
      [],
    );
    const ast = parseFilter(text);
    let n = 0;
    for (const node of walkFilter(ast)) if (node.kind === 'compare') n++;
    assert.equal(n, 50000);
    assert.equal(formatFilter(ast), text);
    assert.equal(
      formatFilter(parseFilter("(A eq 'x''y' or B ge 2) and endswith(C, 'z') and D in (1, 'a')")),
      "(A eq 'x''y' or B gte 2) and endswith(C, 'z') and D in (1, 'a')",
    );
  });

  it('the emulator parser limits nesting and evaluates long chains', () => {
    assert.throws(
      () => parseExpr(`${'('.repeat(100000)}Id eq 1${')'.repeat(100000)}`),
      (e: unknown) => e instanceof FilterError && /nest/.test(e.message),
    );
    const e = parseExpr(chain(50000, 'or'));
    assert.equal(fieldsOf(e).size, 1);
    assert.equal(
      evaluate(e, () => [49999]),
      true,
    );
    assert.equal(
      evaluate(e, () => [50000]),
      false,
    );
    const f = parseExpr('(LocationId eq 1 or LocationId eq 2) and LocationId ne 2');
    assert.equal(
      evaluate(f, () => [1]),
      true,
    );
    assert.equal(
      evaluate(f, () => [2]),
      false,
    );
  });

  it('the emulator parser takes only comparison words as operators, not names an object happens to have', () => {
    for (const word of ['constructor', '__proto__', 'toString', 'CONSTRUCTOR'])
      assert.throws(
        () => parseExpr(`Id ${word} 1`),
        (e: unknown) => e instanceof FilterError && e.message === `unknown operator '${word}' at position 3`,
        word,
      );
    assert.deepEqual(parseExpr('Id GE 1 and Id le -0.50 and Id NE 007'), {
      kind: 'and',
      items: [
        { kind: 'cmp', field: 'Id', op: 'gte', value: 1, quoted: false },
        { kind: 'cmp', field: 'Id', op: 'lte', value: -0.5, quoted: false },
        { kind: 'cmp', field: 'Id', op: 'ne', value: 7, quoted: false },
      ],
    });
  });

  describe('through the emulator', () => {
    let s: TestServer;
    before(async () => {
      s = await startWaterEmulator({ minIntervalMs: 0 });
    });
    after(async () => s.close());
    const get = async (path: string) => {
      const r = await fetch(s.baseUrl + path, { headers: { 'x-api-key': s.apiKey } });
      const text = await r.text();
      let body: { errors?: { detail: string }[] } = {};
      try {
        body = JSON.parse(text) as typeof body;
      } catch {
        body = { errors: [{ detail: text }] };
      }
      return { status: r.status, body };
    };

    it('answers 400 with the service error shape to deep nesting, 200 to a long chain', async () => {
      const deep = await get(
        `/Locations?%24filter=${encodeURIComponent(`${'('.repeat(1500)}LocationId eq 1${')'.repeat(1500)}`)}`,
      );
      assert.equal(deep.status, 400);
      assert.match(deep.body.errors?.[0].detail ?? '', /Malformed \$filter: .*nest/);
      const long = await get(`/Locations?%24top=1&%24filter=${encodeURIComponent(chain(300, 'or'))}`);
      assert.equal(long.status, 200);
    });
  });
});
