// The Try it panel in the preview's browser code, bundled as shipped and run in happy-dom: the panel keeps what
// the user entered across a re-render of the reference (an edit of the document), follows its method to a new
// path, says so when the method is gone, and the body editor's suggestion list works from the keyboard.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { analyzeText } from '../../../src/discovery/core';
import type { Obj } from '../../../src/discovery/core/model';
import { renderPreviewBody } from '../../../src/discovery/core/preview';
import { completeBody, tryItForm } from '../../../src/discovery/core/tryIt';
import type { PreviewHostToWebview, PreviewPath } from '../../../src/discovery/protocol';
import { REPO_ROOT } from './helpers';
import { bundlePreview, PreviewPage } from './previewPage';

let bundle: string;
const SAMPLE = readFileSync(path.join(REPO_ROOT, 'samples', 'discovery', 'bookshelf.v1.json'), 'utf8');
const CREATE: PreviewPath = ['resources', 'shelves', 'methods', 'create'];
const LIST: PreviewPath = ['resources', 'shelves', 'methods', 'list'];

class Page extends PreviewPage {
  constructor(state?: { value?: unknown }) {
    super(bundle, state);
  }
  panel(p: PreviewPath): HTMLElement | null {
    return this.doc.querySelector(`.method[data-path='${JSON.stringify(p)}'] .try-it`);
  }
  key(target: Element, key: string, init: Record<string, unknown> = {}): void {
    target.dispatchEvent(
      new this.window.KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init }) as unknown as Event,
    );
  }
}

function methodOf(root: Obj, p: PreviewPath): Obj {
  let v: unknown = root;
  for (const s of p) v = (v as Obj)[String(s)];
  return v as Obj;
}

const SOURCE = 'file:///work/bookshelf.v1.json';

function formMessage(root: Obj, p: PreviewPath): PreviewHostToWebview {
  return { type: 'tryItForm', path: p, form: tryItForm(root, methodOf(root, p), p.join('.')), credential: undefined };
}

