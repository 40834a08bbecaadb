// CSV export text: the per-page writer (csvRows) must give exactly the lines of one csvLine per row, for every
// kind of cell the API returns (and the odd ones it might), since exports are compared against other tools.
import * as assert from 'node:assert/strict';
import { csvLine, csvRows, toCsv } from '../../../src/waterData/core/csv';

const CELLS: unknown[] = [
  'plain',
  'with, comma',
  'with "quotes"',
  'two\r\nlines',
  '=SUM(A1)',
  '+1',
  '-2.5',
  '@home',
  '',
  0,
  -12.75,
  1e21,
  true,
  null,
  undefined,
  ['a', 'b,c'],
  { nested: 'x' },
  10n,
];

function randomRows(seed: number, n: number, columns: string[]): Record<string, unknown>[] {
  let x = seed;
  const next = () => (x = (x * 1103515245 + 12345) % 2147483648);
  return Array.from({ length: n }, () => {
    const r: Record<string, unknown> = {};
    // Some columns missing from some rows, as with $select of a field a row lacks.
    for (const c of columns) if (next() % 7) r[c] = CELLS[next() % CELLS.length];
    return r;
  });
}

describe('waterData CSV rows', () => {
  const columns = ['Id', 'DOI', 'ResultValue', 'Note', 'Flags'];

  it('csvRows is one csvLine per row, in order, for every kind of cell', () => {
    for (let seed = 1; seed <= 50; seed++) {
      const rows = randomRows(seed, seed * 3, columns);
      const expected = rows.map((r) => csvLine(columns.map((c) => r[c]))).join('');
      assert.equal(csvRows(columns, rows), expected, `seed ${seed}`);
    }
  });

  it('no rows give no text, and toCsv is the header then the rows', () => {
    assert.equal(csvRows(columns, []), '');
    const rows = randomRows(7, 4, columns);
    assert.equal(toCsv(columns, rows), csvLine(columns) + csvRows(columns, rows));
    assert.equal(toCsv(['a'], [{ a: 'x,y' }, { a: 2 }]), 'a\r\n"x,y"\r\n2\r\n');
  });
});
