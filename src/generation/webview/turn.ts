// One exchange in the conversation: the prompt, the streamed answer (Markdown), and every signal
// the API gave about it (finish reason, block, safety, citations, usage, errors, function calls).
import type { TurnSummary, TurnView, WebviewToHost } from '../protocol';
import { button, el } from './dom';
import { markCitations } from './citeMarks';
import { codeLanguage, decodeInline, renderMarkdown } from './markdown';
import { sourcesList } from './sources';
import { stableSplit } from './streamSplit';
import { TurnActions } from './turnActions';
import { ownValue } from '../../shared/wire/ownKeys';

export type Post = (m: WebviewToHost) => void;

const PROBABILITY_RANK: Record<string, number> = { NEGLIGIBLE: 0, LOW: 1, MEDIUM: 2, HIGH: 3 };

function short(category: string): string {
  return category
    .replace(/^HARM_CATEGORY_/, '')
    .replace(/_/g, ' ')
    .toLowerCase();
}

export class TurnElement {
  readonly root: HTMLElement;
  private readonly answer: HTMLElement;
  /** Blocks already rendered during streaming; re-rendering only the tail keeps long replies cheap. */
  private readonly frozen: HTMLElement;
  private readonly tail: HTMLElement;
  private frozenLength = 0;
  private readonly thoughts: HTMLDetailsElement;
  private readonly thoughtBody: HTMLElement;
  private readonly extras: HTMLElement;
  private readonly stateBadge: HTMLElement;
  private readonly actions: TurnActions;
  /** Whether this is the conversation's last turn (the only one that can be sent again) and a reply streams. */
  private place = { last: false, busy: false };
  text = '';
  thoughtText = '';
  summary: TurnSummary;
  notices: string[] = [];

  constructor(
    readonly view: TurnView,
    private readonly post: Post,
  ) {
    this.text = view.text;
    this.thoughtText = view.thoughts;
    this.summary = view.summary;
    this.stateBadge = el('span', { class: 'state' });
    this.frozen = el('div', { class: 'md-frozen' });
    this.tail = el('div', { class: 'md-tail' });
    this.answer = el('div', { class: 'answer markdown', 'data-testid': 'reply' }, this.frozen, this.tail);
    this.thoughtBody = el('div', { class: 'thought-body' });
    this.thoughts = el(
      'details',
      { class: 'thoughts', hidden: true },
      el('summary', { text: 'Thoughts' }),
      this.thoughtBody,
    );
    this.extras = el('div', { class: 'extras' });
    const promptText = el('div', { class: 'prompt-text', text: view.prompt });
    this.actions = new TurnActions({ turnId: view.id, kind: view.kind, post }, promptText);
    this.root = el(
      'section',
      { class: 'turn', 'data-turn': view.id },
      el(
        'div',
        { class: view.kind === 'prompt' ? 'prompt' : 'prompt function-result' },
        el(
          'div',
          { class: 'prompt-head' },
          el('span', { class: 'who', text: view.kind === 'prompt' ? 'You' : 'Function results' }),
          this.actions.promptBar,
        ),
        promptText,
      ),
      el(
        'div',
        { class: 'reply' },
        el(
          'div',
          { class: 'reply-head' },
          el('span', { class: 'who', text: view.model }),
          this.stateBadge,
          this.actions.replyBar,
        ),
        this.thoughts,
        this.answer,
        this.extras,
      ),
    );
    this.answer.addEventListener('click', (e) => {
      const a = (e.target as HTMLElement).closest('a');
      if (!a) return;
      e.preventDefault();
      const ref = a.getAttribute('data-citation-ref');
      if (ref) {
        this.showSource(Number(ref));
        return;
      }
      const href = a.getAttribute('href');
      if (href) this.post({ type: 'openLink', href });
    });
  }

  append(text: string, thought: string): void {
    this.text += text;
    this.thoughtText += thought;
  }

  /** Re-renders text and signals. While streaming only the unfinished tail is re-parsed. */
  render(): void {
    if (this.summary.state === 'streaming') {
      const split = stableSplit(this.text, this.frozenLength);
      if (split > this.frozenLength) {
        const block = el('div', {});
        block.innerHTML = renderMarkdown(this.text.slice(this.frozenLength, split));
        this.decorateCode(block);
        this.frozen.append(...block.childNodes);
        this.frozenLength = split;
      }
      this.tail.innerHTML = renderMarkdown(this.text.slice(this.frozenLength));
      this.decorateCode(this.tail);
    } else {
      // Final: one render of the whole text, so constructs spanning blocks come out exactly.
      this.frozen.replaceChildren();
      this.frozenLength = 0;
      this.tail.innerHTML = renderMarkdown(this.text);
      this.decorateCode(this.tail);
      this.markCited();
    }
    if (this.thoughtText) {
      this.thoughts.hidden = false;
      this.thoughtBody.textContent = this.thoughtText;
    }
    this.stateBadge.textContent =
      this.summary.state === 'streaming'
        ? 'streaming…'
        : this.summary.state === 'awaitingApproval'
          ? 'waiting for your approval'
          : this.summary.state;
    this.stateBadge.className = `state state-${this.summary.state}`;
    this.actions.update(this.summary.state, this.place.last, this.place.busy);
    this.renderExtras();
  }

