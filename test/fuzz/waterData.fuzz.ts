// Fuzz: the water-quality query parser and $filter parser of the notebook, the emulator's own $filter
// parser, and the page reader of the CSV export. Properties: nothing throws but the documented syntax
// errors, diagnostics point inside the cell, a filter that parses formats to text that parses to the same
// text again, a page read as its bytes arrive says what parsing the whole body says.
import * as assert from 'node:assert/strict';
import { completeQuery } from '../../src/waterData/core/completion';
import { hoverQuery } from '../../src/waterData/core/hover';
import { analyzeQuery } from '../../src/waterData/core/validate';
import { FilterSyntaxError, formatFilter, parseFilter, walkFilter } from '../../src/waterData/core/filter';
import { evaluate, FilterError, fieldsOf, parseExpr } from '../../src/sandbox/waterData/filter';
import { PageBodyParser } from '../../src/waterData/core/pageBody';
import { PageBodyError } from '../../src/waterData/core/pageBodyBytes';
import { budget, fuzz, mutateBytes, mutateTree, randomChunks, randomValue, type Random } from './fuzz';

const FIELDS = [
  'LocationId',
  'RegionId',
  'CharacteristicName',
  'ResultValue',
  'Latitude',
  'DOI',
  'Id',
  'MonitoringLocationType',
  'ActivityStartYear',
  'Nope',
];
const VALUES = [
  "'hub.atlantic'",
  "'O''Brien'",
  '42',
  '-1.5',
  '2e3',
  'true',
  'null',
  "'2024-01-01'",
  '2024-01-01',
  "'日本'",
  "''",
];

function condition(r: Random): string {
  switch (r.int(4)) {
    case 0:
      return `${r.pick(FIELDS)} in (${Array.from({ length: 1 + r.int(4) }, () => r.pick(VALUES)).join(', ')})`;
    case 1:
      return `endswith(${r.pick(FIELDS)}, ${r.pick(VALUES)})`;
    default:
      return `${r.pick(FIELDS)} ${r.pick(['eq', 'ne', 'lt', 'gt', 'lte', 'gte', 'ge', 'le', 'EQ'])} ${r.pick(VALUES)}`;
  }
}

function filterText(r: Random, depth = 0): string {
  const n = 1 + r.int(depth > 2 ? 2 : 4);
  const parts = Array.from({ length: n }, () =>
    r.chance(0.3) && depth < 6 ? `(${filterText(r, depth + 1)})` : condition(r),
  );
  return parts.reduce((acc, p) => `${acc} ${r.pick(['and', 'or', 'AND'])} ${p}`);
}

function damaged(r: Random, text: string): string {
  if (r.chance(0.1)) return r.pick(['(', ')', "'"]).repeat(1 + r.int(3000)) + text;
  return r.chance(0.5) ? mutateBytes(r, Buffer.from(text)).toString('utf8') : text;
}

