// Observations over time for one characteristic at a time, drawn with uPlot (canvas). The chart is
// built when its tab is first shown: uPlot needs a measured width.
import uPlot from 'uplot';
import { el } from './dom';
import { buildSeries, characteristics, type SeriesSet } from './series';
import type { Row } from './values';

export interface ChartHandle {
  readonly element: HTMLElement;
  /** Draws (or resizes) the chart; call when the panel becomes visible. */
  show(): void;
  /** Switches to another characteristic. */
  choose(name: string): void;
  current(): SeriesSet | undefined;
  setRows(rows: Row[]): void;
  dispose(): void;
}

const FALLBACK_COLOURS = ['#3794ff', '#d18616', '#89d185', '#f14c4c', '#b180d7', '#cca700', '#4ec9b0', '#c586c0'];
const THEME_COLOURS = ['blue', 'orange', 'green', 'red', 'purple', 'yellow'];

function themeColours(node: Element): { series: string[]; fg: string; grid: string } {
  const view = node.ownerDocument.defaultView;
  const cs = view?.getComputedStyle ? view.getComputedStyle(node) : undefined;
  const read = (name: string) => cs?.getPropertyValue(name).trim() || '';
  const series = FALLBACK_COLOURS.map(
    (fallback, i) => (i < THEME_COLOURS.length ? read(`--vscode-charts-${THEME_COLOURS[i]}`) : '') || fallback,
  );
  const fg = read('--vscode-foreground') || read('color') || '#cccccc';
  const grid = read('--vscode-editorIndentGuide-background') || 'rgba(127,127,127,0.25)';
  return { series, fg, grid };
}

function canDraw(doc: Document): boolean {
  try {
    return !!doc.createElement('canvas').getContext('2d');
  } catch {
    return false;
  }
}

export function axisLabel(set: SeriesSet): string {
  const unit = set.units.length > 1 ? set.units.join(' / ') : set.unit;
  return unit ? `${set.characteristic} (${unit})` : set.characteristic;
}

export function renderChart(doc: Document, initialRows: Row[]): ChartHandle {
  let rows = initialRows;
  const wrap = el(doc, 'div', { className: 'wq-chart-wrap', attrs: { 'data-testid': 'water-chart' } });
  const bar = el(doc, 'div', { className: 'wq-chart-bar' });
  const label = el(doc, 'label', { text: 'Characteristic ' });
  const select = el(doc, 'select', { className: 'wq-chart-select', attrs: { 'aria-label': 'Characteristic to plot' } });
  label.append(select);
  const caption = el(doc, 'span', { className: 'wq-chart-caption wq-muted' });
  bar.append(label, caption);
  const box = el(doc, 'div', { className: 'wq-chart' });
  wrap.append(bar, box);

  let plot: uPlot | undefined;
  let set: SeriesSet | undefined;
  let visible = false;
  let resize: ResizeObserver | undefined;

  function fillSelect(keep?: string): void {
    const list = characteristics(rows);
    select.replaceChildren(
      ...list.map((c) =>
        el(doc, 'option', { text: `${c.name} (${c.count.toLocaleString('en-US')})`, attrs: { value: c.name } }),
      ),
    );
    const chosen = keep && list.some((c) => c.name === keep) ? keep : list[0]?.name;
    if (chosen !== undefined) select.value = chosen;
    select.disabled = list.length < 2;
    if (!list.length) {
      set = undefined;
      caption.textContent = 'No characteristic values to plot.';
    } else {
      compute(chosen);
    }
  }

  function compute(name: string): void {
    set = buildSeries(rows, name);
    const parts = [
      `${set.points.toLocaleString('en-US')} values`,
      `${set.labels.length} series`,
      `unit: ${set.units.length ? set.units.join(', ') : 'none given'}`,
    ];
    if (set.units.length > 1) parts.push('mixed units');
    if (set.skipped) parts.push(`${set.skipped} without date or numeric value`);
    parts.push(set.zoned ? 'times in UTC' : 'times as recorded');
    caption.textContent = parts.join(' · ');
    box.setAttribute('aria-label', `${axisLabel(set)} over time`);
    box.dataset.axisLabel = axisLabel(set);
  }

  function draw(): void {
    plot?.destroy();
    plot = undefined;
    box.replaceChildren();
    if (!set || !set.x.length) return;
    if (!canDraw(doc)) {
      box.append(
        el(doc, 'div', {
          className: 'wq-error',
          text: 'The chart needs a 2D canvas, which this view does not provide; the values are in the Table tab.',
        }),
      );
      return;
    }
    const width = Math.max(320, Math.min(box.clientWidth || wrap.clientWidth || 800, 1400));
    const { series, fg, grid } = themeColours(box);
    const axis = { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const sparse = set.x.length < 400;
    const opts: uPlot.Options = {
      width,
      height: 300,
      scales: { x: { time: true } },
      // Times without a zone are displayed as recorded, so the axis must not shift them to local time.
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      legend: { show: true },
      cursor: { drag: { x: true, y: false } },
      series: [
        { label: 'Time' },
        ...set.labels.map((label, i) => ({
          label,
          stroke: series[i % series.length],
          width: 1.5,
          spanGaps: true,
          points: { show: sparse, size: 5, fill: series[i % series.length] },
        })),
      ],
      axes: [axis, { ...axis, label: axisLabel(set), labelSize: 20, size: 60 }],
    };
    try {
      plot = new uPlot(opts, [set.x, ...set.ys] as uPlot.AlignedData, box);
    } catch (e) {
      box.append(
        el(doc, 'div', { className: 'wq-error', text: `The chart could not be drawn: ${(e as Error).message}` }),
      );
    }
  }

  select.addEventListener('change', () => handle.choose(select.value));
  fillSelect();

  const handle: ChartHandle = {
    element: wrap,
    show() {
      visible = true;
      if (!plot) draw();
      const RO = doc.defaultView?.ResizeObserver;
      if (!resize && RO) {
        let lastWidth = box.clientWidth;
        resize = new RO(() => {
          const w = box.clientWidth;
          if (plot && w > 0 && Math.abs(w - lastWidth) > 4) {
            lastWidth = w;
            plot.setSize({ width: Math.max(320, Math.min(w, 1400)), height: 300 });
          }
        });
        resize.observe(box);
      }
    },
    choose(name) {
      select.value = name;
      compute(name);
      if (visible) draw();
    },
    current: () => set,
    setRows(next) {
      rows = next;
      fillSelect(set?.characteristic);
      if (visible) draw();
    },
    dispose() {
      resize?.disconnect();
      plot?.destroy();
    },
  };
  return handle;
}