  /** Moves the turn's actions along with the conversation: only the last reply offers Retry / Regenerate. */
  setPlace(last: boolean, busy: boolean): void {
    this.place = { last, busy };
    this.actions.update(this.summary.state, last, busy);
  }

  /** The answer as the user reads it (code-action labels and citation numbers left out once the reply is final). */
  get visibleText(): string {
    if (this.summary.state === 'streaming') return this.answer.textContent ?? '';
    const copy = this.answer.cloneNode(true) as HTMLElement;
    for (const chrome of copy.querySelectorAll('.code-actions, .citation-ref')) chrome.remove();
    return copy.textContent ?? '';
  }

  /** The code blocks of the reply as shown, each with whether its action bar is in front of it. */
  get codeBlocks(): { language: string; code: string; actions: boolean }[] {
    return [...this.answer.querySelectorAll('pre')].flatMap((pre) => {
      const code = pre.querySelector('code');
      if (!code) return [];
      const actions = !!pre.previousElementSibling?.classList.contains('code-actions');
      return [{ language: codeLanguage(code), code: code.textContent ?? '', actions }];
    });
  }

  /** What each citation highlights in the reply, as the user sees it. */
  get citedText(): string[] {
    return this.summary.citations.map((c) =>
      [...this.answer.querySelectorAll(`mark[data-citation="${c.n}"]`)].map((m) => m.textContent ?? '').join(''),
    );
  }

  private get sourceIdPrefix(): string {
    return `source-${this.view.id}-`;
  }

  /** Highlights each cited passage in the reply, linked to its entry under Sources. */
  private markCited(): void {
    const ranges = this.summary.citations
      .filter((c) => c.start !== undefined && c.end !== undefined)
      .map((c) => ({ n: c.n, start: c.start!, end: c.end!, title: `Source ${c.n}${c.uri ? `: ${c.uri}` : ''}` }));
    markCitations(this.tail, this.text, ranges, this.sourceIdPrefix, decodeInline);
  }

  private showPassage(n: number): void {
    const marks = [...this.answer.querySelectorAll(`mark[data-citation="${n}"]`)];
    if (!marks.length) return;
    (marks[0] as HTMLElement).scrollIntoView?.({ block: 'nearest' });
    for (const m of marks) {
      m.classList.remove('flash');
      void (m as HTMLElement).offsetWidth;
      m.classList.add('flash');
    }
  }

  private showSource(n: number): void {
    const entry = this.extras.querySelector(`[data-source="${n}"]`);
    if (!(entry instanceof HTMLElement)) return;
    entry.scrollIntoView?.({ block: 'nearest' });
    entry.classList.remove('flash');
    void entry.offsetWidth;
    entry.classList.add('flash');
    entry.focus?.({ preventScroll: true });
  }

  private decorateCode(root: HTMLElement): void {
    for (const pre of root.querySelectorAll('pre')) {
      const code = pre.querySelector('code');
      if (!code) continue;
      const source = code.textContent ?? '';
      // A long line scrolls sideways; the keyboard can reach the block to scroll it too.
      pre.tabIndex = 0;
      const lang = codeLanguage(code);
      const bar = el(
        'div',
        { class: 'code-actions' },
        el('span', { class: 'lang', text: lang || 'text' }),
        button('Copy', () => this.post({ type: 'copyCode', code: source }), { title: 'Copy to clipboard' }),
        button('Insert', () => this.post({ type: 'insertCode', code: source }), {
          title: 'Insert at the cursor of the active editor',
        }),
        button('New file', () => this.post({ type: 'newFile', code: source, language: lang }), {
          title: 'Open as a new untitled file',
        }),
      );
      pre.before(bar);
    }
  }

