// The results grid's pure logic: summary per variant, comparison with an earlier run, the failures filter, the
// window of visible rows, the CSV and JSON exports, and the run folder (meta beside results, resume bytes).
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCsv } from '../../../src/generation/core/eval/dataset';
import {
  cellStatus,
  compareRuns,
  gridCsv,
  gridJson,
  gridSummary,
  itemLabel,
  rowsToShow,
  visibleRows,
  type RunMeta,
} from '../../../src/generation/core/eval/grid';
import { cellKey, type CellResult } from '../../../src/generation/core/eval/runner';
import {
  ensureRunsFolder,
  listRuns,
  promptRunsFolder,
  readRun,
  runFiles,
  runStamp,
  writeRunMeta,
} from '../../../src/generation/core/eval/runStore';
import { ResultsWriter } from '../../../src/generation/core/eval/outFile';
import { conversationFromCell } from '../../../src/generation/core/eval/toChat';
import { historyOf } from '../../../src/generation/core/conversation';

function cell(item: number, variant: string, over: Partial<CellResult> = {}): CellResult {
  return {
    item,
    variant,
    output: `reply ${item} ${variant}`,
    finishReason: 'STOP',
    usage: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    latencyMs: 100,
    ttftMs: 20,
    attempts: 1,
    assertions: [{ type: 'contains', pass: true }],
    error: null,
    requestHash: 'h',
    ...over,
  };
}

const fail = { assertions: [{ type: 'contains' as const, pass: false, reason: 'does not contain "x"' }] };
const error = { error: { code: 503, status: 'UNAVAILABLE', message: 'overloaded' }, output: '' };

const meta = (items: number, variants: string[]): RunMeta => ({
  version: 1,
  prompt: 'p.prompt',
  dataset: 'd.jsonl',
  variants,
  items: Array.from({ length: items }, (_, index) => ({ index, label: `city=c${index}` })),
  startedAt: '2026-11-29T00:00:00.000Z',
  concurrency: 4,
});

const byKey = (cells: CellResult[]) => new Map(cells.map((c) => [cellKey(c.item, c.variant), c]));

