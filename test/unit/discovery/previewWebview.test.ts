// The reference preview's browser code, bundled as shipped and run in happy-dom with a fake VS
// Code API: it renders what the host sends, keeps the highlight across renders, follows type
// links within the page, and asks the host to show a heading's source.
import * as assert from 'node:assert/strict';
import { analyzeText } from '../../../src/discovery/core';
import { anchorForPath, renderPreviewBody } from '../../../src/discovery/core/preview';
import { minimalDocument } from './helpers';
import { bundlePreview, PreviewPage } from './previewPage';

let bundle: string;

class Page extends PreviewPage {
  constructor() {
    super(bundle);
  }

  current(): string[] {
    return [...this.doc.querySelectorAll('.current')].map((e) => e.id);
  }
}

describe('discovery preview webview', function () {
  this.timeout(20_000);
  before(async () => {
    bundle = await bundlePreview();
  });

  it('renders the reference, follows the cursor and keeps the highlight across renders', () => {
    const model = analyzeText(JSON.stringify(minimalDocument())).model!;
    const page = new Page();
    assert.deepEqual(page.posted, [{ type: 'ready' }]);
    page.send({ type: 'render', source: 'file:///work/bookshelf.v1.json', html: renderPreviewBody(model) });
    assert.match(page.doc.querySelector('h1')!.textContent, /Demo API/);
    const method = anchorForPath(model, ['resources', 'items', 'methods', 'get'])!;
    page.send({ type: 'reveal', anchor: method });
    assert.deepEqual(page.current(), [method]);
    page.send({ type: 'render', source: 'file:///work/bookshelf.v1.json', html: renderPreviewBody(model) });
    assert.deepEqual(page.current(), [method], 'an edit re-renders without losing the highlight');
    page.send({ type: 'reveal', anchor: 'p-nowhere' });
    assert.deepEqual(page.current(), [method], 'an unknown anchor changes nothing');
    page.window.close();
  });

  it('follows a type link within the page and in the source, and sends a heading click to the source', () => {
    const model = analyzeText(JSON.stringify(minimalDocument())).model!;
    const page = new Page();
    page.send({ type: 'render', source: 'file:///work/bookshelf.v1.json', html: renderPreviewBody(model) });
    const schema = anchorForPath(model, ['schemas', 'Item'])!;
    const link = page.doc.querySelector(`a.ref[href="#${schema}"]`) as HTMLElement;
    assert.ok(link, 'the method links its response type');
    link.click();
    assert.deepEqual(page.current(), [schema]);
    assert.deepEqual(
      page.posted[page.posted.length - 1],
      { type: 'goto', path: ['schemas', 'Item'], preserveFocus: true },
      'the editor follows a type link to the schema source, the focus stays in the preview',
    );
    (page.doc.querySelector(`#${schema} h4`) as HTMLElement).click();
    assert.deepEqual(page.posted[page.posted.length - 1], { type: 'goto', path: ['schemas', 'Item'] });
    (page.doc.querySelector('h1') as HTMLElement).click();
    assert.equal(page.posted.length, 3, 'only type links and method and schema headings lead to the source');
    page.window.close();
  });
});
