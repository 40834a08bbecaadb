import assert from 'node:assert/strict';
import { useDom, releaseDom, loadRenderer, type RendererModule } from './dom-env';
import { toCsv } from '../../../src/waterData/renderer/values';
import { cellTexts, dataRows, fakeContext, fixtureRows, generatedObservations, mount, result, waitFor } from './fakes';

describe('waterData renderer: table', () => {
  let R: RendererModule;
  before(() => {
    useDom();
    R = loadRenderer();
  });
  after(() => releaseDom());

  it('renders the columns as sticky headers and the rows as text cells', () => {
    const rows = fixtureRows('apidocs-sample-observations.json');
    const { el } = mount(R, fakeContext(), result('Observations', rows));
    const headers = [...el.querySelectorAll('.wq-th .wq-th-name')].map((h) => h.textContent);
    assert.deepEqual(headers, Object.keys(rows[0]));
    const drawn = dataRows(el);
    assert.equal(drawn.length, 1);
    const cells = cellTexts(drawn[0]);
    assert.equal(cells[headers.indexOf('CharacteristicName')], 'Dissolved oxygen saturation');
    assert.equal(cells[headers.indexOf('ResultValue')], '97');
    assert.equal(cells[headers.indexOf('ActivityEndDate')], '', 'null is an empty cell');
    assert.match(el.querySelector('.wq-summary')!.textContent, /Observations · 1 row/);
    assert.ok(el.ownerDocument.getElementById('api-workbench-water-result-styles'), 'stylesheet injected');
    // The editor-level UI smoke test finds the table by this id.
    assert.ok(el.querySelectorAll('[data-testid="water-table"] [role="row"]').length >= 2);
    assert.ok(el.querySelector('[data-testid="water-attribution"]'));
  });

  it('a row without a column named constructor or __proto__ shows an empty cell there, in the table and in CSV', () => {
    const names = ['constructor', '__proto__', 'toString'];
    const full = JSON.parse(`{"Id": 1, ${names.map((n) => `"${n}": "v-${n}"`).join(', ')}}`) as Record<string, unknown>;
    const rows = [full, { Id: 2 }];
    const { el } = mount(R, fakeContext(), result('Observations', rows, { columns: ['Id', ...names] }));
    const drawn = dataRows(el);
    assert.deepEqual(cellTexts(drawn[0]), ['1', ...names.map((n) => `v-${n}`)]);
    assert.deepEqual(cellTexts(drawn[1]), ['2', '', '', '']);
    const csv = toCsv(['Id', ...names], rows);
    assert.equal(csv.split('\r\n')[2], '2,,,');
  });

  it('keeps only the visible window of 10,000 rows in the DOM and follows scrolling', async () => {
    const rows = generatedObservations(10_000);
    const { el } = mount(R, fakeContext(), result('Observations', rows));
    const drawn = dataRows(el);
    assert.ok(drawn.length > 5 && drawn.length < 60, `drew ${drawn.length} rows`);
    assert.equal(el.querySelector('.wq-scroll')!.getAttribute('aria-rowcount'), '10001');
    assert.match(el.querySelector('.wq-table-status')!.textContent, /10,000 rows/);
    const body = el.querySelector<HTMLElement>('.wq-body')!;
    assert.equal(body.style.height, `${10_000 * 24}px`, 'the body keeps the full scroll height');
    const scroller = el.querySelector<HTMLElement>('.wq-scroll')!;
    scroller.scrollTop = 24 * 5000;
    scroller.dispatchEvent(new window.Event('scroll'));
    await waitFor(() => dataRows(el).some((r) => r.dataset.index === '5000'));
    assert.ok(dataRows(el).length < 60);
    assert.ok(!dataRows(el).some((r) => r.dataset.index === '0'), 'rows scrolled out are removed');
    for (const r of dataRows(el)) {
      assert.equal(
        r.classList.contains('wq-odd'),
        Number(r.getAttribute('aria-rowindex')) % 2 === 1,
        'stripes follow display order',
      );
    }
  });

  it('attaches only the columns near the horizontal viewport and keeps them aligned to their grid column', async () => {
    const rows = fixtureRows('apidocs-sample-records.json');
    const many = Array.from({ length: 6 }, (_, i) => ({ ...rows[0], Id: i }));
    const { el } = mount(R, fakeContext(), result('Records', many));
    const scroller = el.querySelector<HTMLElement>('.wq-scroll')!;
    assert.equal(dataRows(el)[0].querySelectorAll('[role="gridcell"]').length, 44, 'unknown width: every column');
    Object.defineProperty(scroller, 'clientWidth', { configurable: true, get: () => 600 });
    scroller.scrollLeft = 3000;
    scroller.dispatchEvent(new window.Event('scroll'));
    await waitFor(() => dataRows(el)[0].querySelectorAll('[role="gridcell"]').length < 20);
    const cells = [...dataRows(el)[0].querySelectorAll<HTMLElement>('[role="gridcell"]')];
    const first = Number(cells[0].dataset.col);
    assert.ok(first > 5, `first attached column ${first}`);
    assert.equal(cells[0].style.gridColumnStart, String(first + 2));
    assert.deepEqual(
      cells.map((c) => Number(c.dataset.col)),
      cells.map((_, i) => first + i),
      'a contiguous run of columns',
    );
    const names = Object.keys(rows[0]);
    assert.equal(
      cells[0].textContent,
      String((many[0] as Record<string, string | number | boolean | null>)[names[first]] ?? ''),
    );
  });

  it('sorts by a column, numbers numerically, empty values last, and cycles back to the original order', () => {
    const rows = [
      { Id: 1, Name: 'b', Value: 10 },
      { Id: 2, Name: 'a', Value: 9 },
      { Id: 3, Name: null, Value: 100 },
      { Id: 4, Name: 'C', Value: null },
    ];
    const { el } = mount(R, fakeContext(), result('Locations', rows));
    const sortBtn = (name: string) =>
      [...el.querySelectorAll<HTMLButtonElement>('.wq-sort')].find((b) => b.textContent.startsWith(name))!;
    const ids = () => dataRows(el).map((r) => cellTexts(r)[0]);
    sortBtn('Value').click();
    assert.deepEqual(ids(), ['2', '1', '3', '4']);
    assert.equal(sortBtn('Value').parentElement!.getAttribute('aria-sort'), 'ascending');
    sortBtn('Value').click();
    assert.deepEqual(ids(), ['3', '1', '2', '4'], 'descending keeps the empty value last');
    sortBtn('Value').click();
    assert.deepEqual(ids(), ['1', '2', '3', '4']);
    sortBtn('Name').click();
    assert.deepEqual(ids(), ['2', '1', '4', '3'], 'text sorts case-insensitively');
  });

  it('filters per column with substring and comparison filters', async () => {
    const rows = generatedObservations(300);
    const { el } = mount(R, fakeContext(), result('Observations', rows));
    const input = el.querySelector<HTMLInputElement>('input[aria-label="Filter CharacteristicName"]')!;
    input.value = 'ph';
    input.dispatchEvent(new window.Event('input'));
    await waitFor(() => /100 of 300 rows/.test(el.querySelector('.wq-table-status')!.textContent));
    assert.ok(dataRows(el).every((r) => r.textContent.includes('pH')));
    const value = el.querySelector<HTMLInputElement>('input[aria-label="Filter ResultValue"]')!;
    value.value = '>7.5';
    value.dispatchEvent(new window.Event('input'));
    const expected = rows.filter((r) => r.CharacteristicName === 'pH' && (r.ResultValue as number) > 7.5).length;
    await waitFor(() => el.querySelector('.wq-table-status')!.textContent.startsWith(`${expected} of 300`));
    assert.ok(expected > 0 && expected < 100);
  });

  it('renders hostile values as text, never as markup', () => {
    const hostile = '<img src=x onerror=alert(1)>';
    const rows = [{ Id: 1, Name: hostile, [hostile]: '<script>alert(2)</script>' }];
    const { el } = mount(
      R,
      fakeContext(),
      result('Locations', rows, {
        attributions: [
          {
            doi: '10.25976/ab<b>-cd00',
            datasetName: hostile,
            citation: hostile,
            licence: 'javascript:alert(1)',
            disclaimer: hostile,
          },
        ],
        warnings: [hostile],
      }),
    );
    assert.equal(el.querySelectorAll('img, script, b').length, 0);
    assert.ok(dataRows(el)[0].textContent.includes(hostile));
    assert.ok([...el.querySelectorAll('.wq-th-name')].some((h) => h.textContent === hostile));
    assert.ok(el.querySelector('.wq-warnings')!.textContent.includes(hostile));
    for (const a of el.querySelectorAll('a')) assert.match(a.getAttribute('href')!, /^https?:\/\//);
  });

  it('copies the focused cell, the selected rows and a shift-range as TSV', async () => {
    const rows = [
      { Id: 1, Name: 'Tab\there', Comment: 'say "hi"' },
      { Id: 2, Name: 'two', Comment: null },
      { Id: 3, Name: 'three', Comment: 'x' },
    ];
    const { el } = mount(R, fakeContext(), result('Locations', rows));
    const clip = () => window.navigator.clipboard.readText();
    const cell = (r: number, c: number) => dataRows(el)[r].querySelectorAll<HTMLElement>('[role="gridcell"]')[c];
    cell(1, 1).click();
    assert.equal(dataRows(el)[1].getAttribute('aria-selected'), 'true');
    const scroller = el.querySelector<HTMLElement>('.wq-scroll')!;
    scroller.dispatchEvent(new window.KeyboardEvent('keydown', { key: 'c', ctrlKey: true, bubbles: true }));
    await waitFor(() => /Copied/.test(el.querySelector('.wq-notice')!.textContent));
    assert.equal(await clip(), 'two');
    cell(0, 0).click();
    cell(2, 0).dispatchEvent(new window.MouseEvent('click', { shiftKey: true, bubbles: true }));
    assert.match(el.querySelector('.wq-table-status')!.textContent, /3 selected/);
    el.querySelector('.wq-notice')!.textContent = '';
    scroller.dispatchEvent(new window.KeyboardEvent('keydown', { key: 'c', ctrlKey: true, bubbles: true }));
    await waitFor(() => /Copied/.test(el.querySelector('.wq-notice')!.textContent));
    assert.equal(await clip(), 'Id\tName\tComment\n1\t"Tab\there"\t"say ""hi"""\n2\ttwo\t\n3\tthree\tx');
  });

  it('moves the selection and the focused cell with the keyboard', async () => {
    const { el } = mount(R, fakeContext(), result('Observations', generatedObservations(1000)));
    const scroller = el.querySelector<HTMLElement>('.wq-scroll')!;
    const key = (k: string, ctrlKey = false) =>
      scroller.dispatchEvent(new window.KeyboardEvent('keydown', { key: k, ctrlKey, bubbles: true }));
    // The focused cell's value, read through Ctrl+C (rows far down are not in the DOM of a layout-less window).
    const focused = async () => {
      el.querySelector('.wq-notice')!.textContent = '';
      key('c', true);
      await waitFor(() => /Copied/.test(el.querySelector('.wq-notice')!.textContent));
      return window.navigator.clipboard.readText();
    };
    key('ArrowDown');
    assert.equal(el.querySelector('.wq-data-row.wq-selected')!.getAttribute('data-index'), '0');
    key('ArrowDown');
    key('ArrowDown');
    assert.equal(await focused(), '3', 'Id of the third row');
    key('ArrowRight');
    assert.equal(await focused(), '10.25976/xxxx-xx00', 'next column');
    key('ArrowLeft');
    key('End');
    assert.equal(await focused(), '1000');
    key('PageUp');
    assert.ok(Number(await focused()) < 1000);
    key('Home');
    assert.equal(await focused(), '1');
    assert.match(el.querySelector('.wq-table-status')!.textContent, /1 selected/);
  });

  it('shows paging state and posts loadMore / fetchAll, then appends the rows the host sends', async () => {
    const ctx = fakeContext();
    const first = generatedObservations(50);
    const res = result('Observations', first, {
      nextLink: 'http://127.0.0.1:9/v1/odata/v4/Observations?$skiptoken=Id:50&$top=50',
      truncated: true,
    });
    const { el } = mount(R, ctx, res);
    await waitFor(() => ctx.posted.some((m) => m.type === 'rendered'));
    assert.deepEqual(ctx.posted[0], { type: 'rendered', requestUrl: res.requestUrl, rows: 50 });
    const badge = el.querySelector<HTMLElement>('.wq-more-state')!;
    assert.equal(badge.textContent, 'more rows available');
    assert.match(badge.title, /stopped at the row limit.*Load more fetches one more/);
    const load = el.querySelector<HTMLButtonElement>('.wq-load-more')!;
    assert.equal(load.hidden, false);
    load.click();
    assert.deepEqual(ctx.posted.at(-1), { type: 'loadMore', requestUrl: res.requestUrl });
    assert.equal(load.disabled, true, 'disabled while the page is being fetched');
    ctx.send({ type: 'appendRows', requestUrl: 'http://other/request', rows: generatedObservations(3) });
    assert.match(el.querySelector('.wq-summary')!.textContent, /50 rows/, 'rows of another output are ignored');
    ctx.send({
      type: 'appendRows',
      requestUrl: res.requestUrl,
      rows: generatedObservations(20),
      nextLink: 'http://127.0.0.1:9/next2',
    });
    assert.match(el.querySelector('.wq-summary')!.textContent, /70 rows · 2 pages/);
    assert.equal(load.disabled, false);
    el.querySelector<HTMLButtonElement>('.wq-fetch-all')!.click();
    assert.deepEqual(ctx.posted.at(-1), { type: 'fetchAll', requestUrl: res.requestUrl });
    ctx.send({ type: 'appendRows', requestUrl: res.requestUrl, rows: generatedObservations(5) });
    assert.equal(load.hidden, true, 'no more pages');
    assert.equal(el.querySelector<HTMLElement>('.wq-more-state')!.hidden, true);
    assert.match(el.querySelector('.wq-table-status')!.textContent, /75 rows/);
  });

  it('degrades without messaging: paging disabled, export copies to the clipboard, no rendered message needed', async () => {
    const ctx = fakeContext(false);
    const rows = [
      { Id: 1, Name: 'a,b' },
      { Id: 2, Name: 'c' },
    ];
    const { el } = mount(R, ctx, result('Locations', rows, { nextLink: 'http://127.0.0.1:9/next' }));
    const load = el.querySelector<HTMLButtonElement>('.wq-load-more')!;
    assert.equal(load.hidden, false);
    assert.equal(load.disabled, true);
    el.querySelector<HTMLButtonElement>('.wq-export-csv')!.click();
    await waitFor(() => /Copied/.test(el.querySelector('.wq-notice')!.textContent));
    assert.equal(await window.navigator.clipboard.readText(), 'Id,Name\r\n1,"a,b"\r\n2,c\r\n');
    el.querySelector<HTMLButtonElement>('.wq-export-json')!.click();
    await waitFor(() => /as JSON/.test(el.querySelector('.wq-notice')!.textContent));
    assert.deepEqual(JSON.parse(await window.navigator.clipboard.readText()), rows);
  });

  it('posts export requests to the host when messaging is available', () => {
    const ctx = fakeContext();
    const res = result('Observations', generatedObservations(3));
    const { el } = mount(R, ctx, res);
    el.querySelector<HTMLButtonElement>('.wq-export-json')!.click();
    assert.deepEqual(ctx.posted.at(-1), { type: 'export', requestUrl: res.requestUrl, format: 'json' });
    el.querySelector<HTMLButtonElement>('.wq-export-csv')!.click();
    assert.deepEqual(ctx.posted.at(-1), { type: 'export', requestUrl: res.requestUrl, format: 'csv' });
  });

  it('reports output that is not a water result instead of throwing', () => {
    const { el } = mount(R, fakeContext(), { hello: 'world' });
    assert.match(el.textContent, /not a water-quality result/);
  });
});