describe('evaluation results grid (pure logic)', () => {
  it('a cell passes when it has a reply and every assertion passed; a failed request is an error', () => {
    assert.equal(cellStatus(cell(0, 'a')), 'pass');
    assert.equal(cellStatus(cell(0, 'a', fail)), 'fail');
    assert.equal(cellStatus(cell(0, 'a', error)), 'error');
    assert.equal(cellStatus(cell(0, 'a', { assertions: [] })), 'pass');
  });

  it('the summary row per variant: pass rate, mean and p95 latency of answered cells, tokens in and out', () => {
    const cells = [
      ...Array.from({ length: 20 }, (_, i) => cell(i, 'a', { latencyMs: (i + 1) * 10 })),
      cell(0, 'b', fail),
      cell(1, 'b', error),
      cell(2, 'b', { latencyMs: 300 }),
    ];
    const s = gridSummary(meta(20, ['a', 'b']), byKey(cells));
    const [a, b] = s.variants;
    assert.equal(a.passRate, 1);
    assert.equal(a.meanLatencyMs, 105); // 10..200
    assert.equal(a.p95LatencyMs, 190); // the 19th of 20
    assert.equal(a.tokensIn, 200);
    assert.equal(a.tokensOut, 100);
    assert.deepEqual([b.cells, b.passed, b.failed, b.errors], [3, 1, 1, 1]);
    assert.equal(b.passRate, 1 / 3);
    assert.equal(b.meanLatencyMs, 200); // the failed request's latency is not counted
    assert.equal(b.tokensIn, 20);
    assert.equal(s.missing, 40 - 23);
  });

  it('comparison: pass→fail and a new error are worse, the reverse better, the same status and new cells unmarked', () => {
    const before = [
      cell(0, 'a'),
      cell(1, 'a'),
      cell(2, 'a', fail),
      cell(3, 'a', fail),
      cell(4, 'a', error),
      cell(5, 'a'),
    ];
    const now = [
      cell(0, 'a', fail),
      cell(1, 'a', error),
      cell(2, 'a', error),
      cell(3, 'a'),
      cell(4, 'a', fail),
      cell(5, 'a', { output: 'other words' }),
      cell(6, 'a', fail),
    ];
    const marks = compareRuns(now, before);
    assert.deepEqual(
      [...marks].map(([k, m]) => `${k.split('\u0000')[0]}:${m}`),
      ['0:worse', '1:worse', '2:worse', '3:better', '4:better'],
    );
  });

  it('the failures filter keeps rows with a failed or errored cell; changed keeps rows with a mark', () => {
    const m = meta(4, ['a', 'b']);
    const cells = byKey([cell(0, 'a'), cell(0, 'b'), cell(1, 'a'), cell(1, 'b', fail), cell(2, 'a', error)]);
    assert.deepEqual(rowsToShow(m.items, m.variants, cells, 'all'), [0, 1, 2, 3]);
    assert.deepEqual(rowsToShow(m.items, m.variants, cells, 'failures'), [1, 2]);
    const marks = new Map([[cellKey(3, 'b'), 'worse' as const]]);
    assert.deepEqual(rowsToShow(m.items, m.variants, cells, 'changed', marks), [3]);
  });

  it('the visible window: only the rows a viewport covers, with overscan, clamped at both ends', () => {
    assert.deepEqual(visibleRows(0, 600, 100, 10_000, 2), { first: 0, end: 9 });
    assert.deepEqual(visibleRows(50_000, 600, 100, 10_000, 2), { first: 498, end: 509 });
    assert.deepEqual(visibleRows(999_950, 600, 100, 10_000, 2), { first: 9997, end: 10_000 });
    assert.deepEqual(visibleRows(0, 600, 100, 0), { first: 0, end: 0 });
    assert.deepEqual(visibleRows(-40, 600, 100, 3, 0), { first: 0, end: 3 });
  });

  it('CSV export: one record per cell, read back by a CSV reader field for field; formulas neutralised', () => {
    const m = meta(2, ['a', 'b']);
    m.items[1].label = 'city="Oslo, NO"';
    const tricky = 'Line one, with "quotes"\nline two\r\n=HYPERLINK("http://x")';
    const cells = byKey([cell(0, 'a', { output: tricky }), cell(0, 'b', fail), cell(1, 'a', error)]);
    const csv = gridCsv(m, cells, new Map([[cellKey(0, 'b'), 'worse']]));
    const rows = parseCsv(csv).map((r) => r.input);
    assert.equal(rows.length, 3);
    assert.equal(rows[0].output, tricky);
    assert.equal(rows[0].status, 'pass');
    assert.equal(rows[0].tokensIn, '10');
    assert.equal(rows[1].status, 'fail');
    assert.equal(rows[1].mark, 'worse');
    assert.equal(rows[1].assertions, 'contains:fail (does not contain "x")');
    assert.equal(rows[2].input, 'city="Oslo, NO"');
    assert.equal(rows[2].error, '503 UNAVAILABLE: overloaded');
    const formula = gridCsv(m, byKey([cell(0, 'a', { output: '=1+1' })]));
    assert.equal(parseCsv(formula)[0].input.output, "'=1+1");
  });

  it('JSON export: the run, the cells as eval --format json prints them (with marks) and the summary', () => {
    const m = meta(1, ['a']);
    const doc = JSON.parse(gridJson(m, byKey([cell(0, 'a', fail)]), new Map([[cellKey(0, 'a'), 'worse']]))) as {
      run: RunMeta;
      cells: { item: number; variant: string; mark?: string; requestHash?: string }[];
      summary: { variants: { passRate: number }[] };
    };
    assert.deepEqual(doc.run, m);
    assert.equal(doc.cells[0].mark, 'worse');
    assert.equal(doc.cells[0].requestHash, undefined);
    assert.equal(doc.summary.variants[0].passRate, 0);
  });

  it('a row label is the input on one line, clipped', () => {
    assert.equal(itemLabel({ city: 'Oslo', days: 3 }), 'city=Oslo, days=3');
    assert.equal(itemLabel({ t: 'a\nb' }), 't=a b');
    assert.equal(itemLabel({ t: 'x'.repeat(200) }, 20).length, 20);
  });
});

