import * as assert from 'node:assert/strict';
import { parseNotebookFile, serializeNotebookFile } from '../../../src/waterData/core/notebookFile';
import { WATER_RESULT_MIME } from '../../../src/waterData/protocol';

describe('waterData .wqnb format', () => {
  it('round-trips cells, environment and outputs, with line-array sources', () => {
    const nb = {
      environment: 'qa',
      cells: [
        { kind: 'markdown' as const, source: '# Title\ntext' },
        {
          kind: 'query' as const,
          source: '/Observations\n$top = 5',
          outputs: [{ items: [{ mime: 'text/plain', value: 'hello' }] }],
        },
      ],
    };
    const text = serializeNotebookFile(nb);
    assert.match(text, /"source": \[\n\s+"\/Observations",\n\s+"\$top = 5"\n\s+\]/);
    assert.ok(text.endsWith('\n'));
    assert.deepEqual(parseNotebookFile(text), nb);
    assert.equal(serializeNotebookFile(parseNotebookFile(text)), text, 'stable');
  });

  it('caps saved results: keeps the first rows and says how many were dropped', () => {
    const rows = Array.from({ length: 1000 }, (_, i) => ({ Id: i, Name: `Location number ${i}` }));
    const result = {
      entitySet: 'Locations',
      requestUrl: 'u',
      columns: ['Id', 'Name'],
      rows,
      pages: 1,
      attributions: [{ doi: '10.25976/abcd-ef12', citation: 'c' }],
    };
    const text = serializeNotebookFile(
      {
        cells: [
          { kind: 'query', source: '/Locations', outputs: [{ items: [{ mime: WATER_RESULT_MIME, value: result }] }] },
        ],
      },
      8 * 1024,
      WATER_RESULT_MIME,
    );
    assert.ok(text.length < 12 * 1024);
    const saved = parseNotebookFile(text).cells[0].outputs![0].items[0].value as typeof result & { warnings: string[] };
    assert.ok(saved.rows.length > 10 && saved.rows.length < 1000);
    assert.deepEqual(saved.attributions, result.attributions, 'citations are never dropped');
    assert.match(saved.warnings[0], new RegExp(`${1000 - saved.rows.length} of 1000 rows were not saved`));
  });

  it('rejects files that are not notebooks, accepts an empty file', () => {
    assert.throws(() => parseNotebookFile('{"foo":1}'), /no "cells"/);
    assert.throws(() => parseNotebookFile('{'), /invalid JSON/);
    assert.deepEqual(parseNotebookFile(''), { cells: [] });
  });
});
