// Locations as points on an SVG map drawn entirely from bundled data (no tile server, no network).
import { el, svg } from './dom';
import {
  CANADA_ID,
  boundsOf,
  countries,
  fitProjection,
  formatLat,
  formatLon,
  graticuleStep,
  pointsOf,
  ringsPath,
  type MapPoint,
} from './geo';
import type { Row } from './values';

const WIDTH = 800;
const HEIGHT = 480;

export interface MapHandle {
  readonly element: HTMLElement;
  /** Highlights the point of row `index` (or none). */
  select(index: number | undefined): void;
  readonly points: readonly MapPoint[];
}

function describe(p: MapPoint): string {
  const title = p.name || p.id || `Row ${p.index + 1}`;
  const sub = [p.name && p.id ? p.id : '', `${p.lat.toFixed(4)}, ${p.lon.toFixed(4)}`].filter(Boolean).join(' · ');
  return `${title}\n${sub}`;
}

export function renderMap(doc: Document, rows: Row[], onSelect: (index: number) => void): MapHandle {
  const points = pointsOf(rows);
  const proj = fitProjection(boundsOf(points), WIDTH, HEIGHT);
  const wrap = el(doc, 'div', { className: 'wq-map-wrap', attrs: { 'data-testid': 'water-map' } });
  const root = svg(doc, 'svg', {
    class: 'wq-map',
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    role: 'img',
    'aria-label': `Map of ${points.length} location${points.length === 1 ? '' : 's'}`,
  });
  const clipId = `wq-clip-${Math.random().toString(36).slice(2, 9)}`;
  const defs = svg(doc, 'defs');
  const clip = svg(doc, 'clipPath', { id: clipId });
  clip.append(svg(doc, 'rect', { x: 0, y: 0, width: WIDTH, height: HEIGHT }));
  defs.append(clip);
  root.append(defs, svg(doc, 'rect', { class: 'wq-ocean', x: 0, y: 0, width: WIDTH, height: HEIGHT }));

  const land = svg(doc, 'g', { 'clip-path': `url(#${clipId})` });
  for (const c of countries()) {
    const d = ringsPath(c.rings, proj);
    if (!d) continue;
    const path = svg(doc, 'path', { d, class: c.id === CANADA_ID ? 'wq-land wq-canada' : 'wq-land' });
    path.dataset.country = c.name;
    land.append(path);
  }
  root.append(land);

  const { view } = proj;
  const grat = svg(doc, 'g', { class: 'wq-graticule' });
  const latStep = graticuleStep(view.north - view.south);
  const lonStep = graticuleStep(view.east - view.west);
  for (let lat = Math.ceil(view.south / latStep) * latStep; lat <= view.north; lat += latStep) {
    const y = proj.y(lat);
    grat.append(svg(doc, 'line', { class: 'wq-grat', x1: 0, x2: WIDTH, y1: y, y2: y }));
    if (y > 12 && y < HEIGHT - 16) {
      const t = svg(doc, 'text', { class: 'wq-grat-label', x: 4, y: y - 3 });
      t.textContent = formatLat(lat);
      grat.append(t);
    }
  }
  for (let lon = Math.ceil(view.west / lonStep) * lonStep; lon <= view.east; lon += lonStep) {
    const x = proj.x(lon);
    grat.append(svg(doc, 'line', { class: 'wq-grat', x1: x, x2: x, y1: 0, y2: HEIGHT }));
    if (x > 30 && x < WIDTH - 30) {
      const t = svg(doc, 'text', { class: 'wq-grat-label', x: x + 3, y: HEIGHT - 5 });
      t.textContent = formatLon(lon);
      grat.append(t);
    }
  }
  root.append(grat);

  const radius = points.length > 5000 ? 2.2 : points.length > 1000 ? 3 : 4.5;
  const dots = svg(doc, 'g', { class: 'wq-points', 'clip-path': `url(#${clipId})` });
  const byIndex = new Map<number, SVGElement>();
  for (const p of points) {
    const c = svg(doc, 'circle', {
      class: 'wq-pt',
      cx: proj.x(p.lon).toFixed(1),
      cy: proj.y(p.lat).toFixed(1),
      r: radius,
      'aria-label': describe(p).replace('\n', ', '),
    });
    c.dataset.index = String(p.index);
    byIndex.set(p.index, c);
    dots.append(c);
  }
  root.append(dots);
  const credit = svg(doc, 'text', { class: 'wq-credit', x: WIDTH - 4, y: 11, 'text-anchor': 'end' });
  credit.textContent = 'Outlines: Natural Earth';
  root.append(credit);

  const tooltip = el(doc, 'div', { className: 'wq-tooltip', attrs: { role: 'tooltip' } });
  tooltip.hidden = true;
  const info = el(doc, 'div', { className: 'wq-map-info wq-muted' });
  const missing = rows.length - points.length;
  const baseInfo = `${points.length.toLocaleString('en-US')} location${points.length === 1 ? '' : 's'} plotted${missing ? ` · ${missing.toLocaleString('en-US')} without coordinates` : ''} · click a point to select its row`;
  info.textContent = baseInfo;
  wrap.append(root, tooltip, info);

  const pointAt = (target: EventTarget | null): MapPoint | undefined => {
    const node = target as Element | null;
    if (!node || !(node as SVGElement).dataset || node.getAttribute('class')?.includes('wq-pt') !== true)
      return undefined;
    const index = Number((node as SVGElement).dataset.index);
    return points.find((p) => p.index === index);
  };
  root.addEventListener('mousemove', (e) => {
    const p = pointAt(e.target);
    if (!p) {
      tooltip.hidden = true;
      return;
    }
    const box = wrap.getBoundingClientRect();
    tooltip.textContent = describe(p);
    tooltip.style.left = `${e.clientX - box.left + 12}px`;
    tooltip.style.top = `${e.clientY - box.top + 12}px`;
    tooltip.hidden = false;
  });
  root.addEventListener('mouseleave', () => (tooltip.hidden = true));
  root.addEventListener('click', (e) => {
    const p = pointAt(e.target);
    if (p) onSelect(p.index);
  });

  let current: SVGElement | undefined;
  return {
    element: wrap,
    points,
    select(index) {
      current?.classList.remove('wq-selected');
      current = index === undefined ? undefined : byIndex.get(index);
      if (current) {
        current.classList.add('wq-selected');
        // Last child paints on top, so the selected point is never hidden under its neighbours.
        dots.append(current);
        const p = points.find((q) => q.index === index)!;
        info.textContent = `Selected: ${describe(p).replace('\n', ' · ')}`;
      } else {
        info.textContent = baseInfo;
      }
    },
  };
}