describe('evaluation run folder', () => {
  const root = mkdtempSync(join(tmpdir(), 'eval-runs-'));

  it('keeps results and meta side by side under .api-workbench/evals/<prompt>, newest first, git-ignored', async () => {
    const folder = promptRunsFolder(root, '/somewhere/station summary.prompt');
    assert.equal(folder, join(root, '.api-workbench', 'evals', 'station_summary'));
    await ensureRunsFolder(root, folder);
    await ensureRunsFolder(root, folder);
    assert.match(readFileSync(join(root, '.api-workbench', 'evals', '.gitignore'), 'utf8'), /^\*$/m);
    const older = runFiles(folder, runStamp(new Date('2026-11-28T23:00:00Z')));
    const newer = runFiles(folder, runStamp(new Date('2026-11-29T01:02:03.456Z')));
    assert.equal(newer.stamp, '2026-11-29T01-02-03-456Z');
    const m = meta(2, ['a', 'b']);
    for (const f of [older, newer]) {
      await writeRunMeta(f.meta, m);
      const w = await ResultsWriter.open(f.results, 0);
      await w.append(cell(0, 'a'));
      await w.append(cell(1, 'b', fail));
      await w.close();
    }
    assert.deepEqual(
      (await listRuns(folder)).map((r) => r.stamp),
      [newer.stamp, older.stamp],
    );
    const run = await readRun(newer.results);
    assert.deepEqual(run.meta, m);
    assert.equal(run.cells.size, 2);
    assert.equal(cellStatus(run.cells.get(cellKey(1, 'b'))!), 'fail');
    assert.equal(run.validBytes, readFileSync(newer.results).length);
    assert.deepEqual(await listRuns(join(root, 'nowhere')), []);
  });

  it('a results file without meta (an eval --out file) gets its columns and rows from its cells', async () => {
    const path = join(root, 'out.jsonl');
    writeFileSync(path, [cell(1, 'b'), cell(0, 'a'), cell(0, 'b')].map((c) => JSON.stringify(c)).join('\n') + '\n');
    appendFileSync(path, '{"item": 2, "vari'); // a line cut short by a kill
    const run = await readRun(path);
    assert.deepEqual(run.meta.variants, ['b', 'a']);
    assert.deepEqual(
      run.meta.items.map((i) => i.index),
      [0, 1],
    );
    assert.equal(run.cells.size, 3);
    assert.ok(run.validBytes < readFileSync(path).length);
  });

  it('a damaged meta file is a clear error', async () => {
    const f = runFiles(join(root, 'bad'), 'x');
    await ensureRunsFolder(root, join(root, 'bad'));
    writeFileSync(f.results, '');
    writeFileSync(f.meta, '{"version": 2}');
    await assert.rejects(readRun(f.results), /not the meta file of an evaluation run/);
  });
});

describe('Open in Chat of a grid cell', () => {
  it('is a conversation whose one exchange is the cell’s request and reply, continued as history', () => {
    const request = {
      contents: [
        { role: 'user', parts: [{ text: 'Earlier question' }] },
        { role: 'model', parts: [{ text: 'Earlier answer' }] },
        { role: 'user', parts: [{ text: 'Plan a day in Oslo.' }] },
      ],
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
    };
    const c = conversationFromCell(
      cell(3, 'gemini-2.0-flash', { output: 'Walk the harbour.' }),
      request,
      'gemini-2.0-flash',
      'trip #3',
      1,
    );
    assert.equal(c.title, 'trip #3');
    assert.equal(c.turns.length, 1);
    assert.equal(c.turns[0].prompt, 'Plan a day in Oslo.');
    assert.equal(c.turns[0].model, 'models/gemini-2.0-flash');
    assert.equal(c.turns[0].summary.state, 'done');
    assert.deepEqual(historyOf(c), [...request.contents, { role: 'model', parts: [{ text: 'Walk the harbour.' }] }]);
    // A cell without a reply adds nothing the model would read as its own answer.
    const empty = conversationFromCell(cell(0, 'a', error), request, 'a', 't', 1);
    assert.deepEqual(historyOf(empty), []);
  });
});
