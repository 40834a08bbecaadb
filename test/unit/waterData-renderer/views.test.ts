import assert from 'node:assert/strict';
import { useDom, releaseDom, loadRenderer, type RendererModule } from './dom-env';
import { fakeContext, fixtureRows, generatedObservations, mount, result, waitFor } from './fakes';

describe('waterData renderer: map, chart and dataset card', () => {
  let R: RendererModule;
  before(() => {
    useDom();
    R = loadRenderer();
  });
  after(() => releaseDom());

  const tab = (el: HTMLElement, id: string) => el.querySelector<HTMLButtonElement>(`.wq-tab[data-tab="${id}"]`);

  it('offers Table and Map for Locations and plots one point per located row over a Canada outline', () => {
    const rows = [
      { Id: 1, ID: 'BOW-01', Name: 'Bow River at Banff', Latitude: 51.17, Longitude: -115.57 },
      { Id: 2, ID: 'YK-02', Name: 'Yukon at Whitehorse', Latitude: 60.72, Longitude: -135.05 },
      { Id: 3, ID: 'NS-03', Name: 'LaHave', Latitude: 44.38, Longitude: -64.53 },
      { Id: 4, ID: 'NOPOS', Name: 'No coordinates', Latitude: null, Longitude: null },
    ];
    const { el } = mount(R, fakeContext(), result('Locations', rows));
    assert.deepEqual(
      [...el.querySelectorAll('.wq-tab')].map((t) => t.textContent),
      ['Table', 'Map'],
    );
    assert.equal(tab(el, 'table')!.getAttribute('aria-selected'), 'true');
    tab(el, 'map')!.click();
    assert.equal(el.querySelector<HTMLElement>('.wq-panel-map')!.hidden, false);
    assert.equal(el.querySelector<HTMLElement>('.wq-panel-table')!.hidden, true);
    const dots = el.querySelectorAll('circle.wq-pt');
    assert.equal(dots.length, 3);
    assert.match(dots[0].getAttribute('aria-label')!, /Bow River at Banff, BOW-01 · 51\.1700, -115\.5700/);
    const canada = el.querySelector('path.wq-canada')!;
    assert.ok(canada.getAttribute('d')!.length > 200, 'Canada outline drawn');
    const labels = [...el.querySelectorAll('.wq-grat-label')].map((t) => t.textContent);
    assert.ok(
      labels.some((l) => /^\d+°N$/.test(l)) && labels.some((l) => /^\d+°W$/.test(l)),
      `graticule labels ${labels.join(',')}`,
    );
    assert.match(el.querySelector('.wq-map-info')!.textContent, /3 locations plotted · 1 without coordinates/);
    // Points sit where their coordinates say: the Yukon point is west and north of the Nova Scotia one.
    const pos = (i: number) => ({ x: Number(dots[i].getAttribute('cx')), y: Number(dots[i].getAttribute('cy')) });
    assert.ok(pos(1).x < pos(2).x && pos(1).y < pos(2).y);
  });

  it('selects the row in the table when a point is clicked, and the point when a row is clicked', () => {
    const rows = fixtureRows('apidocs-sample-locations.json').concat([
      {
        ...fixtureRows('apidocs-sample-locations.json')[0],
        Id: 100000,
        ID: 'XYZ',
        Name: 'Second',
        Latitude: 49.5,
        Longitude: -123.1,
      },
    ]);
    const ctx = fakeContext();
    const { el } = mount(R, ctx, result('Locations', rows));
    tab(el, 'map')!.click();
    const dot = el.querySelector<SVGElement>('circle.wq-pt[data-index="1"]')!;
    dot.dispatchEvent(new window.MouseEvent('click', { bubbles: true }));
    assert.ok(dot.classList.contains('wq-selected'));
    assert.match(el.querySelector('.wq-map-info')!.textContent, /Selected: Second · XYZ/);
    el.querySelector<HTMLButtonElement>('.wq-show-in-table')!.click();
    assert.equal(tab(el, 'table')!.getAttribute('aria-selected'), 'true');
    const selected = el.querySelector('.wq-data-row.wq-selected')!;
    assert.equal(selected.getAttribute('data-index'), '1');
    (el.querySelector('.wq-data-row[data-index="0"] [role="gridcell"]') as HTMLElement).click();
    assert.ok(el.querySelector('circle.wq-pt[data-index="0"]')!.classList.contains('wq-selected'));
    assert.ok(!dot.classList.contains('wq-selected'));
  });

  it('prefers the Normalized coordinates and reads Records coordinates', () => {
    const mock = fixtureRows('datastreamr-mock-locations.json').map((r) => ({
      ...r,
      LatitudeNormalized: 45.5,
      LongitudeNormalized: -73.6,
    }));
    const a = mount(R, fakeContext(), result('Locations', mock)).el;
    tab(a, 'map')!.click();
    assert.match(a.querySelector('circle.wq-pt')!.getAttribute('aria-label')!, /45\.5000, -73\.6000/);
    const records = mount(R, fakeContext(), result('Records', fixtureRows('datastreamr-mock-records.json'))).el;
    assert.deepEqual(
      [...records.querySelectorAll('.wq-tab')].map((t) => t.textContent),
      ['Table', 'Map', 'Chart'],
    );
    tab(records, 'map')!.click();
    assert.match(
      records.querySelector('circle.wq-pt')!.getAttribute('aria-label')!,
      /Location1, 5717 · 40\.7128, -74\.0060/,
    );
  });

  it('charts Observations per characteristic with its unit, chosen from a selector', () => {
    const rows = generatedObservations(90);
    const { el } = mount(R, fakeContext(), result('Observations', rows));
    assert.deepEqual(
      [...el.querySelectorAll('.wq-tab')].map((t) => t.textContent),
      ['Table', 'Chart'],
    );
    assert.equal(el.querySelector('.wq-chart-select'), null, 'the chart is built when its tab is first shown');
    tab(el, 'chart')!.click();
    const select = el.querySelector<HTMLSelectElement>('.wq-chart-select')!;
    assert.deepEqual(
      [...select.options].map((o) => o.value),
      ['Dissolved oxygen (DO)', 'pH', 'Temperature, water'],
    );
    select.value = 'Temperature, water';
    select.dispatchEvent(new window.Event('change'));
    const box = el.querySelector<HTMLElement>('.wq-chart')!;
    assert.equal(box.dataset.axisLabel, 'Temperature, water (deg C)');
    assert.match(el.querySelector('.wq-chart-caption')!.textContent, /30 values · 5 series · unit: deg C/);
  });

  it('shows Metadata as dataset cards with name, abstract, organisation, keywords, citation, licence and DOI', () => {
    const rows = fixtureRows('apidocs-sample-metadata.json').concat(fixtureRows('datastreamr-mock-metadata.json'));
    const { el } = mount(R, fakeContext(), result('Metadata', rows));
    assert.deepEqual(
      [...el.querySelectorAll('.wq-tab')].map((t) => t.textContent),
      ['Datasets', 'Table'],
    );
    const cards = el.querySelectorAll('.wq-card');
    assert.equal(cards.length, 2);
    const c = cards[0];
    assert.equal(c.querySelector('h3')!.textContent, 'Sample Dataset A');
    assert.equal(
      c.querySelector('.wq-card-org')!.textContent,
      'Sample Organization A · uploaded by Sample Organization B',
    );
    assert.equal(c.querySelector('.wq-card-abstract')!.textContent, 'Sample Description');
    assert.deepEqual(
      [...c.querySelectorAll('.wq-chip')].map((x) => x.textContent),
      ['Water quality', 'temperature', 'inlandWaters'],
    );
    assert.match(c.textContent, /Period2020-01-01 – 2024-01-01/);
    const hrefs = [...c.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    assert.deepEqual(hrefs, ['https://doi.org/10.25976/xxxx-xx00', 'https://opendatacommons.org/licenses/by/1-0/']);
    assert.match(cards[1].textContent, /https:\/\/example\.com\/anonymized-dataset/);
    assert.ok(cards[1].querySelector('a[href="https://example.com/anonymized-dataset"]'));
  });

  it('pages long Metadata results into batches of cards', async () => {
    const base = fixtureRows('apidocs-sample-metadata.json')[0];
    const rows = Array.from({ length: 30 }, (_, i) => ({ ...base, DatasetName: `Set ${i}` }));
    const { el } = mount(R, fakeContext(), result('Metadata', rows));
    assert.equal(el.querySelectorAll('.wq-card').length, 24);
    const more = [...el.querySelectorAll<HTMLButtonElement>('.wq-cards-wrap .wq-btn')][0];
    assert.match(more.textContent, /Show 6 more of 6/);
    more.click();
    await waitFor(() => el.querySelectorAll('.wq-card').length === 30);
  });
});