describe('discovery preview webview: Try it', function () {
  this.timeout(20_000);
  before(async () => {
    bundle = await bundlePreview();
  });

  it('keeps the values, body and response across a re-render, follows a moved method, and reports a removed one', () => {
    const root = JSON.parse(SAMPLE) as Obj;
    const page = new Page();
    page.send({ type: 'render', source: SOURCE, html: renderPreviewBody(analyzeText(SAMPLE).model!) });
    page.send(formMessage(root, LIST));
    page.send(formMessage(root, CREATE));
    const list = page.panel(LIST)!;
    const pageSize = list.querySelector<HTMLInputElement>('.try-field[data-name="pageSize"] input')!;
    pageSize.value = '7';
    page.send({
      type: 'tryItResult',
      path: LIST,
      response: {
        url: 'https://bookshelf.example.com/v1/shelves',
        method: 'GET',
        status: 200,
        statusText: 'OK',
        headers: [],
        timeMs: 5,
        contentType: 'application/json',
        body: '{"shelves": []}',
        truncated: false,
      },
    });
    const body = page.panel(CREATE)!.querySelector<HTMLTextAreaElement>('textarea.try-body')!;
    body.value = '{"theme": "Sci-fi"}';

    // The resource is renamed: the page is rendered anew, then the host sends the forms at their new paths.
    const renamed = JSON.parse(SAMPLE) as Obj & { resources: Record<string, unknown> };
    renamed.resources.racks = renamed.resources.shelves;
    delete renamed.resources.shelves;
    page.send({ type: 'render', source: SOURCE, html: renderPreviewBody(analyzeText(JSON.stringify(renamed)).model!) });
    const newList: PreviewPath = ['resources', 'racks', 'methods', 'list'];
    const newCreate: PreviewPath = ['resources', 'racks', 'methods', 'create'];
    page.send(formMessage(renamed, newList));
    page.send(formMessage(renamed, newCreate));
    const moved = page.panel(newList);
    assert.ok(moved, 'the panel is under the method at its new path');
    assert.equal(moved.querySelector<HTMLInputElement>('.try-field[data-name="pageSize"] input')!.value, '7');
    assert.match(moved.querySelector('.try-result')!.textContent ?? '', /200 OK/);
    [...moved.querySelectorAll<HTMLButtonElement>('.try-result button')]
      .find((b) => b.textContent === 'Open response in editor')!
      .click();
    assert.deepEqual(page.posted[page.posted.length - 1], { type: 'tryItOpenResponse', path: newList });
    assert.equal(
      page.panel(newCreate)!.querySelector<HTMLTextAreaElement>('textarea.try-body')!.value,
      '{"theme": "Sci-fi"}',
    );
    assert.equal(page.doc.querySelectorAll('.try-it').length, 2, 'no panel twice');

    // shelves.list is removed: its panel stays, saying so, values kept, Send disabled.
    const removed = JSON.parse(JSON.stringify(renamed)) as typeof renamed;
    delete (removed.resources.racks as { methods: Obj }).methods.list;
    page.send({ type: 'render', source: SOURCE, html: renderPreviewBody(analyzeText(JSON.stringify(removed)).model!) });
    page.send({ type: 'tryItGone', methodId: 'bookshelf.shelves.list' });
    page.send(formMessage(removed, newCreate));
    const gone = page.doc.querySelector('.try-gone');
    assert.ok(gone, 'the panel of the removed method is still shown');
    assert.match(gone.querySelector('.try-gone-note')!.textContent ?? '', /no longer in the document/);
    assert.equal(gone.querySelector<HTMLInputElement>('.try-field[data-name="pageSize"] input')!.value, '7');
    assert.ok(gone.querySelector<HTMLButtonElement>('.try-send')!.disabled);

    // Closing it tells the host, which stops following it.
    gone.querySelector<HTMLButtonElement>('.try-close')!.click();
    assert.equal(page.doc.querySelector('.try-gone'), null);
    assert.deepEqual(page.posted[page.posted.length - 1], {
      type: 'tryItClose',
      path: newList,
      methodId: 'bookshelf.shelves.list',
    });
    page.window.close();
  });

  it('sends and restores what was typed into parameters named __proto__ and constructor', () => {
    const root = JSON.parse(SAMPLE) as Obj & { resources: { shelves: { methods: { list: { parameters: Obj } } } } };
    const names = ['__proto__', 'constructor', 'toString'];
    for (const n of names)
      Object.defineProperty(root.resources.shelves.methods.list.parameters, n, {
        value: { type: 'string', location: 'query' },
        enumerable: true,
      });
    const text = JSON.stringify(root);
    const html = renderPreviewBody(analyzeText(text).model!);
    const first = new Page();
    first.send({ type: 'render', source: SOURCE, html });
    first.send(formMessage(JSON.parse(text) as Obj, LIST));
    for (const n of names) {
      const input = first.panel(LIST)!.querySelector<HTMLInputElement>(`.try-field[data-name="${n}"] input`)!;
      input.value = `v-${n}`;
      input.dispatchEvent(new first.window.Event('input', { bubbles: true }) as unknown as Event);
    }
    first.panel(LIST)!.querySelector<HTMLButtonElement>('.try-send')!.click();
    const sent = first.posted[first.posted.length - 1] as { type: string; values: { params: Obj } };
    assert.equal(sent.type, 'tryItSend');
    for (const n of names)
      assert.deepEqual(Object.getOwnPropertyDescriptor(sent.values.params, n)?.value, [`v-${n}`], n);
    first.window.close();

    const again = new Page(first.state);
    again.send({ type: 'render', source: SOURCE, html });
    again.send(formMessage(JSON.parse(text) as Obj, LIST));
    for (const n of names)
      assert.equal(
        again.panel(LIST)!.querySelector<HTMLInputElement>(`.try-field[data-name="${n}"] input`)!.value,
        `v-${n}`,
        n,
      );
    again.window.close();
  });

  it('a re-created page (panel shown again, window reloaded) reopens the open panels with what was typed', async () => {
    const root = JSON.parse(SAMPLE) as Obj;
    const html = renderPreviewBody(analyzeText(SAMPLE).model!);
    const first = new Page();
    first.send({ type: 'render', source: SOURCE, html });
    first.send(formMessage(root, LIST));
    first.send(formMessage(root, CREATE));
    const type = (target: HTMLInputElement | HTMLTextAreaElement, value: string) => {
      target.value = value;
      target.dispatchEvent(new first.window.Event('input', { bubbles: true }) as unknown as Event);
    };
    type(first.panel(LIST)!.querySelector<HTMLInputElement>('.try-field[data-name="pageSize"] input')!, '7');
    type(first.panel(CREATE)!.querySelector<HTMLTextAreaElement>('textarea.try-body')!, '{"theme": "Sci-fi"}');
    first.window.close();
    // The state VS Code hands back to a restored panel names the document to show again.
    assert.equal((first.state.value as { source?: string }).source, SOURCE);

    // The host knows nothing open (a reloaded window): the page asks for both forms after its first render.
    const second = new Page(first.state);
    second.send({ type: 'render', source: SOURCE, html });
    await new Promise((r) => setTimeout(r, 20));
    const asked = second.posted.filter((m) => m.type === 'tryIt').map((m) => (m as { path: PreviewPath }).path);
    assert.deepEqual(asked, [LIST, CREATE]);
    second.send(formMessage(root, LIST));
    second.send(formMessage(root, CREATE));
    assert.equal(
      second.panel(LIST)!.querySelector<HTMLInputElement>('.try-field[data-name="pageSize"] input')!.value,
      '7',
    );
    assert.equal(
      second.panel(CREATE)!.querySelector<HTMLTextAreaElement>('textarea.try-body')!.value,
      '{"theme": "Sci-fi"}',
    );

    // The host re-sends the form of a panel it knows open (the panel hidden and shown): asked for no second time.
    second.panel(CREATE)!.querySelector<HTMLButtonElement>('.try-close')!.click();
    const third = new Page(second.state);
    third.send({ type: 'render', source: SOURCE, html });
    third.send(formMessage(root, LIST));
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(third.posted.filter((m) => m.type === 'tryIt').length, 0, 'a closed panel is not reopened');
    assert.equal(
      third.panel(LIST)!.querySelector<HTMLInputElement>('.try-field[data-name="pageSize"] input')!.value,
      '7',
    );
    assert.equal(third.panel(CREATE), null);
    second.window.close();
    third.window.close();
  });

  it('the body editor: Ctrl+Space asks the host, the list is a listbox the keyboard moves through and accepts', () => {
    const root = JSON.parse(SAMPLE) as Obj;
    const page = new Page();
    page.send({ type: 'render', source: SOURCE, html: renderPreviewBody(analyzeText(SAMPLE).model!) });
    page.send(formMessage(root, CREATE));
    const area = page.panel(CREATE)!.querySelector<HTMLTextAreaElement>('textarea.try-body')!;
    area.value = '{\n  \n}';
    area.focus();
    area.setSelectionRange(4, 4);
    page.key(area, ' ', { ctrlKey: true });
    const ask = page.posted[page.posted.length - 1];
    assert.ok(ask.type === 'tryItCompleteBody', ask.type);
    assert.equal(ask.offset, 4);
    const completions = completeBody(
      root,
      methodOf(root, CREATE).request,
      'bookshelf.shelves.create',
      ask.body,
      ask.offset,
    );
    assert.ok(completions.items.length >= 2);
    page.send({ type: 'tryItBodyCompletions', path: CREATE, seq: ask.seq - 1, completions });
    assert.equal(page.doc.querySelectorAll('[role="option"]').length, 0, 'a stale answer is dropped');
    page.send({ type: 'tryItBodyCompletions', path: CREATE, seq: ask.seq, completions });
    const options = [...page.doc.querySelectorAll<HTMLElement>('[role="listbox"] [role="option"]')];
    assert.equal(options.length, completions.items.length);
    assert.equal(area.getAttribute('aria-expanded'), 'true');
    assert.equal(area.getAttribute('aria-activedescendant'), options[0].id);
    assert.equal(options[0].getAttribute('aria-selected'), 'true');
    page.key(area, 'ArrowDown');
    assert.equal(area.getAttribute('aria-activedescendant'), options[1].id);
    page.key(area, 'ArrowUp');
    page.key(area, 'ArrowUp');
    assert.equal(area.getAttribute('aria-activedescendant'), options[options.length - 1].id, 'wraps around');
    page.key(area, 'ArrowDown');
    page.key(area, 'Enter');
    const first = completions.items[0];
    assert.equal(area.value, `{\n  ${first.insertText}\n}`);
    assert.equal(area.selectionStart, 4 + first.caret);
    assert.equal(area.getAttribute('aria-expanded'), 'false');

    page.key(area, ' ', { ctrlKey: true });
    const again = page.posted[page.posted.length - 1];
    assert.ok(again.type === 'tryItCompleteBody');
    page.send({ type: 'tryItBodyCompletions', path: CREATE, seq: again.seq, completions });
    assert.ok(page.doc.querySelectorAll('[role="option"]').length > 0);
    page.key(area, 'Escape');
    assert.equal(page.doc.querySelectorAll('[role="option"]').length, 0, 'Escape closes the list');
    assert.equal(area.hasAttribute('aria-activedescendant'), false);
    page.window.close();
  });
});
