// The panel's browser code, bundled as shipped and run in happy-dom with a fake VS Code API:
// model HTML stays inert, code actions and links go through the host, signals are rendered,
// and a 2,000-chunk stream is rendered in throttled batches, not once per chunk.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { build } from 'esbuild';
import { Window } from 'happy-dom';
import type { HostToWebview, PanelInit, TurnSummary, WebviewToHost } from '../../../src/generation/protocol';
import { DEFAULT_SETTINGS } from '../../../src/generation/core/settings';
import { parseAs } from '../../support/typedJson';

let bundle: string;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function summary(extra: Partial<TurnSummary> = {}): TurnSummary {
  return {
    state: 'done',
    promptRatings: [],
    ratings: [],
    citations: [],
    incomplete: false,
    functionCalls: [],
    ...extra,
  };
}

function initData(): PanelInit {
  return {
    settings: DEFAULT_SETTINGS,
    models: ['models/gemini-2.5-flash'],
    conversation: { id: 'c1', title: 'New chat', updated: 1 },
    conversations: [],
    turns: [],
    endpoint: { sandbox: true, hasKey: true },
    busy: false,
    surface: 'view',
    testAcks: true,
  };
}

class Panel {
  readonly window = new Window({ url: 'https://webview.test/' });
  readonly posted: WebviewToHost[] = [];

  constructor() {
    const w = this.window as unknown as Record<string, unknown>;
    w.acquireVsCodeApi = () => ({
      postMessage: (m: WebviewToHost) => this.posted.push(parseAs<WebviewToHost>(JSON.stringify(m))),
      getState: () => undefined,
      setState: () => undefined,
    });
    w.__xss = 0;
    this.window.document.body.innerHTML = '<div id="app"></div>';
    (this.window as unknown as { eval(code: string): void }).eval(bundle);
  }

  send(m: HostToWebview): void {
    this.window.dispatchEvent(new this.window.MessageEvent('message', { data: m }));
  }

  get doc(): Document {
    return this.window.document as unknown as Document;
  }

  acks(turnId: string) {
    return this.posted.filter(
      (p): p is Extract<WebviewToHost, { type: 'rendered' }> => p.type === 'rendered' && p.turnId === turnId,
    );
  }

  stream(turnId: string, pieces: string[], end: TurnSummary) {
    this.send({
      type: 'turnStart',
      turn: {
        id: turnId,
        prompt: 'q',
        kind: 'prompt',
        model: 'models/m',
        text: '',
        thoughts: '',
        summary: summary({ state: 'streaming' }),
      },
    });
    for (const p of pieces) this.send({ type: 'delta', turnId, text: p, thought: '' });
    this.send({ type: 'turnEnd', turnId, text: pieces.join(''), summary: end });
  }

  close() {
    this.window.close();
  }
}

