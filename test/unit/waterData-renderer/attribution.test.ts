import assert from 'node:assert/strict';
import { useDom, releaseDom, loadRenderer, type RendererModule } from './dom-env';
import { fakeContext, fixtureRows, mount, result } from './fakes';

function links(el: Element): { text: string; href: string }[] {
  return [...el.querySelectorAll('a')].map((a) => ({ text: a.textContent ?? '', href: a.getAttribute('href') ?? '' }));
}

describe('waterData renderer: attribution footer and count', () => {
  let R: RendererModule;
  before(() => {
    useDom();
    R = loadRenderer();
  });
  after(() => releaseDom());

  it('shows citation, licence name with link, and the DOI link for every dataset', () => {
    const rows = fixtureRows('apidocs-sample-locations.json');
    const { el } = mount(
      R,
      fakeContext(),
      result('Locations', rows, {
        attributions: [
          {
            doi: '10.25976/xxxx-xx00',
            datasetName: 'Sample Dataset A',
            citation: 'Sample Organization A. 2024. "Sample Dataset A".',
            licence: 'https://opendatacommons.org/licenses/by/1-0/',
          },
          { doi: '10.25976/abcd-ef12', datasetName: 'PDDL set', citation: 'Org B. 2023.', licence: 'odc-pddl' },
          {
            doi: '10.81029/zzzz-zz99',
            datasetName: 'OGL set',
            citation: 'Gov C. 2022.',
            licence: 'ogl',
            disclaimer: 'Provided as is by the Government of C.',
          },
          { doi: '10.25976/aaaa-bb11', datasetName: 'Coded BY', licence: 'odc-by' },
        ],
      }),
    );
    const footer = el.querySelector('footer.wq-footer')!;
    const items = footer.querySelectorAll('.wq-attribution');
    assert.equal(items.length, 4);
    assert.deepEqual(links(items[0]), [
      { text: 'https://doi.org/10.25976/xxxx-xx00', href: 'https://doi.org/10.25976/xxxx-xx00' },
      {
        text: 'Open Data Commons Attribution License (ODC-By) v1.0',
        href: 'https://opendatacommons.org/licenses/by/1-0/',
      },
    ]);
    assert.match(items[0].querySelector('.wq-citation')!.textContent, /Sample Organization A\. 2024/);
    assert.deepEqual(links(items[1])[1], {
      text: 'Open Data Commons Public Domain Dedication and License (ODC-PDDL) v1.0',
      href: 'https://opendatacommons.org/licenses/pddl/1-0/',
    });
    assert.match(items[2].textContent, /Open Government Licence – Canada/);
    assert.equal(
      items[2].querySelector('.wq-disclaimer')!.textContent,
      'Disclaimer: Provided as is by the Government of C.',
    );
    assert.equal(links(items[2])[0].href, 'https://doi.org/10.81029/zzzz-zz99');
    assert.deepEqual(links(items[3])[1], {
      text: 'Open Data Commons Attribution License (ODC-By) v1.0',
      href: 'https://opendatacommons.org/licenses/by/1-0/',
    });
    assert.match(items[3].textContent, /Citation: not provided/);
  });

  it('links an unknown licence URL as is, keeps a non-URL value as text, and never links other schemes', () => {
    const { el } = mount(
      R,
      fakeContext(),
      result('Locations', [{ Id: 1 }], {
        attributions: [
          {
            doi: '10.25976/aaaa-aa00',
            licence: 'https://open.canada.ca/en/open-government-licence-canada',
            disclaimer: '',
          },
          { doi: '10.25976/bbbb-bb00', licence: 'https://example.org/licence/2' },
          { doi: '10.25976/cccc-cc00', licence: 'javascript:alert(1)' },
          { doi: '10.25976/dddd-dd00', licence: 'CC-BY-4.0' },
        ],
      }),
    );
    const items = el.querySelectorAll('.wq-attribution');
    assert.deepEqual(links(items[0])[1], {
      text: 'Open Government Licence – Canada',
      href: 'https://open.canada.ca/en/open-government-licence-canada',
    });
    assert.match(items[0].querySelector('.wq-disclaimer')!.textContent, /Disclaimer/);
    assert.deepEqual(links(items[1])[1], {
      text: 'https://example.org/licence/2',
      href: 'https://example.org/licence/2',
    });
    assert.equal(links(items[2]).length, 1, 'only the DOI is a link');
    assert.match(items[2].textContent, /javascript:alert\(1\)/);
    assert.equal(links(items[3]).length, 1);
    assert.match(items[3].textContent, /Licence: CC-BY-4.0/);
  });

  it('still carries DOI links taken from the rows when no attribution could be loaded', () => {
    const rows = [
      { Id: 1, DOI: '10.25976/abcd-1234' },
      { Id: 2, DOI: '10.25976/abcd-1234' },
      { Id: 3, DOI: '10.25976/zzzz-0000' },
    ];
    const { el } = mount(R, fakeContext(), result('Observations', rows, { attributions: [] }));
    const footer = el.querySelector('footer.wq-footer')!;
    assert.match(footer.textContent, /could not be loaded/);
    assert.deepEqual(
      links(footer).map((l) => l.href),
      ['https://doi.org/10.25976/abcd-1234', 'https://doi.org/10.25976/zzzz-0000'],
    );
  });

  it('says that $top is the page size and what Load more fetches', () => {
    const rows = [1, 2, 3, 4, 5].map((Id) => ({ Id, DOI: '10.25976/abcd-1234' }));
    const { el } = mount(R, fakeContext(), result('Locations', rows, { pageTop: 5, nextLink: 'http://x/next' }));
    const badge = el.querySelector('.wq-more-state');
    assert.match(badge?.getAttribute('title') ?? '', /\$top=5 is the page size: Load more fetches the next 5 rows/);
    assert.match(el.querySelector('.wq-load-more')?.getAttribute('title') ?? '', /next 5 rows/);
  });

  it('a $count result (no rows) does not claim that its citation failed to load', () => {
    const { el } = mount(
      R,
      fakeContext(),
      result('Locations', [], { columns: [], count: { value: 42, estimate: false }, attributions: [] }),
    );
    const text = el.querySelector('footer.wq-footer')?.textContent ?? '';
    assert.doesNotMatch(text, /could not be loaded/);
    assert.match(text, /no data rows/);
  });

  it('shows a $count result prominently, marked as an estimate only when it is one', () => {
    const exact = mount(
      R,
      fakeContext(),
      result('Observations', [], { columns: [], count: { value: 3930, estimate: false } }),
    ).el;
    assert.equal(exact.querySelector('.wq-count-value')!.textContent, '3,930');
    assert.equal(exact.querySelector('.wq-estimate'), null);
    assert.equal(exact.querySelector('.wq-table'), null, 'a bare count has no empty table');
    assert.ok(exact.querySelector('footer.wq-footer'), 'the count carries the attribution too');
    const est = mount(
      R,
      fakeContext(),
      result('Records', [], { columns: [], count: { value: 12_345_678, estimate: true } }),
    ).el;
    assert.equal(est.querySelector('.wq-count-value')!.textContent, '12,345,678');
    assert.equal(est.querySelector('.wq-estimate')!.textContent, 'estimate');
    assert.match(est.querySelector('.wq-count-label')!.textContent, /Records matching the query/);
  });
});
