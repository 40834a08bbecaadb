// The header's model dropdown: the models the endpoint lists (models.list, generateContent only).
// A model the list does not name (typed in Settings, or from an old workspace) stays selectable but
// is flagged, so a typo shows before the request fails.
import { button, el } from './dom';

/** `models/gemini-2.5-flash` reads as `gemini-2.5-flash`; tuned models keep their prefix. */
function label(model: string): string {
  return model.startsWith('models/') ? model.slice('models/'.length) : model;
}

export class ModelPicker {
  readonly root: HTMLElement;
  private readonly select: HTMLSelectElement;
  private models: string[] = [];
  private error: string | undefined;
  private current = '';

  constructor(onPick: (model: string) => void, onRefresh: () => void) {
    this.select = el('select', { class: 'model-select', 'aria-label': 'Model', 'data-testid': 'model-picker' });
    this.select.addEventListener('change', () => {
      this.current = this.select.value;
      this.render();
      onPick(this.current);
    });
    const refresh = button('↻', onRefresh, {
      class: 'icon-button',
      title: 'Reload the model list',
      'aria-label': 'Reload the model list',
    });
    this.root = el('div', { class: 'model-picker' }, this.select, refresh);
  }

  /** Whether the list is loaded and does not name the chosen model. */
  get unknown(): boolean {
    return this.models.length > 0 && !!this.current && !this.models.includes(this.current);
  }

  setModels(models: string[], error?: string): void {
    this.models = models;
    this.error = error;
    this.render();
  }

  setCurrent(model: string): void {
    this.current = model;
    this.render();
  }

  private render(): void {
    const options = this.models.map((m) => el('option', { value: m, text: label(m), selected: m === this.current }));
    if (this.current && !this.models.includes(this.current)) {
      const text = this.models.length ? `⚠ ${label(this.current)} (not listed)` : label(this.current);
      options.unshift(el('option', { value: this.current, text, selected: true }));
    }
    this.select.replaceChildren(...options);
    this.root.classList.toggle('unknown', this.unknown);
    this.select.title = this.unknown
      ? `${this.current} is not among the ${this.models.length} models this endpoint lists for generateContent: requests will likely fail.`
      : this.error
        ? `Model list not loaded: ${this.error}`
        : this.models.length
          ? `${this.current} — ${this.models.length} models available`
          : this.current;
    this.select.setAttribute('aria-invalid', this.unknown ? 'true' : 'false');
  }
}