describe('fuzz: water data queries', () => {
  it('notebook $filter parser: only FilterSyntaxError, and format is a fixed point', () => {
    const n = fuzz(41, budget({ iterations: 5000, seconds: 2 }), (r) => {
      const text = damaged(r, filterText(r));
      let ast;
      try {
        ast = parseFilter(text);
      } catch (e) {
        if (!(e instanceof FilterSyntaxError)) throw e;
        assert.ok(e.problem.start >= 0 && e.problem.start <= text.length && e.problem.end >= e.problem.start);
        return;
      }
      for (const node of walkFilter(ast))
        assert.ok(node.start >= 0 && node.end <= text.length && node.start <= node.end);
      const once = formatFilter(ast);
      assert.equal(formatFilter(parseFilter(once)), once);
    });
    assert.ok(n > 0);
  });

  it('query cells: never throw, diagnostics inside the cell', () => {
    const n = fuzz(42, budget({ iterations: 3000, seconds: 2 }), (r) => {
      const set = r.pick(['/Observations', '/Locations', '/Metadata', '/Records', '/Nope', '']);
      const opts = [
        `$filter=${filterText(r)}`,
        `$select=${Array.from({ length: 1 + r.int(5) }, () => r.pick(FIELDS)).join(',')}`,
        `$top=${r.pick(['5', '0', '10001', 'x', '-1'])}`,
        '$count=true',
        '$skiptoken=Id:5',
        'apikey=secret',
        '$orderby=Id',
      ];
      const chosen = opts.filter(() => r.chance(0.5));
      let cell = r.chance(0.5) ? `${set}?${chosen.join('&')}` : [set, ...chosen.map((o) => `&${o}`)].join('\n');
      if (r.chance(0.3)) cell = encodeURI(cell);
      cell = damaged(r, cell);
      const q = analyzeQuery(cell);
      for (const d of q.diagnostics) {
        assert.ok(d.start >= 0 && d.end >= d.start && d.end <= cell.length + 1, JSON.stringify(d));
        assert.ok(typeof d.message === 'string' && d.message.length > 0);
      }
    });
    assert.ok(n > 0);
  });

  it('query cells in every layout: completion and hover at every position never throw and stay inside the cell', () => {
    const n = fuzz(47, budget({ iterations: 400, seconds: 2 }), (r) => {
      const lines = [r.pick(['/Observations', '/Locations?$top=5', 'GET /Metadata', '# note', ''])];
      for (let i = r.int(6); i > 0; i--)
        lines.push(
          r.pick([
            `$filter = ${filterText(r)}`,
            `    and ${condition(r)}`,
            `$select = ${r.pick(FIELDS)},`,
            `    ${r.pick(FIELDS)}`,
            'top = 50',
            '&$count=true',
            '$se',
            '# a comment',
            '',
            '    ',
            `%24filter=${encodeURIComponent(condition(r))}`,
          ]),
        );
      const cell = damaged(r, lines.join(r.chance(0.1) ? '\r\n' : '\n'));
      for (let offset = 0; offset <= cell.length; offset += 1 + r.int(7)) {
        for (const item of completeQuery(cell, offset)) {
          assert.ok(
            item.replaceStart >= 0 && item.replaceStart <= item.replaceEnd,
            JSON.stringify({ cell, offset, item }),
          );
          assert.ok(item.replaceEnd <= cell.length, JSON.stringify({ cell, offset, item }));
        }
        const hover = hoverQuery(cell, offset);
        if (hover)
          assert.ok(
            hover.start >= 0 && hover.start < hover.end && hover.end <= cell.length,
            JSON.stringify({ cell, offset, hover }),
          );
      }
    });
    assert.ok(n > 0);
  });

  it('emulator $filter parser: only FilterError, evaluation never throws', () => {
    const n = fuzz(43, budget({ iterations: 5000, seconds: 2 }), (r) => {
      const text = damaged(r, filterText(r));
      let e;
      try {
        e = parseExpr(text);
      } catch (err) {
        if (!(err instanceof FilterError)) throw err;
        return;
      }
      fieldsOf(e);
      assert.equal(
        typeof evaluate(e, (f) => (f === 'Latitude' ? [1.5] : f === 'RegionId' ? ['hub.atlantic', null] : [])),
        'boolean',
      );
    });
    assert.ok(n > 0);
  });

  it('page bodies read in random chunks: the rows, members or error of parsing the whole body', () => {
    const n = fuzz(44, budget({ iterations: 1500, seconds: 2 }), (r) => {
      const rows = Array.from({ length: r.int(30) }, (_, i) =>
        r.chance(0.8) ? { Id: i, Note: r.pick(['},{', '"}', 'x', '\\', '水']), V: i / 3 } : randomValue(r),
      );
      const page: unknown = r.chance(0.3)
        ? mutateTree(r, { value: rows, '@odata.nextLink': 'n' })
        : { '@odata.count': rows.length, value: rows, next: { a: ['},'] } };
      let bytes: Buffer = Buffer.from(JSON.stringify(page, null, r.chance(0.3) ? 1 : 0));
      if (r.chance(0.4)) bytes = mutateBytes(r, bytes);
      let expected: unknown;
      try {
        const body = JSON.parse(new TextDecoder().decode(bytes)) as unknown;
        if (!body || typeof body !== 'object') throw new Error();
        const { value, ...members } = body as Record<string, unknown>;
        expected = Array.isArray(value) ? { rows: value, members } : 'no-value';
      } catch {
        expected = 'not-json';
      }
      const p = new PageBodyParser();
      const got: unknown[] = [];
      let said: unknown;
      try {
        for (const chunk of randomChunks(r, bytes)) {
          p.push(chunk);
          for (let batch = p.take(); batch.length > 0; batch = p.take()) got.push(...batch);
        }
        const end = p.end();
        said = { rows: [...got, ...end.rows], members: end.members };
      } catch (e) {
        if (!(e instanceof PageBodyError)) throw e;
        said = e.problem;
      }
      assert.deepEqual(said, expected);
    });
    assert.ok(n > 0);
  });
});
