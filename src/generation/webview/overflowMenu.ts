// A "more actions" button with a small popup menu, so the narrow side bar keeps one toolbar row.
// Follows the menu-button pattern: arrow keys move, Escape/Tab/outside click close, and focus goes
// back to the button.
import { el } from './dom';

export interface MenuItem {
  label: string;
  run: () => void;
  testId: string;
  /** Destructive entries are set apart by a separator. */
  danger?: boolean;
  /** Asked each time the menu opens; hidden entries are skipped by the arrow keys too. */
  visible?: () => boolean;
}

const SVG = 'http://www.w3.org/2000/svg';

/** Three dots, drawn here: the webview loads no icon font. */
function moreIcon(doc: Document): SVGElement {
  const svg = doc.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('width', '16');
  svg.setAttribute('height', '16');
  svg.setAttribute('aria-hidden', 'true');
  for (const x of [3, 8, 13]) {
    const dot = doc.createElementNS(SVG, 'circle');
    dot.setAttribute('cx', String(x));
    dot.setAttribute('cy', '8');
    dot.setAttribute('r', '1.4');
    svg.append(dot);
  }
  return svg;
}

export class OverflowMenu {
  readonly root: HTMLElement;
  private readonly trigger: HTMLButtonElement;
  private readonly list: HTMLElement;
  private readonly entries: HTMLButtonElement[];

  constructor(
    label: string,
    private readonly items: readonly MenuItem[],
    testId: string,
  ) {
    const doc = document;
    this.trigger = el('button', {
      type: 'button',
      class: 'icon-button',
      title: label,
      'aria-label': label,
      'aria-haspopup': 'menu',
      'aria-expanded': 'false',
      'data-testid': testId,
    });
    this.trigger.append(moreIcon(doc));
    this.entries = items.map((item) => {
      const b = el('button', {
        type: 'button',
        role: 'menuitem',
        tabindex: '-1',
        class: 'menu-item',
        'data-testid': item.testId,
        text: item.label,
      });
      // As in VS Code's menus, pointer and keyboard share one highlighted entry.
      b.addEventListener('mouseenter', () => b.focus());
      b.addEventListener('click', () => {
        this.close(true);
        item.run();
      });
      return b;
    });
    this.list = el(
      'div',
      { class: 'menu', role: 'menu', 'aria-label': label, hidden: true },
      ...this.entries.flatMap((b, i) =>
        items[i].danger && i > 0 ? [el('div', { class: 'menu-separator', role: 'separator' }), b] : [b],
      ),
    );
    this.root = el('div', { class: 'menu-anchor' }, this.trigger, this.list);

    this.trigger.addEventListener('click', () => (this.isOpen ? this.close(true) : this.open(0)));
    this.trigger.addEventListener('keydown', (e) => {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        this.open(e.key === 'ArrowDown' ? 0 : -1);
      }
    });
    this.list.addEventListener('keydown', (e) => {
      const shown = this.shown;
      const at = shown.indexOf(doc.activeElement as HTMLButtonElement);
      const go = (i: number) => shown[(i + shown.length) % shown.length].focus();
      if (e.key === 'ArrowDown') go(at + 1);
      else if (e.key === 'ArrowUp') go(at - 1);
      else if (e.key === 'Home') go(0);
      else if (e.key === 'End') go(shown.length - 1);
      else if (e.key === 'Escape') this.close(true);
      else if (e.key === 'Tab') this.close(false);
      else return;
      if (e.key !== 'Tab') e.preventDefault();
    });
    doc.addEventListener('mousedown', (e) => {
      if (this.isOpen && !this.root.contains(e.target as Node)) this.close(false);
    });
    window.addEventListener('blur', () => this.close(false));
  }

  get isOpen(): boolean {
    return !this.list.hidden;
  }

  private get shown(): HTMLButtonElement[] {
    return this.entries.filter((b) => !b.hidden);
  }

  /** Opens the menu with the entry at `focusIndex` (of those shown; -1 is the last) focused. */
  open(focusIndex: number): void {
    this.entries.forEach((b, i) => (b.hidden = !(this.items[i].visible?.() ?? true)));
    this.list.hidden = false;
    this.trigger.setAttribute('aria-expanded', 'true');
    this.shown.at(focusIndex)?.focus();
  }

  close(refocus: boolean): void {
    if (!this.isOpen) return;
    this.list.hidden = true;
    this.trigger.setAttribute('aria-expanded', 'false');
    if (refocus) this.trigger.focus();
  }
}
