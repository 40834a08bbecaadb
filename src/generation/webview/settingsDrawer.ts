// The settings popover: every request option the API offers, edited in place and sent to the
// host on change (the host validates on send and reports problems in words). It opens over the
// conversation from the header, so the prompt never leaves the view; Escape or a click outside closes it.
import { SAFETY_CATEGORIES, type PanelSettings } from '../protocol';
import { button, el } from './dom';

const THRESHOLDS: [string, string][] = [
  ['', 'service default'],
  ['BLOCK_NONE', 'block none'],
  ['BLOCK_ONLY_HIGH', 'block only high'],
  ['BLOCK_MEDIUM_AND_ABOVE', 'block medium and above'],
  ['BLOCK_LOW_AND_ABOVE', 'block low and above'],
];

function numberOrUndefined(v: string): number | undefined {
  if (v.trim() === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

export class SettingsDrawer {
  readonly root: HTMLElement;
  private settings!: PanelSettings;
  private readonly modelList = el('datalist', { id: 'model-list' });
  private readonly modelError = el('div', { class: 'field-note' });

  constructor(
    private readonly onChange: (s: PanelSettings) => void,
    private readonly onRefreshModels: () => void,
  ) {
    this.root = el('details', { class: 'settings' }, this.summary());
    this.root.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape' || !(this.root as HTMLDetailsElement).open) return;
      (this.root as HTMLDetailsElement).open = false;
      this.root.querySelector('summary')?.focus();
    });
    document.addEventListener('mousedown', (e) => {
      if ((this.root as HTMLDetailsElement).open && !this.root.contains(e.target as Node))
        (this.root as HTMLDetailsElement).open = false;
    });
  }

  private summary(): HTMLElement {
    return el(
      'summary',
      { class: 'settings-toggle', title: 'Request settings', 'data-testid': 'settings-toggle' },
      'Settings',
    );
  }

  get current(): PanelSettings {
    return { ...this.settings, safety: { ...this.settings.safety } };
  }

  setModels(models: string[], error?: string): void {
    this.modelList.replaceChildren(...models.map((m) => el('option', { value: m })));
    this.modelError.textContent = error ?? (models.length ? `${models.length} models available` : '');
  }

  show(settings: PanelSettings): void {
    this.settings = { ...settings, safety: { ...settings.safety } };
    const s = this.settings;
    const emit = () => this.onChange({ ...s, safety: { ...s.safety } });
    const field = (label: string, input: HTMLElement, note?: string) =>
      el(
        'label',
        { class: 'field' },
        el('span', { text: label }),
        input,
        note ? el('span', { class: 'field-note', text: note }) : '',
      );
    const num = (
      key: 'temperature' | 'topP' | 'topK' | 'maxOutputTokens' | 'candidateCount',
      attrs: Record<string, string>,
    ) => {
      const input = el('input', {
        type: 'number',
        value: s[key] === undefined ? '' : String(s[key]),
        placeholder: 'model default',
        name: key,
        ...attrs,
      });
      input.addEventListener('change', () => {
        s[key] = numberOrUndefined(input.value);
        emit();
      });
      return input;
    };

    const model = el('input', { type: 'text', value: s.model, list: 'model-list', name: 'model', spellcheck: 'false' });
    model.addEventListener('change', () => {
      s.model = model.value.trim();
      emit();
    });
    const system = el('textarea', {
      rows: '3',
      name: 'systemInstruction',
      placeholder: 'Optional: how the model should behave',
    });
    system.value = s.systemInstruction;
    system.addEventListener('change', () => {
      s.systemInstruction = system.value;
      emit();
    });
    const stops = el('textarea', { rows: '2', name: 'stopSequences', placeholder: 'one per line (at most 5)' });
    stops.value = s.stopSequences.join('\n');
    stops.addEventListener('change', () => {
      s.stopSequences = stops.value.split('\n').filter((x) => x.length > 0);
      emit();
    });
    const json = el('input', { type: 'checkbox', name: 'jsonMode', checked: s.jsonMode });
    const schema = el('textarea', {
      rows: '5',
      name: 'responseSchema',
      class: 'mono',
      placeholder: '{"type": "OBJECT", "properties": {…}}',
    });
    schema.value = s.responseSchema;
    const schemaNote = el('span', { class: 'field-note' });
    const checkSchema = () => {
      if (!schema.value.trim()) return (schemaNote.textContent = 'No schema: any JSON.');
      try {
        JSON.parse(schema.value);
        schemaNote.textContent = 'Valid JSON.';
      } catch (e) {
        schemaNote.textContent = `Not valid JSON: ${(e as Error).message}`;
      }
    };
    checkSchema();
    json.addEventListener('change', () => {
      s.jsonMode = json.checked;
      emit();
    });
    schema.addEventListener('input', checkSchema);
    schema.addEventListener('change', () => {
      s.responseSchema = schema.value;
      emit();
    });
    const safety = el('div', { class: 'safety-grid' });
    for (const cat of SAFETY_CATEGORIES) {
      const select = el('select', { name: cat });
      for (const [value, label] of THRESHOLDS)
        select.append(el('option', { value, text: label, selected: (s.safety[cat] ?? '') === value }));
      select.addEventListener('change', () => {
        if (select.value) s.safety[cat] = select.value;
        else delete s.safety[cat];
        emit();
      });
      safety.append(field(cat.replace('HARM_CATEGORY_', '').replace(/_/g, ' ').toLowerCase(), select));
    }
    const cached = el('input', {
      type: 'text',
      value: s.cachedContent,
      name: 'cachedContent',
      placeholder: 'cachedContents/…',
    });
    cached.addEventListener('change', () => {
      s.cachedContent = cached.value.trim();
      emit();
    });
    const tools = el('input', { type: 'checkbox', name: 'builtinTools', checked: s.builtinTools });
    tools.addEventListener('change', () => {
      s.builtinTools = tools.checked;
      emit();
    });

    this.root.replaceChildren(
      this.summary(),
      el(
        'div',
        { class: 'settings-body', role: 'group', 'aria-label': 'Request settings' },
        field(
          'Model',
          el('div', { class: 'row' }, model, button('↻', this.onRefreshModels, { title: 'Reload the model list' })),
          'models/… or tunedModels/…; the header lists the models of the endpoint',
        ),
        this.modelList,
        this.modelError,
        field('System instruction', system),
        el(
          'div',
          { class: 'grid' },
          field('Temperature', num('temperature', { min: '0', max: '2', step: '0.1' }), '0–2'),
          field('Top P', num('topP', { min: '0', max: '1', step: '0.05' })),
          field('Top K', num('topK', { min: '1', step: '1' })),
          field('Max output tokens', num('maxOutputTokens', { min: '1', step: '1' })),
          field('Candidates', num('candidateCount', { min: '1', max: '1', step: '1' }), 'only 1'),
        ),
        field('Stop sequences', stops),
        el('label', { class: 'check' }, json, el('span', { text: 'JSON mode (responseMimeType application/json)' })),
        field('Response schema', schema),
        schemaNote,
        el('div', { class: 'group-title', text: 'Safety thresholds' }),
        safety,
        field('Cached content', cached),
        el(
          'label',
          { class: 'check' },
          tools,
          el('span', { text: 'Offer read-only workspace tools (read file, list files)' }),
        ),
      ),
    );
  }
}
