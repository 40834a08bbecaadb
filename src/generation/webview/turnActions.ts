// What a user can do with a turn besides reading it: edit the prompt and send it again (later turns
// are replaced once the host confirmed), Retry a failed reply, Regenerate the last one.
import type { TurnState, WebviewToHost } from '../protocol';
import { button, el } from './dom';

export interface TurnActionContext {
  turnId: string;
  kind: 'prompt' | 'functionResult';
  post(m: WebviewToHost): void;
}

export class TurnActions {
  /** Sits in the prompt's corner: Edit. */
  readonly promptBar = el('div', { class: 'turn-actions prompt-actions' });
  /** Sits in the reply's head: Retry or Regenerate. */
  readonly replyBar = el('div', { class: 'turn-actions reply-actions' });
  private editing: HTMLElement | undefined;

  constructor(
    private readonly ctx: TurnActionContext,
    private readonly promptText: HTMLElement,
  ) {}

  /** Shows the actions that apply: only the last reply can be sent again; nothing while a reply streams. */
  update(state: TurnState, last: boolean, busy: boolean): void {
    const edit =
      this.ctx.kind === 'prompt'
        ? button('Edit', () => this.startEdit(), {
            class: 'link-button',
            disabled: busy,
            title: 'Edit this prompt and send it again (the turns after it are replaced)',
            'data-testid': 'edit-prompt',
          })
        : '';
    this.promptBar.replaceChildren(edit);
    const settled = state !== 'streaming' && state !== 'awaitingApproval';
    const again =
      last && settled
        ? button(state === 'error' ? 'Retry' : 'Regenerate', () => this.resend(), {
            class: state === 'error' ? 'link-button primary-link' : 'link-button',
            disabled: busy,
            title: state === 'error' ? 'Send this prompt again' : 'Ask for another reply to this prompt',
            'data-testid': state === 'error' ? 'retry' : 'regenerate',
          })
        : '';
    this.replyBar.replaceChildren(again);
  }

  private resend(prompt?: string): void {
    this.ctx.post({ type: 'resend', turnId: this.ctx.turnId, prompt });
  }

  private startEdit(): void {
    const original = this.promptText.textContent ?? '';
    const input = el('textarea', {
      class: 'prompt-input edit-input',
      rows: String(Math.min(8, Math.max(2, original.split('\n').length))),
      'aria-label': 'Edited prompt',
      'data-testid': 'edit-input',
    });
    input.value = original;
    const done = () => {
      this.editing?.remove();
      this.editing = undefined;
      this.promptText.hidden = false;
      this.promptBar.hidden = false;
    };
    const submit = () => {
      const text = input.value.trim();
      if (!text) return;
      done();
      this.resend(text);
    };
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        submit();
      } else if (e.key === 'Escape') {
        e.preventDefault();
        done();
      }
    });
    this.editing = el(
      'div',
      { class: 'edit-box' },
      input,
      el(
        'div',
        { class: 'edit-row' },
        button('Cancel', done),
        button('Send', submit, { class: 'primary', 'data-testid': 'edit-send' }),
      ),
    );
    this.promptText.hidden = true;
    this.promptBar.hidden = true;
    this.promptText.after(this.editing);
    input.focus();
  }
}
