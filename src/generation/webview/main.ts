// Entry of the generation panel's webview (bundled to dist/webview/generation.js).
import type { ChatPanelState, ConversationInfo, HostToWebview, PanelInit, TurnView, WebviewToHost } from '../protocol';
import { button, el } from './dom';
import { ModelPicker } from './modelPicker';
import { OverflowMenu } from './overflowMenu';
import { SettingsDrawer } from './settingsDrawer';
import { TurnElement } from './turn';

declare function acquireVsCodeApi(): {
  postMessage(m: WebviewToHost): void;
  getState(): unknown;
  setState(s: unknown): void;
};

const vscode = acquireVsCodeApi();
const post = (m: WebviewToHost) => vscode.postMessage(m);
/** Kept by VS Code across reloads; an editor tab's serializer reads the conversation id from it. */
const saved: ChatPanelState = (vscode.getState() as ChatPanelState | undefined) ?? {};
function saveState(patch: ChatPanelState): void {
  Object.assign(saved, patch);
  vscode.setState(saved);
}

const RENDER_INTERVAL_MS = 40;

const turns = new Map<string, TurnElement>();
const dirty = new Set<string>();
let flushTimer: ReturnType<typeof setTimeout> | undefined;
let busy = false;
/** Render reports exist for host tests only; the host turns them on in ExtensionMode.Test. */
let testAcks = false;

const app = document.getElementById('app')!;
const conversationSelect = el('select', {
  class: 'conversations',
  title: 'Conversations of this workspace',
  'aria-label': 'Conversation',
  'data-testid': 'conversation-picker',
});
let surface: PanelInit['surface'] = 'view';
// New chat is also the view title's "+"; it stays here so the keyboard reaches it inside the panel.
const moreActions = new OverflowMenu(
  'Conversation actions',
  [
    { label: 'New chat', testId: 'new-chat', run: () => post({ type: 'newChat' }) },
    { label: 'Rename…', testId: 'rename', run: () => post({ type: 'rename' }) },
    {
      label: 'Open in Editor',
      testId: 'open-in-editor',
      run: () => post({ type: 'openInEditor' }),
      visible: () => surface === 'view',
    },
    { label: 'Export as Markdown…', testId: 'export-md', run: () => post({ type: 'export', format: 'markdown' }) },
    { label: 'Export as JSON…', testId: 'export-json', run: () => post({ type: 'export', format: 'json' }) },
    {
      label: 'Delete conversation',
      testId: 'delete-conversation',
      danger: true,
      run: () => conversationSelect.value && post({ type: 'deleteConversation', id: conversationSelect.value }),
    },
  ],
  'conversation-actions',
);
const endpointNote = el('div', { class: 'endpoint' });
const drawer = new SettingsDrawer(
  (s) => {
    modelPicker.setCurrent(s.model);
    post({ type: 'settings', settings: s });
  },
  () => post({ type: 'refreshModels' }),
);
const modelPicker = new ModelPicker(
  (model) => {
    const settings = { ...drawer.current, model };
    drawer.show(settings);
    post({ type: 'settings', settings });
  },
  () => post({ type: 'refreshModels' }),
);
// One compact row above the conversation: which chat, which model, the settings popover, more actions.
const header = el('header', { class: 'toolbar' }, conversationSelect, modelPicker.root, drawer.root, moreActions.root);
const log = el('main', { class: 'log' });
const empty = el('div', {
  class: 'empty',
  text: 'Ask something. Replies stream here; code blocks get Copy / Insert / New file.',
});
const problems = el('div', { class: 'problems', role: 'alert', hidden: true });
const status = el('div', { class: 'status' });
const prompt = el('textarea', {
  class: 'prompt-input',
  rows: '3',
  placeholder: 'Prompt (Enter to send, Shift+Enter for a new line)',
  'aria-label': 'Prompt',
  'data-testid': 'prompt',
});
prompt.value = saved.draft ?? '';
const tokenCount = el('span', { class: 'tokens' });
const send = button('Send', () => submit(), { class: 'primary send', 'data-testid': 'send' });
const stop = button('Stop', () => post({ type: 'stop' }), { class: 'stop', disabled: true, 'data-testid': 'stop' });
const attach = el(
  'select',
  { class: 'attach', title: 'Attach context to the next prompt' },
  el('option', { value: '', text: 'Attach…' }),
  el('option', { value: 'selection', text: 'Selection' }),
  el('option', { value: 'activeFile', text: 'Active file' }),
  el('option', { value: 'files', text: 'Workspace files…' }),
  el('option', { value: 'image', text: 'Image…' }),
);
attach.addEventListener('change', () => {
  if (attach.value) post({ type: 'attach', what: attach.value as 'selection' });
  attach.value = '';
});
const composer = el(
  'footer',
  {},
  problems,
  status,
  prompt,
  el('div', { class: 'composer-row' }, attach, tokenCount, stop, send),
);
app.append(header, endpointNote, log, composer);

conversationSelect.addEventListener('change', () => post({ type: 'openConversation', id: conversationSelect.value }));

function submit(): void {
  const text = prompt.value.trim();
  if (!text || busy) return;
  post({ type: 'send', prompt: text });
}

prompt.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
    e.preventDefault();
    submit();
  }
});
let countTimer: ReturnType<typeof setTimeout> | undefined;
prompt.addEventListener('input', () => {
  saveState({ draft: prompt.value });
  clearTimeout(countTimer);
  if (!prompt.value.trim()) tokenCount.textContent = '';
  countTimer = setTimeout(() => prompt.value.trim() && post({ type: 'countTokens', prompt: prompt.value }), 800);
});

