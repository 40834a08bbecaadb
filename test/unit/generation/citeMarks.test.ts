// Cited passages are marked inside the rendered reply: byte offsets from the API are mapped to the
// right characters past multi-byte text, ranges may cross element boundaries, and the output is
// still free of anything the model could inject.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { build } from 'esbuild';
import { Window } from 'happy-dom';
import { mapCitations } from '../../../src/generation/core/citations';
import type { markCitations as MarkCitations } from '../../../src/generation/webview/citeMarks';

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/** Byte offsets of `passage` (its first occurrence) within `text`, as the API reports them. */
function byteRange(text: string, passage: string): { startIndex: number; endIndex: number } {
  const at = text.indexOf(passage);
  assert.ok(at >= 0, `passage not in text: ${passage}`);
  return { startIndex: bytes(text.slice(0, at)), endIndex: bytes(text.slice(0, at + passage.length)) };
}

interface WebviewSide {
  renderMarkdown(text: string): string;
  decodeInline(text: string): string;
  markCitations: typeof MarkCitations;
}

describe('generation citation marks', function () {
  this.timeout(20_000);
  let window: Window;
  let side: WebviewSide;

  before(async () => {
    // Bundled and run inside the fake browser, as the panel ships: DOMPurify binds to that window.
    const dir = path.resolve(__dirname, '../../../src/generation/webview');
    const out = await build({
      stdin: {
        contents:
          "import { renderMarkdown, decodeInline } from './markdown'; import { markCitations } from './citeMarks'; (window as any).__side = { renderMarkdown, decodeInline, markCitations };",
        resolveDir: dir,
        loader: 'ts',
      },
      bundle: true,
      platform: 'browser',
      format: 'iife',
      target: 'es2022',
      write: false,
      logLevel: 'silent',
    });
    window = new Window({ url: 'https://webview.test/' });
    (window as unknown as { eval(code: string): void }).eval(out.outputFiles[0].text);
    side = (window as unknown as { __side: WebviewSide }).__side;
  });
  after(() => window.close());

  function render(text: string, sources: { startIndex: number; endIndex: number; uri?: string }[]) {
    const root = window.document.createElement('div') as unknown as HTMLElement;
    // happy-dom's parser drops the first block's tags when DOMPurify parses it (browsers do not),
    // so every text opens with a throwaway paragraph and structure is asserted on what follows.
    root.innerHTML = side.renderMarkdown(text);
    const mapped = mapCitations(text, sources);
    const marked = side.markCitations(
      root,
      text,
      mapped.map((c) => ({ n: c.n, start: c.start, end: c.end, title: c.uri })),
      'source-t-',
      (t: string) => side.decodeInline(t),
    );
    const byN = (n: number) =>
      [...root.querySelectorAll(`mark[data-citation="${n}"]`)].map((m) => m.textContent).join('');
    return { root, mapped, marked: [...marked], byN };
  }

  it('marks the right characters after é and emoji, across a code span', () => {
    const text = 'Café 🎉 déjà: run `npm tést` now, then stop.\n';
    const passage = 'déjà: run `npm tést` now';
    const { root, mapped, marked, byN } = render(text, [{ ...byteRange(text, passage), uri: 'https://example.com/a' }]);
    assert.equal(mapped[0].text, passage, 'byte offsets land on the passage, not shifted by é or 🎉');
    assert.deepEqual(marked, [1]);
    assert.equal(byN(1), 'déjà: run npm tést now', 'the rendered passage, backticks gone, is marked');
    const marks = [...root.querySelectorAll('mark[data-citation="1"]')];
    assert.ok(marks.length >= 3, 'one mark per text node: before, inside and after the code span');
    assert.ok(
      marks.some((m) => m.parentElement!.tagName === 'CODE'),
      'the text inside <code> is marked inside <code>',
    );
    assert.equal(root.querySelector('code')!.textContent, 'npm tést', 'the code span keeps its text');
    assert.equal(marks[0].getAttribute('title'), 'https://example.com/a');
    const ref = root.querySelector('sup.citation-ref a')!;
    assert.equal(ref.textContent, '[1]');
    assert.equal(ref.getAttribute('href'), '#source-t-1');
    assert.equal(marks[marks.length - 1].nextSibling, ref.parentNode, 'the [1] link follows the last marked piece');
    assert.ok(!root.textContent.replace('[1]', '').includes('`'));
    assert.equal(
      root.textContent.replace('[1]', ''),
      'Café 🎉 déjà: run npm tést now, then stop.\n',
      'the reply text is otherwise unchanged',
    );
  });

  it('marks a passage that crosses bold text and paragraphs, and overlapping citations nest', () => {
    const text = 'Reply:\n\nIntro **bold ünïcode** tail.\n\nSecond 😀 paragraph here.\n';
    const a = 'ünïcode** tail.\n\nSecond 😀';
    const b = 'tail.';
    const { root, byN } = render(text, [byteRange(text, a), byteRange(text, b)]);
    assert.equal(byN(1), 'ünïcode tail.Second 😀');
    assert.equal(byN(2), 'tail.');
    const inner = root.querySelector('mark[data-citation="2"]')!;
    assert.equal(inner.parentElement!.getAttribute('data-citation'), '1', 'the overlap nests inside citation 1');
    assert.ok(root.querySelector('strong mark[data-citation="1"]'), 'marking inside <strong> keeps it bold');
    assert.equal(root.querySelectorAll('p').length, 2, 'paragraph structure is unchanged');
    assert.deepEqual(
      [...root.querySelectorAll('sup.citation-ref')].map((s) => s.textContent),
      ['[2]', '[1]'],
    );
  });

  it('never turns model text into markup, and adds only marks and reference links', () => {
    const text = 'Reply:\n\nLook: &lt;img src=x onerror=alert(1)&gt; and <b onclick="x()">raw</b> end.\n';
    const { root, byN } = render(text, [byteRange(text, '<b onclick="x()">raw</b>')]);
    assert.equal(byN(1), '<b onclick="x()">raw</b>', 'the literal HTML is marked as text');
    assert.equal(root.querySelector('b'), null);
    assert.equal(root.querySelector('img'), null);
    assert.equal(root.querySelector('[onclick]'), null);
    assert.equal(root.querySelector('[onerror]'), null);
    const tags = new Set([...root.querySelectorAll('*')].map((e) => e.tagName));
    assert.deepEqual([...tags].sort(), ['A', 'MARK', 'P', 'SUP']);
  });

  it('leaves the reply alone when a range is empty or beyond the text', () => {
    const text = 'Short reply.\n';
    const { root, marked } = render(text, [
      { startIndex: 5, endIndex: 5 },
      { startIndex: 400, endIndex: 500 },
    ]);
    assert.deepEqual(marked, []);
    assert.equal(root.querySelector('mark'), null);
    assert.equal(root.innerHTML, side.renderMarkdown(text));
  });
});
