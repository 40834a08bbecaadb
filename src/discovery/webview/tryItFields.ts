// A Try it form's parameters in the page: each field's inputs (a choice, a yes/no, text; repeated fields get
// more inputs), and the values read back from them, keyed by the parameter's own name.
import type { TryField } from '../core/tryIt';
import { putOwn } from '../../shared/wire/ownKeys';
import type { TryItFormValues } from '../protocol';

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  cls?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/**
 * The choice that sends nothing: an optional parameter the user leaves unset is not sent, and the server
 * applies its own default, which the option names (`includeItemsFromAllDrives=false` is never sent unasked).
 */
function unsetOption(f: TryField): HTMLOptionElement {
  const o = el('option', undefined, f.default !== undefined ? `(not sent; default ${f.default})` : '');
  o.value = '';
  return o;
}

function fieldInput(f: TryField): HTMLElement {
  if (f.enum) {
    const select = el('select');
    if (!f.required) select.append(unsetOption(f));
    for (const v of f.enum) {
      const o = el('option', undefined, v.description ? `${v.value} — ${v.description.slice(0, 80)}` : v.value);
      o.value = v.value;
      if (v.deprecated) o.textContent += ' (deprecated)';
      select.append(o);
    }
    // A required choice starts at its default; an optional one starts unset.
    if (f.required && f.default !== undefined) select.value = f.default;
    return select;
  }
  if (f.type === 'boolean') {
    const select = el('select');
    if (!f.required) select.append(unsetOption(f));
    for (const v of ['true', 'false']) select.append(Object.assign(el('option', undefined, v), { value: v }));
    if (f.required && f.default !== undefined) select.value = f.default;
    return select;
  }
  const input = el('input');
  input.type = 'text';
  input.placeholder = f.default ?? (f.format ? `${f.type} (${f.format})` : f.type);
  return input;
}

export function fieldRow(f: TryField, kept: string[] | undefined): HTMLElement {
  const row = el('div', 'try-field');
  row.dataset.name = f.name;
  const label = el('label', undefined, f.name + (f.required ? ' *' : ''));
  label.title = f.description ?? '';
  const inputs = el('span', 'try-inputs');
  inputs.append(fieldInput(f));
  for (let i = 1; f.repeated && i < (kept?.length ?? 0); i++) inputs.append(fieldInput(f));
  if (kept)
    inputs.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input, select').forEach((input, i) => {
      if (kept[i] !== undefined) input.value = kept[i];
    });
  row.append(label, inputs);
  if (f.repeated) {
    const more = el('button', 'try-more', '+');
    more.title = 'Add another value';
    more.addEventListener('click', () => inputs.append(fieldInput(f)));
    row.append(more);
  }
  row.append(el('span', 'try-where', f.location + (f.repeated ? ', repeated' : '')));
  return row;
}

export function valuesOf(panel: HTMLElement): TryItFormValues {
  const params: Record<string, string[]> = {};
  for (const row of panel.querySelectorAll<HTMLElement>('.try-field')) {
    const name = row.dataset.name ?? '';
    putOwn(
      params,
      name,
      [...row.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input, select')].map((i) => i.value),
    );
  }
  const body = panel.querySelector<HTMLTextAreaElement>('textarea.try-body')?.value;
  return { params, ...(body !== undefined ? { body } : {}) };
}