describe('generation webview', function () {
  this.timeout(20_000);
  before(async () => {
    const out = await build({
      entryPoints: [path.resolve(__dirname, '../../../src/generation/webview/main.ts')],
      bundle: true,
      platform: 'browser',
      format: 'iife',
      target: 'es2022',
      write: false,
      logLevel: 'silent',
    });
    bundle = out.outputFiles[0].text;
  });

  it('announces itself, then keeps model HTML inert and shows it as text', async () => {
    const p = new Panel();
    assert.deepEqual(p.posted[0], { type: 'ready' });
    p.send({ type: 'init', data: initData() });
    const evil =
      'Hi <script>window.__xss = 1</script>\n\n<img src="x" onerror="window.__xss = 2">\n\n[click](javascript:window.__xss=3) [ok](https://example.com/a)\n';
    p.stream('t1', [evil.slice(0, 10), evil.slice(10)], summary());
    await sleep(80);
    const answer = p.doc.querySelector('[data-turn="t1"] .answer')!;
    assert.equal(answer.querySelector('script'), null);
    assert.equal(answer.querySelector('[onerror]'), null);
    assert.equal(answer.querySelector('img'), null);
    for (const a of answer.querySelectorAll('a'))
      assert.ok(!/^javascript:/i.test(a.getAttribute('href') ?? ''), a.outerHTML);
    assert.match(answer.textContent, /<script>window.__xss = 1<\/script>/);
    assert.equal((p.window as unknown as { __xss: number }).__xss, 0);
    const link = [...answer.querySelectorAll('a')].find((a) => a.getAttribute('href') === 'https://example.com/a')!;
    (link as HTMLElement).click();
    assert.deepEqual(p.posted[p.posted.length - 1], { type: 'openLink', href: 'https://example.com/a' });
    const last = p.acks('t1').pop()!;
    assert.equal(last.state, 'done');
    assert.equal(last.visibleText, answer.textContent);
    p.close();
  });

  it("shows the prompt's token count while it is typed, and none once it is sent", () => {
    const p = new Panel();
    p.send({ type: 'init', data: initData() });
    const prompt = p.doc.querySelector<HTMLTextAreaElement>('[data-testid="prompt"]')!;
    const count = p.doc.querySelector('.tokens')!;
    prompt.value = 'name three rivers';
    prompt.dispatchEvent(new p.window.Event('input') as unknown as Event);
    p.send({ type: 'tokens', count: 4 });
    assert.equal(count.textContent, '4 tokens');
    p.send({
      type: 'turnStart',
      turn: {
        id: 't1',
        prompt: 'name three rivers',
        kind: 'prompt',
        model: 'models/m',
        text: '',
        thoughts: '',
        summary: summary({ state: 'streaming' }),
      },
    });
    assert.equal(prompt.value, '');
    assert.equal(count.textContent, '', 'the sent prompt keeps no count');
    p.send({ type: 'tokens', count: 4 });
    assert.equal(count.textContent, '', 'a late count for the sent prompt is dropped');
    p.close();
  });

  it('reports what it rendered only when the host asks for test reports', async () => {
    const quiet = new Panel();
    quiet.send({ type: 'init', data: { ...initData(), testAcks: false } });
    quiet.stream('q1', ['Hello ', 'there'], summary());
    await sleep(80);
    assert.match(quiet.doc.querySelector('[data-turn="q1"] .answer')!.textContent, /Hello there/);
    assert.deepEqual(
      quiet.posted.filter((m) => m.type === 'rendered'),
      [],
      'no render reports outside test mode',
    );
    quiet.close();
    const tested = new Panel();
    tested.send({ type: 'init', data: initData() });
    tested.stream('q2', ['Hello'], summary());
    await sleep(80);
    assert.equal(tested.acks('q2').pop()?.visibleText.trim(), 'Hello');
    tested.close();
  });

  it('keeps the header to one compact row (chat, model, settings popover, menu) whose menu reaches every action', () => {
    const p = new Panel();
    const data = initData();
    data.conversations = [{ id: 'c0', title: 'Older chat', updated: 0 }];
    p.send({ type: 'init', data });
    const header = p.doc.querySelector('header')!;
    assert.deepEqual(
      [...header.children].map((c) => c.tagName),
      ['SELECT', 'DIV', 'DETAILS', 'DIV'],
      'conversation picker, model picker, settings popover and menu, nothing else in the row',
    );
    const picker = p.doc.querySelector('[data-testid="conversation-picker"]') as HTMLSelectElement;
    assert.deepEqual(
      [...picker.options].map((o) => o.textContent),
      ['New chat', 'Older chat'],
    );
    const trigger = p.doc.querySelector('[data-testid="conversation-actions"]') as HTMLButtonElement;
    assert.equal(trigger.getAttribute('aria-label'), 'Conversation actions');
    const menu = p.doc.querySelector('[role="menu"]') as HTMLElement;
    assert.equal(menu.hidden, true);
    trigger.click();
    assert.equal(menu.hidden, false);
    assert.equal(trigger.getAttribute('aria-expanded'), 'true');
    assert.equal(p.doc.activeElement?.getAttribute('data-testid'), 'new-chat', 'opening focuses the first entry');
    menu.dispatchEvent(new p.window.KeyboardEvent('keydown', { key: 'ArrowUp', bubbles: true }) as unknown as Event);
    assert.equal(p.doc.activeElement?.getAttribute('data-testid'), 'delete-conversation', 'arrow keys wrap around');
    menu.dispatchEvent(new p.window.KeyboardEvent('keydown', { key: 'Escape', bubbles: true }) as unknown as Event);
    assert.equal(menu.hidden, true);
    assert.equal(p.doc.activeElement, trigger, 'Escape hands focus back to the button');
    const pick = (id: string) => {
      trigger.click();
      (p.doc.querySelector(`[data-testid="${id}"]`) as HTMLElement).click();
      assert.equal(menu.hidden, true, `${id} closes the menu`);
      return p.posted[p.posted.length - 1];
    };
    assert.deepEqual(pick('new-chat'), { type: 'newChat' });
    assert.deepEqual(pick('rename'), { type: 'rename' });
    assert.deepEqual(pick('open-in-editor'), { type: 'openInEditor' });
    assert.deepEqual(pick('export-md'), { type: 'export', format: 'markdown' });
    assert.deepEqual(pick('export-json'), { type: 'export', format: 'json' });
    picker.value = 'c0';
    assert.deepEqual(pick('delete-conversation'), { type: 'deleteConversation', id: 'c0' });
    p.close();
  });

  it('gives code blocks Copy, Insert and New file actions that carry the code', async () => {
    const p = new Panel();
    p.send({ type: 'init', data: initData() });
    p.stream('t2', ['Here:\n\n```ts\nconst a = 1;\n```\n'], summary());
    await sleep(60);
    const buttons = [...p.doc.querySelectorAll('[data-turn="t2"] .code-actions button')] as HTMLButtonElement[];
    assert.deepEqual(
      buttons.map((b) => b.textContent),
      ['Copy', 'Insert', 'New file'],
    );
    buttons[0].click();
    buttons[1].click();
    buttons[2].click();
    assert.deepEqual(p.posted.slice(-3), [
      { type: 'copyCode', code: 'const a = 1;\n' },
      { type: 'insertCode', code: 'const a = 1;\n' },
      { type: 'newFile', code: 'const a = 1;\n', language: 'ts' },
    ]);
    p.close();
  });

  it('shows no code block for a fence with nothing in it (a reply stopped right after "```js")', async () => {
    const p = new Panel();
    p.send({ type: 'init', data: initData() });
    // While streaming, the tail ends at the opening fence; then the reply stops there for safety.
    p.stream('t9', ['Words.\n\n', '```js\n'], summary());
    await sleep(60);
    const turn = p.doc.querySelector('[data-turn="t9"]')!;
    assert.equal(turn.querySelectorAll('pre').length, 0, turn.innerHTML);
    assert.equal(turn.querySelectorAll('.code-actions').length, 0);
    for (const ack of p.acks('t9')) assert.deepEqual(ack.codeBlocks, [], `while ${ack.state}`);
    p.close();
  });

  it('a safety probability named constructor or toString is an unknown one: highlighted, as any unknown', async () => {
    const p = new Panel();
    p.send({ type: 'init', data: initData() });
    const words = ['constructor', 'toString', '__proto__'];
    p.stream(
      'u',
      ['text'],
      summary({
        ratings: words.map((w) => ({ category: 'HARM_CATEGORY_HATE_SPEECH', probability: w, blocked: false })),
      }),
    );
    await sleep(60);
    const u = p.doc.querySelector('[data-turn="u"]')!;
    assert.equal(u.querySelectorAll('.rating-high').length, words.length);
    assert.match(u.querySelector('.safety summary')!.textContent, /3 notable/);
  });

  it('shows block reasons, finish reasons, safety, citations, usage and function-call approval', async () => {
    const p = new Panel();
    p.send({ type: 'init', data: initData() });
    p.stream(
      'b',
      [],
      summary({
        state: 'blocked',
        block: {
          reason: 'SAFETY',
          label: 'Prompt blocked: SAFETY',
          meaning: 'blocked for safety',
          advice: 'rephrase',
          warning: true,
        },
        promptRatings: [{ category: 'HARM_CATEGORY_HATE_SPEECH', probability: 'HIGH', blocked: true }],
      }),
    );
    p.stream(
      'r',
      ['Some cited text here.'],
      summary({
        finish: { reason: 'RECITATION', label: 'Stopped for recitation', meaning: 'm', advice: 'a', warning: true },
        citations: [{ n: 1, uri: 'https://example.com/src', license: 'mit', text: 'cited text', start: 5, end: 15 }],
        usage: { prompt: 3, candidates: 5, total: 8 },
        modelVersion: 'gemini-x',
      }),
    );
    p.stream(
      'f',
      [],
      summary({ state: 'awaitingApproval', functionCalls: [{ name: 'list_workspace_files', args: {} }] }),
    );
    p.stream(
      'e',
      [],
      summary({ finish: { reason: 'STOP', label: 'Finished', meaning: 'natural stop', warning: false } }),
    );
    await sleep(60);
    const b = p.doc.querySelector('[data-turn="b"]')!;
    assert.match(b.textContent, /Prompt blocked: SAFETY/);
    assert.ok(b.querySelector('.rating-high'), 'a blocked rating is highlighted');
    const r = p.doc.querySelector('[data-turn="r"]')!;
    assert.match(r.textContent, /Stopped for recitation/);
    assert.equal(r.querySelector('.citations a')!.getAttribute('href'), 'https://example.com/src');
    assert.equal(r.querySelector('.cited')!.textContent, 'cited text');
    assert.equal(
      r.querySelector('.answer mark[data-citation="1"]')!.textContent,
      'cited text',
      'the passage is marked in the reply',
    );
    const before = p.posted.length;
    (r.querySelector('.answer .citation-ref a') as HTMLElement).click();
    assert.equal(p.posted.length, before, 'the [1] link stays in the panel instead of opening a URL');
    assert.ok(
      r.querySelector('.citations li[data-source="1"]')!.classList.contains('flash'),
      'the source entry is shown',
    );
    (r.querySelector('.citations li[data-source="1"] .show-passage') as HTMLElement).click();
    assert.ok(
      r.querySelector('.answer mark[data-citation="1"]')!.classList.contains('flash'),
      'the source entry leads back to its passage',
    );
    assert.equal(
      p.acks('r').pop()!.visibleText.trim(),
      'Some cited text here.',
      'reference numbers are not part of the reply text',
    );
    assert.match(r.querySelector('.meta')!.textContent, /prompt 3 · reply 5 · total 8 · model gemini-x/);
    const run = [...p.doc.querySelectorAll('[data-turn="f"] .call button')].find(
      (x) => x.textContent === 'Run',
    ) as HTMLButtonElement;
    run.click();
    assert.deepEqual(p.posted[p.posted.length - 1], { type: 'decideCall', turnId: 'f', approve: true });
    assert.ok(
      p
        .acks('b')
        .pop()!
        .notices.some((n) => n.includes('Prompt blocked: SAFETY')),
    );
    assert.ok(
      p
        .acks('e')
        .pop()!
        .notices.some((n) => n.startsWith('Empty reply — The model ended with STOP without any text.')),
      'an empty STOP is explained, not silent',
    );
    assert.ok(
      !p
        .acks('r')
        .pop()!
        .notices.some((n) => n.startsWith('Empty reply')),
    );
    p.close();
  });

  it('renders a 2,000-chunk stream in throttled batches with the exact text', async () => {
    const p = new Panel();
    p.send({ type: 'init', data: initData() });
    // Token-sized pieces, a paragraph every 20: the shape of a long streamed answer.
    const pieces = Array.from(
      { length: 2000 },
      (_, i) => `w${i + 1}${i % 20 === 19 ? '.\n\n' : i % 7 === 3 ? ' **bold**' : ''} `,
    );
    p.send({
      type: 'turnStart',
      turn: {
        id: 'big',
        prompt: 'q',
        kind: 'prompt',
        model: 'm',
        text: '',
        thoughts: '',
        summary: summary({ state: 'streaming' }),
      },
    });
    for (let i = 0; i < pieces.length; i++) {
      p.send({ type: 'delta', turnId: 'big', text: pieces[i], thought: '' });
      if (i % 100 === 99) await sleep(45);
    }
    p.send({ type: 'turnEnd', turnId: 'big', text: pieces.join(''), summary: summary() });
    await sleep(60);
    const acks = p.acks('big');
    assert.ok(acks.length < 60, `renders are batched, not one per chunk: ${acks.length}`);
    assert.equal(acks[acks.length - 1].textLength, pieces.join('').length);
    assert.match(acks[acks.length - 1].visibleText, /w1998 w1999 bold w2000\.\s*$/);
    assert.ok(!acks[acks.length - 1].visibleText.includes('**'));
    p.close();
  });

  it('shows a cited passage as the text it renders to, not as Markdown source', async () => {
    const p = new Panel();
    p.send({ type: 'init', data: initData() });
    const text = 'Use **bold** and `code` with a [link](https://example.com) \\* here.';
    p.stream(
      'm',
      [text],
      summary({ citations: [{ n: 1, uri: 'https://example.com/src', text, start: 0, end: text.length }] }),
    );
    await sleep(60);
    const cited = p.doc.querySelector('[data-turn="m"] .cited')!.textContent;
    assert.equal(cited, 'Use bold and code with a link * here.');
    p.close();
  });

  it('offers Edit on prompts and Retry / Regenerate on the last reply only, never while a reply streams', async () => {
    const p = new Panel();
    p.send({ type: 'init', data: initData() });
    p.stream('one', ['First answer.'], summary());
    p.stream(
      'two',
      ['Partial'],
      summary({
        state: 'error',
        error: { code: 503, status: 'UNAVAILABLE', message: 'overloaded', advice: 'retry', action: 'retry' },
      }),
    );
    await sleep(60);
    const q = (sel: string) => [...p.doc.querySelectorAll(sel)] as HTMLButtonElement[];
    assert.equal(q('[data-testid="edit-prompt"]').length, 2, 'every prompt can be edited');
    assert.equal(q('[data-turn="one"] [data-testid="regenerate"], [data-turn="one"] [data-testid="retry"]').length, 0);
    const retry = q('[data-turn="two"] [data-testid="retry"]');
    assert.equal(retry.length, 1, 'the failed last reply offers Retry');
    retry[0].click();
    assert.deepEqual(p.posted[p.posted.length - 1], { type: 'resend', turnId: 'two' });

    // Edit: the prompt turns into a text box; Enter sends the new text, Escape would cancel.
    q('[data-turn="one"] [data-testid="edit-prompt"]')[0].click();
    const box = p.doc.querySelector('[data-turn="one"] [data-testid="edit-input"]') as HTMLTextAreaElement;
    assert.equal(box.value, 'q');
    assert.equal(p.doc.activeElement, box, 'the edit box takes focus');
    box.value = 'q, but better';
    box.dispatchEvent(new p.window.KeyboardEvent('keydown', { key: 'Enter', bubbles: true }) as unknown as Event);
    assert.deepEqual(p.posted[p.posted.length - 1], { type: 'resend', turnId: 'one', prompt: 'q, but better' });
    assert.equal(p.doc.querySelector('[data-turn="one"] [data-testid="edit-input"]'), null, 'the box closes');

    // A resend: the host names the turns kept, then the new turn streams; nothing can be resent meanwhile.
    p.send({ type: 'conversation', info: { id: 'c1', title: 'q, but better', updated: 2 }, turns: [] });
    assert.equal(p.doc.querySelectorAll('[data-turn]').length, 0);
    assert.equal(
      (p.doc.querySelector('[data-testid="conversation-picker"] option') as HTMLOptionElement).text,
      'q, but better',
    );
    p.send({
      type: 'turnStart',
      turn: {
        id: 'three',
        prompt: 'q, but better',
        kind: 'prompt',
        model: 'models/m',
        text: '',
        thoughts: '',
        summary: summary({ state: 'streaming' }),
      },
    });
    await sleep(60);
    assert.ok(
      q('[data-testid="edit-prompt"]').every((b) => b.disabled),
      'no edit while a reply streams',
    );
    assert.equal(q('[data-testid="regenerate"], [data-testid="retry"]').length, 0);
    p.send({ type: 'turnEnd', turnId: 'three', text: 'Better answer.', summary: summary() });
    await sleep(60);
    const regenerate = q('[data-turn="three"] [data-testid="regenerate"]');
    assert.equal(regenerate.length, 1, 'a finished last reply offers Regenerate');
    assert.equal(regenerate[0].disabled, false);
    p.close();
  });

  it('flags a model the endpoint does not list, and picks a listed one from the header', () => {
    const p = new Panel();
    const data = initData();
    data.settings = { ...data.settings, model: 'models/gemini-typo' };
    data.models = ['models/gemini-2.5-flash', 'models/gemini-2.5-pro'];
    p.send({ type: 'init', data });
    const picker = p.doc.querySelector('[data-testid="model-picker"]') as HTMLSelectElement;
    assert.equal(picker.getAttribute('aria-invalid'), 'true');
    assert.equal(picker.value, 'models/gemini-typo');
    assert.match([...picker.options].find((o) => o.value === picker.value)!.text, /gemini-typo \(not listed\)/);
    assert.match(picker.title, /not among the 2 models/);
    picker.value = 'models/gemini-2.5-pro';
    picker.dispatchEvent(new p.window.Event('change') as unknown as Event);
    const sent = p.posted[p.posted.length - 1];
    assert.ok(sent.type === 'settings' && sent.settings.model === 'models/gemini-2.5-pro', JSON.stringify(sent));
    assert.equal(picker.getAttribute('aria-invalid'), 'false');
    assert.equal([...picker.options].length, 2, 'the unlisted model is no longer offered once another is picked');
    p.close();
  });
});