  private renderExtras(): void {
    const s = this.summary;
    const notes: string[] = [];
    const box = el('div', { class: 'extras' });
    const notice = (kind: string, title: string, body?: string, advice?: string, ...rest: Node[]) => {
      notes.push([title, body, advice].filter(Boolean).join(' — '));
      box.append(
        el(
          'div',
          { class: `notice notice-${kind}`, role: kind === 'error' ? 'alert' : undefined, 'data-testid': 'notice' },
          el('strong', { text: title }),
          body ? el('div', { text: body }) : '',
          advice ? el('div', { class: 'advice', text: advice }) : '',
          ...rest,
        ),
      );
    };

    if (s.block) {
      notice(
        'warning',
        s.block.label,
        s.block.meaning + (s.block.message ? ` (${s.block.message})` : ''),
        s.block.advice,
      );
    }
    if (s.error) {
      const action =
        s.error.action === 'setApiKey' ? button('Set API key', () => this.post({ type: 'setApiKey' })) : undefined;
      notice(
        'error',
        `Error ${s.error.code} ${s.error.status}`,
        s.error.message,
        s.error.advice,
        ...(action ? [action] : []),
      );
    }
    if (s.state === 'stopped') notice('info', 'Stopped', 'You stopped this reply; the text above is partial.');
    else if (s.incomplete && s.state !== 'streaming' && !s.error)
      notice('warning', 'Incomplete reply', 'The stream ended without a finish reason; the text above may be partial.');
    if (s.state === 'done' && !this.text.trim() && !s.functionCalls.length && !s.error) {
      notice(
        'warning',
        'Empty reply',
        `The model ended${s.finish ? ` with ${s.finish.reason}` : ''} without any text.`,
        'Resend, rephrase the prompt, or check the finish reason and safety ratings below.',
      );
    }
    if (s.finish && (s.finish.warning || s.finish.reason !== 'STOP')) {
      notice(
        s.finish.reason === 'STOP' ? 'info' : 'warning',
        s.finish.label,
        s.finish.meaning + (s.finishMessage ? ` (${s.finishMessage})` : ''),
        s.finish.advice,
      );
    }

    for (const call of s.functionCalls) {
      const row = el('div', { class: 'call' }, el('code', { text: `${call.name}(${JSON.stringify(call.args)})` }));
      if (s.state === 'awaitingApproval') {
        row.append(
          button('Run', () => this.post({ type: 'decideCall', turnId: this.view.id, approve: true }), {
            class: 'primary',
          }),
          button('Decline', () => this.post({ type: 'decideCall', turnId: this.view.id, approve: false })),
        );
      } else if (call.decision) {
        row.append(el('span', { class: 'decision', text: call.decision }));
      }
      if (call.result) row.append(el('pre', { class: 'call-result', text: call.result }));
      box.append(row);
      notes.push(`function call ${call.name}${call.decision ? ` ${call.decision}` : ''}`);
    }

    const ratings = [
      ...s.promptRatings.map((r) => ({ ...r, on: 'prompt' })),
      ...s.ratings.map((r) => ({ ...r, on: 'reply' })),
    ];
    const notable = ratings.filter((r) => r.blocked || (ownValue(PROBABILITY_RANK, r.probability) ?? 2) >= 1);
    if (ratings.length) {
      const list = el('ul', { class: 'ratings' });
      for (const r of ratings) {
        const bad = r.blocked || (ownValue(PROBABILITY_RANK, r.probability) ?? 2) >= 2;
        list.append(
          el('li', {
            class: bad ? 'rating rating-high' : 'rating',
            text: `${r.on}: ${short(r.category)} ${r.probability.toLowerCase()}${r.blocked ? ' (blocked)' : ''}`,
          }),
        );
      }
      box.append(
        el(
          'details',
          { class: 'safety', open: notable.some((r) => r.blocked || r.probability === 'HIGH') },
          el('summary', { text: `Safety ratings${notable.length ? ` (${notable.length} notable)` : ''}` }),
          list,
        ),
      );
      for (const r of notable) if (r.blocked) notes.push(`blocked by ${short(r.category)}`);
    }

    if (s.citations.length) {
      box.append(
        sourcesList(s.citations, {
          idPrefix: this.sourceIdPrefix,
          hasPassage: (n) => !!this.answer.querySelector(`mark[data-citation="${n}"]`),
          showPassage: (n) => this.showPassage(n),
          openLink: (href) => this.post({ type: 'openLink', href }),
        }),
      );
      notes.push(`${s.citations.length} citation${s.citations.length === 1 ? '' : 's'}`);
    }

    const u = s.usage;
    const meta: string[] = [];
    if (u) {
      meta.push(`tokens: prompt ${u.prompt ?? '–'}`);
      if (u.cached) meta.push(`cached ${u.cached}`);
      meta.push(`reply ${u.candidates ?? 0}`);
      if (u.thoughts) meta.push(`thoughts ${u.thoughts}`);
      meta.push(`total ${u.total ?? '–'}`);
    }
    if (s.modelVersion) meta.push(`model ${s.modelVersion}`);
    if (s.retries) meta.push(`${s.retries} retr${s.retries === 1 ? 'y' : 'ies'}`);
    if (meta.length) box.append(el('div', { class: 'meta', text: meta.join(' · ') }));

    this.extras.replaceChildren(...box.childNodes);
    this.notices = notes;
  }
}
