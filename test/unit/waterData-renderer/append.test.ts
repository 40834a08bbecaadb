import assert from 'node:assert/strict';
import { useDom, releaseDom, loadRenderer, type RendererModule } from './dom-env';
import { fakeContext, generatedObservations, mount, outputItem, result, waitFor } from './fakes';

const NEXT = 'http://127.0.0.1:9/v1/odata/v4/Observations?$skiptoken=Id:50&$top=50';

describe('waterData renderer: appending rows by resultId', () => {
  let R: RendererModule;
  before(() => {
    useDom();
    R = loadRenderer();
  });
  after(() => releaseDom());

  it('names its output by resultId in every message, so two cells with the same query stay apart', async () => {
    const ctx = fakeContext();
    const a = mount(R, ctx, result('Observations', generatedObservations(10), { resultId: 'res-a', nextLink: NEXT }));
    const b = mount(R, ctx, result('Observations', generatedObservations(10), { resultId: 'res-b', nextLink: NEXT }));
    await waitFor(() => ctx.posted.filter((m) => m.type === 'rendered').length === 2);
    assert.deepEqual(new Set(ctx.posted.map((m) => m.resultId)), new Set(['res-a', 'res-b']));
    b.el.querySelector<HTMLButtonElement>('.wq-load-more')!.click();
    assert.deepEqual(ctx.posted.at(-1), {
      type: 'loadMore',
      resultId: 'res-b',
      requestUrl: result('Observations', []).requestUrl,
    });
    b.el.querySelector<HTMLButtonElement>('.wq-export-csv')!.click();
    assert.equal(ctx.posted.at(-1)!.resultId, 'res-b');

    ctx.send({
      type: 'appendRows',
      resultId: 'res-b',
      requestUrl: result('Observations', []).requestUrl,
      rows: generatedObservations(5),
      nextLink: NEXT,
      pages: 2,
    });
    assert.match(b.el.querySelector('.wq-summary')!.textContent, /15 rows · 2 pages/);
    assert.match(
      a.el.querySelector('.wq-summary')!.textContent,
      /Observations · 10 rows$/,
      'the other output, same query, is untouched',
    );
  });

  it('an output saved before resultId existed is still reached by requestUrl, and only by a message without one', () => {
    const ctx = fakeContext();
    const old = result('Observations', generatedObservations(4), { nextLink: NEXT });
    const { el } = mount(R, ctx, old);
    ctx.send({
      type: 'appendRows',
      resultId: 'someone-else',
      requestUrl: old.requestUrl,
      rows: generatedObservations(3),
    });
    assert.match(el.querySelector('.wq-summary')!.textContent, /4 rows/);
    ctx.send({ type: 'appendRows', requestUrl: old.requestUrl, rows: generatedObservations(3), nextLink: NEXT });
    assert.match(el.querySelector('.wq-summary')!.textContent, /7 rows · 2 pages/);
  });

  it('appends under the rows shown: scroll position, table and selection stay; count, pages, paging state and citations update', () => {
    const ctx = fakeContext();
    const res = result('Observations', generatedObservations(200), {
      resultId: 'res-scroll',
      nextLink: NEXT,
      truncated: true,
    });
    const { el } = mount(R, ctx, res);
    const scroller = el.querySelector<HTMLElement>('.wq-scroll')!;
    scroller.scrollTop = 600;
    scroller.dispatchEvent(new Event('scroll'));
    const filter = el.querySelector<HTMLInputElement>('.wq-filter')!;
    const firstRow = el.querySelector<HTMLElement>('.wq-data-row')!;
    firstRow.querySelector<HTMLElement>('[role="gridcell"]')!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    const selectedBefore = el.querySelector('.wq-table-status')!.textContent;
    assert.match(selectedBefore, /1 selected/);

    const more = generatedObservations(250)
      .slice(200)
      .map((r) => ({ ...r, DOI: '10.25976/yyyy-yy00' }));
    ctx.send({
      type: 'appendRows',
      resultId: 'res-scroll',
      requestUrl: res.requestUrl,
      rows: more,
      pages: 3,
      truncated: false,
      attributions: [
        ...res.attributions,
        {
          doi: '10.25976/yyyy-yy00',
          datasetName: 'Sample Dataset B',
          citation: 'Sample Organization B. 2024. https://doi.org/10.25976/yyyy-yy00.',
        },
      ],
    });
    assert.equal(scroller.scrollTop, 600, 'the scroll position is kept');
    assert.equal(filter.isConnected, true, 'the table was not rebuilt');
    assert.match(el.querySelector('.wq-summary')!.textContent, /250 rows · 3 pages/);
    assert.match(el.querySelector('.wq-table-status')!.textContent, /250 rows.*1 selected/);
    assert.equal(el.querySelector<HTMLElement>('.wq-more-state')!.hidden, true, 'no nextLink: nothing more to load');
    assert.equal(el.querySelector<HTMLButtonElement>('.wq-load-more')!.hidden, true);
    assert.match(
      el.querySelector('[data-testid="water-attribution"]')!.textContent,
      /Sample Dataset B/,
      'the new dataset is cited',
    );
    assert.equal(el.querySelector<HTMLElement>('.wq-warnings')!.hidden, true);
    ctx.send({
      type: 'appendRows',
      resultId: 'res-scroll',
      requestUrl: res.requestUrl,
      rows: [],
      warnings: ['Stopped after 250 rows: HTTP 429'],
    });
    assert.equal(el.querySelector<HTMLElement>('.wq-warnings')!.hidden, false);
    assert.equal(el.querySelector('.wq-warnings')!.textContent, 'Stopped after 250 rows: HTTP 429');
  });

  it('does not redraw when the host stores the rows it already appended; does redraw for other content', () => {
    const ctx = fakeContext();
    const res = result('Observations', generatedObservations(30), { resultId: 'res-store', nextLink: NEXT });
    const { el, renderer, item } = mount(R, ctx, res);
    const view = el.querySelector('.wq-result')!;
    const added = generatedObservations(40).slice(30);
    ctx.send({
      type: 'appendRows',
      resultId: 'res-store',
      requestUrl: res.requestUrl,
      rows: added,
      nextLink: NEXT + '2',
      pages: 2,
    });

    // VS Code re-renders the same output id when its data changes.
    const stored = { ...res, rows: [...res.rows, ...added], nextLink: NEXT + '2', pages: 2 };
    renderer.renderOutputItem({ ...outputItem(stored), id: item.id }, el, new AbortController().signal);
    assert.equal(el.querySelector('.wq-result'), view, 'the same view, not a new one');
    assert.equal(el.querySelectorAll('.wq-result').length, 1);
    ctx.send({
      type: 'appendRows',
      resultId: 'res-store',
      requestUrl: res.requestUrl,
      rows: generatedObservations(1),
      pages: 3,
    });
    assert.match(el.querySelector('.wq-summary')!.textContent, /41 rows · 3 pages/, 'still listening');

    // A failed continuation stores the same rows with a warning: that must be shown.
    const failed = {
      ...stored,
      rows: [...stored.rows, ...generatedObservations(1)],
      pages: 3,
      nextLink: undefined,
      warnings: ['HTTP 503: gave up'],
    };
    renderer.renderOutputItem({ ...outputItem(failed), id: item.id }, el, new AbortController().signal);
    assert.notEqual(el.querySelector('.wq-result'), view);
    assert.equal(el.querySelector('.wq-warnings')!.textContent, 'HTTP 503: gave up');

    // A stored result the view does not show (e.g. a re-run) is drawn afresh.
    const rerun = { ...res, resultId: 'res-new', rows: generatedObservations(5) };
    renderer.renderOutputItem({ ...outputItem(rerun), id: item.id }, el, new AbortController().signal);
    assert.match(el.querySelector('.wq-summary')!.textContent, /Observations · 5 rows$/);
    ctx.send({ type: 'appendRows', resultId: 'res-store', requestUrl: res.requestUrl, rows: generatedObservations(9) });
    assert.match(el.querySelector('.wq-summary')!.textContent, /5 rows/, 'the replaced view no longer listens');
  });
});