function setBusy(b: boolean): void {
  busy = b;
  send.disabled = b;
  stop.disabled = !b;
  placeTurns();
}

/** Only the last turn offers Retry / Regenerate, and nothing can be resent while a reply streams. */
function placeTurns(): void {
  const all = [...turns.values()];
  all.forEach((t, i) => t.setPlace(i === all.length - 1, busy));
}

function showConversations(current: ConversationInfo, others: ConversationInfo[]): void {
  conversationSelect.replaceChildren(
    ...[current, ...others.filter((c) => c.id !== current.id)].map((c) =>
      el('option', { value: c.id, text: c.title, selected: c.id === current.id }),
    ),
  );
  conversationSelect.title = current.title;
}

function showTurns(views: TurnView[]): TurnElement | undefined {
  turns.clear();
  dirty.clear();
  log.replaceChildren();
  if (!views.length) log.append(empty);
  let last: TurnElement | undefined;
  for (const v of views) {
    last = addTurn(v);
    last.render();
  }
  placeTurns();
  return last;
}

function acknowledge(t: TurnElement): void {
  if (!testAcks) return;
  post({
    type: 'rendered',
    turnId: t.view.id,
    state: t.summary.state,
    textLength: t.text.length,
    visibleText: t.visibleText,
    notices: t.notices,
    cited: t.citedText,
    codeBlocks: t.codeBlocks,
  });
}

/** Set when the user sent something: show the new turn whatever the scroll position was. */
let forceScroll = false;

function flush(): void {
  flushTimer = undefined;
  const stick = forceScroll || log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  forceScroll = false;
  for (const id of dirty) {
    const t = turns.get(id);
    if (!t) continue;
    t.render();
    acknowledge(t);
  }
  dirty.clear();
  if (stick) log.scrollTop = log.scrollHeight;
}

function markDirty(id: string, now = false): void {
  dirty.add(id);
  if (now) {
    clearTimeout(flushTimer);
    flush();
  } else if (!flushTimer) flushTimer = setTimeout(flush, RENDER_INTERVAL_MS);
}

function addTurn(view: TurnView): TurnElement {
  const t = new TurnElement(view, post);
  turns.set(view.id, t);
  empty.remove();
  log.append(t.root);
  return t;
}

function init(data: PanelInit): void {
  testAcks = data.testAcks;
  surface = data.surface;
  document.body.dataset.surface = surface;
  saveState({ conversationId: data.conversation.id });
  drawer.show(data.settings);
  drawer.setModels(data.models);
  modelPicker.setModels(data.models);
  modelPicker.setCurrent(data.settings.model);
  showConversations(data.conversation, data.conversations);
  endpointNote.textContent = `${data.endpoint.sandbox ? 'Sandbox endpoint' : 'Service endpoint'}${data.endpoint.hasKey ? '' : ' — no API key set'}`;
  endpointNote.className = data.endpoint.hasKey ? 'endpoint' : 'endpoint endpoint-missing';
  const last = showTurns(data.turns);
  setBusy(data.busy);
  log.scrollTop = log.scrollHeight;
  if (last) acknowledge(last);
}

window.addEventListener('message', (event: MessageEvent<HostToWebview>) => {
  const m = event.data;
  switch (m.type) {
    case 'init':
      init(m.data);
      break;
    case 'models':
      drawer.setModels(m.models, m.error);
      modelPicker.setModels(m.models, m.error);
      break;
    case 'conversation': {
      const others = [...conversationSelect.options]
        .filter((o) => o.value !== m.info.id)
        .map((o) => ({ id: o.value, title: o.text, updated: 0 }));
      showConversations(m.info, others);
      if (m.turns) showTurns(m.turns);
      break;
    }
    case 'reportState':
      if (testAcks) post({ type: 'state', state: { ...saved } });
      break;
    case 'turnStart':
      problems.hidden = true;
      status.textContent = '';
      // A resend leaves the draft alone; only a prompt typed in the composer empties it.
      if (m.turn.kind === 'prompt' && prompt.value.trim() === m.turn.prompt) {
        prompt.value = '';
        // The count was the sent prompt's: an empty composer shows none.
        clearTimeout(countTimer);
        tokenCount.textContent = '';
      }
      saveState({ draft: prompt.value });
      forceScroll = true;
      markDirty(addTurn(m.turn).view.id, true);
      setBusy(true);
      break;
    case 'delta': {
      const t = turns.get(m.turnId);
      if (!t) break;
      t.append(m.text, m.thought);
      markDirty(m.turnId);
      break;
    }
    case 'turnEnd': {
      const t = turns.get(m.turnId);
      if (!t) break;
      t.text = m.text;
      t.summary = m.summary;
      status.textContent = '';
      setBusy(false);
      // The final render adds notices and sources below the text; keep them in view if the text was.
      forceScroll = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
      markDirty(m.turnId, true);
      break;
    }
    case 'problems':
      problems.replaceChildren(
        el('strong', { text: 'Not sent:' }),
        el('ul', {}, ...m.messages.map((p) => el('li', { text: p }))),
      );
      problems.hidden = false;
      break;
    case 'status':
      status.textContent = m.text;
      break;
    case 'tokens':
      // A count asked for before the composer was emptied (sent) comes too late to mean anything.
      if (!prompt.value.trim()) break;
      tokenCount.textContent = m.count !== undefined ? `${m.count} tokens` : '';
      tokenCount.title = m.error ?? 'Prompt size including history, system instruction and tools';
      break;
  }
});

post({ type: 'ready' });
