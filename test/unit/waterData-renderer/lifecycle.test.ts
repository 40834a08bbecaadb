import assert from 'node:assert/strict';
import { useDom, releaseDom, loadRenderer, type RendererModule } from './dom-env';
import { fakeContext, mount, result } from './fakes';

describe('waterData renderer: lifecycle', () => {
  let R: RendererModule;
  before(() => {
    useDom();
    R = loadRenderer();
  });
  after(() => releaseDom());

  const located = (n: number, from = 0) =>
    Array.from({ length: n }, (_, i) => ({
      Id: from + i,
      ID: `S${from + i}`,
      Name: `Site ${from + i}`,
      Latitude: 45 + (from + i) / 10,
      Longitude: -75 - (from + i) / 10,
    }));

  it('redraws the map with rows appended by the host', () => {
    const ctx = fakeContext();
    const res = result('Locations', located(3), { nextLink: 'http://127.0.0.1:9/next' });
    const { el } = mount(R, ctx, res);
    el.querySelector<HTMLButtonElement>('.wq-tab[data-tab="map"]')!.click();
    assert.equal(el.querySelectorAll('circle.wq-pt').length, 3);
    ctx.send({ type: 'appendRows', requestUrl: res.requestUrl, rows: located(4, 3) });
    assert.equal(el.querySelectorAll('circle.wq-pt').length, 7);
    assert.equal(el.querySelector<HTMLElement>('.wq-panel-map')!.hidden, false);
  });

  it('stops listening to the host once the output is disposed or re-rendered', () => {
    const ctx = fakeContext();
    const res = result('Locations', located(2), { nextLink: 'http://127.0.0.1:9/next' });
    const { el, renderer, item } = mount(R, ctx, res);
    renderer.disposeOutputItem(item.id);
    ctx.send({ type: 'appendRows', requestUrl: res.requestUrl, rows: located(5, 2) });
    assert.match(el.querySelector('.wq-summary')!.textContent, /2 rows/);
    // Rendering the same output id again replaces the view and its subscription.
    renderer.renderOutputItem(item, el, new AbortController().signal);
    renderer.renderOutputItem(item, el, new AbortController().signal);
    assert.equal(el.querySelectorAll('.wq-result').length, 1);
    ctx.send({ type: 'appendRows', requestUrl: res.requestUrl, rows: located(1, 2) });
    assert.match(el.querySelector('.wq-summary')!.textContent, /3 rows · 2 pages/);
  });

  it('says when a query matched nothing, and still cites the datasets', () => {
    const { el } = mount(R, fakeContext(), result('Observations', [], { columns: ['Id', 'DOI'] }));
    assert.equal(el.querySelector('.wq-empty')!.textContent, 'No rows matched the query.');
    assert.match(el.querySelector('.wq-summary')!.textContent, /Observations · 0 rows/);
    assert.ok(el.querySelector('footer.wq-footer a[href="https://doi.org/10.25976/xxxx-xx00"]'));
  });
});
