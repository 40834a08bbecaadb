// The grid's pooled row elements and how one is filled with a data row. Each pooled row owns one
// cell per column, but only the columns near the horizontal viewport are attached: layout cost
// grows with attached cells, and a wide result (Records: 44 columns) shows only a handful at a
// time. The first attached cell is placed on its grid column explicitly.
import { el } from './dom';
import { cellOf, cellText, type Row } from './values';

interface RowParts {
  gutter: HTMLElement;
  cells: HTMLElement[];
  /** The attached column range, `first:last`. */
  range: string;
}

export class RowCells {
  private readonly partsOf = new WeakMap<HTMLElement, RowParts>();

  constructor(
    private readonly doc: Document,
    private readonly columns: string[],
  ) {}

  createRow(): HTMLElement {
    const doc = this.doc;
    const r = el(doc, 'div', { className: 'wq-row wq-data-row', attrs: { role: 'row' } });
    const gutter = el(doc, 'div', { className: 'wq-cell wq-gutter', attrs: { role: 'rowheader' } });
    const cells: HTMLElement[] = [];
    for (let c = 0; c < this.columns.length; c++) {
      const cell = el(doc, 'div', {
        className: 'wq-cell',
        attrs: { role: 'gridcell', 'aria-colindex': String(c + 2) },
      });
      cell.dataset.col = String(c);
      cells.push(cell);
    }
    this.partsOf.set(r, { gutter, cells, range: '' });
    return r;
  }

  /** Shows data row `index` (its `row`) at display position `pos`, columns c0..c1 attached. */
  fill(r: HTMLElement, pos: number, index: number, row: Row, [c0, c1]: [number, number]): void {
    const parts = this.partsOf.get(r)!;
    const key = `${c0}:${c1}`;
    if (parts.range !== key) {
      parts.range = key;
      for (const cell of parts.cells) cell.style.gridColumnStart = '';
      if (c0 > 0) parts.cells[c0].style.gridColumnStart = String(c0 + 2);
      r.replaceChildren(parts.gutter, ...parts.cells.slice(c0, c1 + 1));
    }
    r.dataset.index = String(index);
    r.dataset.focusCol = '-1'; // className below clears any focus mark
    r.setAttribute('aria-rowindex', String(pos + 2));
    // Stripes follow display order; DOM order is recycling order.
    if (r.classList.contains('wq-odd') !== (pos % 2 === 1)) r.classList.toggle('wq-odd');
    parts.gutter.textContent = String(index + 1);
    for (let c = c0; c <= c1; c++) {
      const cell = parts.cells[c];
      const v = cellOf(row, this.columns[c]);
      const text = cellText(v);
      cell.textContent = text;
      if (text.length > 24) cell.title = text;
      else if (cell.title) cell.removeAttribute('title');
      const cls =
        typeof v === 'number' ? 'wq-cell wq-num' : v === null || v === undefined ? 'wq-cell wq-null' : 'wq-cell';
      // Writing an unchanged class still invalidates style in some engines; compare first.
      if (cell.className !== cls) cell.className = cls;
    }
  }

  /** Marks selection and the focused cell (`focusCol` -1: none); touches only what changes. */
  decorate(r: HTMLElement, isSelected: boolean, focusCol: number): void {
    if (r.classList.contains('wq-selected') !== isSelected) r.classList.toggle('wq-selected', isSelected);
    if (r.getAttribute('aria-selected') !== String(isSelected)) r.setAttribute('aria-selected', String(isSelected));
    // Only the cells whose focus state changes are touched; a repaint must stay cheap.
    const had = r.dataset.focusCol === undefined ? -1 : Number(r.dataset.focusCol);
    if (focusCol !== had) {
      const cells = this.partsOf.get(r)!.cells;
      if (had >= 0) cells[had]?.classList.remove('wq-focus');
      if (focusCol >= 0) cells[focusCol]?.classList.add('wq-focus');
      r.dataset.focusCol = String(focusCol);
    }
  }
}
