// One cell of the results grid: status, mark against an earlier run, finish reason, tokens, time to first token
// and total, each assertion's verdict, safety ratings, and the output (JSON pretty-printed, else Markdown
// rendered and sanitised; model output never becomes HTML any other way).
import { cellStatus, type CellMark } from '../core/eval/grid';
import type { CellResult } from '../core/eval/runner';
import { el } from '../webview/dom';
import { renderMarkdown } from '../webview/markdown';

/** Rendered HTML of each reply, computed once per cell result (a cell scrolled back into view reuses it). */
const htmlOf = new WeakMap<CellResult, string>();

function jsonText(output: string): string | undefined {
  const t = output.trim();
  if (!/^[[{]/.test(t)) return undefined;
  try {
    return JSON.stringify(JSON.parse(t), null, 2);
  } catch {
    return undefined;
  }
}

const ms = (n: number) => (n >= 10_000 ? `${(n / 1000).toFixed(1)} s` : `${Math.round(n)} ms`);

function outputOf(c: CellResult): HTMLElement {
  if (c.error)
    return el('div', { class: 'output error-text', text: `${c.error.code} ${c.error.status}: ${c.error.message}` });
  if (!c.output)
    return el('div', {
      class: 'output empty',
      text: c.blockReason ? `No reply: the prompt was blocked (${c.blockReason}).` : 'No text in the reply.',
    });
  const json = jsonText(c.output);
  if (json !== undefined) return el('pre', { class: 'output json', text: json });
  const out = el('div', { class: 'output markdown' });
  const html = htmlOf.get(c);
  if (html !== undefined)
    out.innerHTML = html; // sanitised by renderMarkdown (markdown-it without HTML, then DOMPurify)
  else {
    // Shown as plain text at once; rendered in slices after the frame (see renderPending), so a fast scroll
    // through hundreds of new replies never holds a frame for their Markdown.
    out.textContent = c.output;
    pending.push({ out, cell: c });
    schedulePending();
  }
  return out;
}

const pending: { out: HTMLElement; cell: CellResult }[] = [];
let pendingTimer: ReturnType<typeof setTimeout> | undefined;
/** Markdown rendering per task, at most (a task over 50 ms is a long task). */
const SLICE_MS = 8;

function schedulePending(): void {
  pendingTimer ??= setTimeout(renderPending, 0);
}

/** Renders waiting replies still in the DOM, newest first (the rows just scrolled to), for SLICE_MS at a time. */
function renderPending(): void {
  pendingTimer = undefined;
  const start = performance.now();
  while (pending.length && performance.now() - start < SLICE_MS) {
    const { out, cell } = pending.pop()!;
    if (!out.isConnected) continue;
    let html = htmlOf.get(cell);
    if (html === undefined) htmlOf.set(cell, (html = renderMarkdown(cell.output)));
    out.innerHTML = html; // sanitised by renderMarkdown (markdown-it without HTML, then DOMPurify)
  }
  if (pending.length) schedulePending();
}

export function cellElement(
  c: CellResult | undefined,
  opts: { mark?: CellMark; selected: boolean; running: boolean; key: string },
): HTMLElement {
  const cell = el('div', {
    class: 'cell',
    role: 'gridcell',
    tabindex: '-1',
    'data-key': opts.key,
    'aria-selected': opts.selected ? 'true' : 'false',
  });
  if (!c) {
    cell.dataset.status = 'pending';
    cell.append(el('div', { class: 'output empty', text: opts.running ? 'Waiting…' : 'Not run.' }));
    return cell;
  }
  const status = cellStatus(c);
  cell.dataset.status = status;
  if (opts.mark) cell.dataset.mark = opts.mark;
  const head = el(
    'div',
    { class: 'cell-head' },
    el('span', { class: `badge ${status}`, text: status.toUpperCase() }),
    opts.mark &&
      el('span', {
        class: `mark ${opts.mark}`,
        text: opts.mark === 'worse' ? '▼ worse' : '▲ better',
        title: opts.mark === 'worse' ? 'Worse than the earlier run' : 'Better than the earlier run',
      }),
    el('span', { class: 'meta', text: c.finishReason ?? c.blockReason ?? '—', title: 'Finish reason' }),
    el('span', {
      class: 'meta',
      text: c.error ? '— tok' : `${c.usage.promptTokenCount ?? 0} → ${c.usage.candidatesTokenCount ?? 0} tok`,
      title: 'Tokens in → out',
    }),
    el('span', {
      class: 'meta',
      text: `${c.ttftMs === null ? '—' : ms(c.ttftMs)} / ${ms(c.latencyMs)}`,
      title: 'Time to first token / total',
    }),
  );
  cell.append(head);
  if (c.assertions.length || c.safety?.length) {
    const chips = el('div', { class: 'chips' });
    for (const a of c.assertions)
      chips.append(
        el('span', {
          class: `chip ${a.pass ? 'pass' : 'fail'}`,
          text: `${a.pass ? '✓' : '✗'} ${a.type}`,
          title: a.reason ?? (a.pass ? 'passed' : 'failed'),
        }),
      );
    for (const s of c.safety ?? [])
      chips.append(
        el('span', {
          class: `chip safety${s.blocked ? ' blocked' : ''}`,
          text: `${s.category
            .replace(/^HARM_CATEGORY_/, '')
            .toLowerCase()
            .replace(/_/g, ' ')}: ${s.probability.toLowerCase()}`,
          title: s.blocked ? 'Blocked for safety' : 'Safety rating',
        }),
      );
    cell.append(chips);
  }
  const failed = c.error ? undefined : c.assertions.find((a) => !a.pass && a.reason);
  if (failed)
    cell.append(el('div', { class: 'reason', text: `${failed.type}: ${failed.reason}`, title: failed.reason }));
  cell.append(outputOf(c));
  return cell;
}
