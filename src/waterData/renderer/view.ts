// Composes one result: toolbar (counts, paging, copy, export), tabs for the views the entity set
// supports, and the attribution footer that every result carries.
import {
  sameResult,
  type DatasetAttribution,
  type HostToRenderer,
  type RendererToHost,
  type WaterResult,
} from '../protocol';
import { doisInRows, renderAttribution } from './attribution';
import { renderCards } from './card';
import { renderChart, type ChartHandle } from './chart';
import { renderCount } from './count';
import { button, el } from './dom';
import { hasCoordinates } from './geo';
import { renderMap, type MapHandle } from './map';
import { hasSeries } from './series';
import { createTable, type TableHandle } from './table';
import { effectiveColumns, toCsv, type Row } from './values';

export interface ViewHost {
  /** Present when the controller is listening (requiresMessaging: optional). */
  post?: (message: RendererToHost) => void;
  /** Subscribes to controller messages; returns an unsubscribe function. */
  listen?: (listener: (message: HostToRenderer) => void) => () => void;
  copy: (text: string) => Promise<boolean>;
}

export interface ResultView {
  readonly element: HTMLElement;
  readonly table?: TableHandle;
  readonly map?: MapHandle;
  readonly chart?: ChartHandle;
  /** The output this view shows, as messages address it. */
  readonly ref: { resultId?: string; requestUrl: string };
  /** Rows shown and whether more exist: lets a re-render that carries nothing new be skipped. */
  state(): { rows: number; nextLink?: string; warnings: number };
  showTab(id: TabId): void;
  appendRows(
    rows: Row[],
    nextLink: string | undefined,
    after?: Pick<HostToRenderer, 'pages' | 'truncated' | 'attributions' | 'warnings'>,
  ): void;
  dispose(): void;
}

export type TabId = 'table' | 'map' | 'chart' | 'cards';

const TAB_LABELS: Record<TabId, string> = { cards: 'Datasets', table: 'Table', map: 'Map', chart: 'Chart' };

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

export function isWaterResult(v: unknown): v is WaterResult {
  const r = v as WaterResult;
  return !!r && typeof r === 'object' && typeof r.entitySet === 'string' && Array.isArray(r.rows);
}

export function renderResult(doc: Document, input: WaterResult, host: ViewHost): ResultView {
  const rows: Row[] = input.rows.slice();
  let nextLink = input.nextLink;
  let truncated = !!input.truncated;
  let pages = input.pages;
  let attributions: DatasetAttribution[] = input.attributions;
  const ref = input.resultId
    ? { resultId: input.resultId, requestUrl: input.requestUrl }
    : { requestUrl: input.requestUrl };
  const columns = effectiveColumns(input.columns, rows);
  const root = el(doc, 'section', { className: 'wq-result', attrs: { 'aria-label': `${input.entitySet} result` } });
  root.dataset.entitySet = input.entitySet;
  const disposers: (() => void)[] = [];

  // Toolbar
  const toolbar = el(doc, 'div', { className: 'wq-toolbar' });
  const summary = el(doc, 'span', { className: 'wq-summary' });
  const moreBadge = el(doc, 'span', { className: 'wq-badge wq-warn wq-more-state' });
  const loadMore = button(
    doc,
    'Load more',
    'Fetch the next page of this result',
    () => requestMore('loadMore'),
    'wq-primary wq-load-more',
  );
  const fetchAll = button(
    doc,
    'Fetch all',
    'Fetch every remaining page (rate limited to 2 requests per second)',
    () => requestMore('fetchAll'),
    'wq-fetch-all',
  );
  const notice = el(doc, 'span', { className: 'wq-notice wq-muted', attrs: { 'aria-live': 'polite' } });
  toolbar.append(summary, moreBadge, loadMore, fetchAll, notice, el(doc, 'span', { className: 'wq-spacer' }));

  let noticeTimer: ReturnType<typeof setTimeout> | undefined;
  function say(text: string): void {
    notice.textContent = text;
    clearTimeout(noticeTimer);
    noticeTimer = setTimeout(() => (notice.textContent = ''), 4000);
  }
  const copy = (text: string, what: string) => {
    void host.copy(text).then((ok) => say(ok ? `Copied ${what}` : 'Copy was refused by the clipboard'));
  };

  let pending = false;
  let pendingTimer: ReturnType<typeof setTimeout> | undefined;
  function requestMore(type: 'loadMore' | 'fetchAll'): void {
    if (!host.post || pending) return;
    pending = true;
    host.post({ type, ...ref });
    updateToolbar();
    // A controller that fetches replaces this output (or appends rows) at once; one that declines
    // (e.g. offers a CSV export instead) leaves it, so the buttons come back.
    clearTimeout(pendingTimer);
    pendingTimer = setTimeout(() => {
      pending = false;
      updateToolbar();
    }, 3000);
    say(type === 'loadMore' ? 'Loading the next page…' : 'Fetching all pages…');
  }

  function updateToolbar(): void {
    const parts: string[] = [input.entitySet];
    if (!(input.count && rows.length === 0)) parts.push(plural(rows.length, 'row'));
    if (pages > 1) parts.push(plural(pages, 'page'));
    summary.textContent = parts.join(' · ');
    const more = !!nextLink || truncated;
    moreBadge.hidden = !more;
    // Paging stops at the query's $top or at the row-limit setting, whichever the cell had; the badge
    // must not blame the setting when the user simply asked for fewer rows.
    moreBadge.textContent = 'more rows available';
    // $top is the page size here (as in the service's paging): say so, and what each button fetches.
    const top = input.pageTop;
    moreBadge.title =
      top !== undefined
        ? `$top=${top} is the page size: Load more fetches the next ${top} rows; Fetch all fetches the rest.`
        : truncated
          ? 'Paging stopped at the row limit (apiWorkbench.waterData.rowLimit). Load more fetches one more row limit’s worth; Fetch all fetches the rest.'
          : 'The service has more rows. Load more continues after the last row.';
    loadMore.title =
      top !== undefined ? `Fetch the next ${top} rows ($top is the page size)` : 'Fetch the next page of this result';
    for (const b of [loadMore, fetchAll]) {
      b.hidden = !more;
      b.disabled = !host.post || pending;
      if (!host.post)
        b.title = 'Paging needs the notebook controller; re-run the cell with a higher row limit instead.';
    }
  }

  const hasRows = rows.length > 0 || !input.count;
  let table: TableHandle | undefined;
  if (hasRows) {
    table = createTable(doc, {
      columns,
      rows,
      copy: (text) => copy(text, 'to the clipboard'),
      onSelectionChange: (sel) => map?.select(sel.length === 1 ? sel[0] : undefined),
    });
    const copyCell = button(doc, 'Copy cell', 'Copy the focused cell', () => {
      if (!table!.copyFocusedCell()) say('Click a cell first');
    });
    const copyRows = button(
      doc,
      'Copy rows',
      'Copy the selected rows (or all rows shown) as tab-separated text',
      () => {
        const n = table!.selectedRows().length || table!.viewOrder().length;
        table!.copySelection();
        say(`Copying ${plural(n, 'row')}…`);
      },
    );
    const exportBtn = (format: 'csv' | 'json') =>
      button(
        doc,
        `Export ${format.toUpperCase()}`,
        host.post
          ? `Save this result as ${format.toUpperCase()}`
          : `Copy this result as ${format.toUpperCase()} (no controller to save a file)`,
        () => {
          if (host.post) {
            host.post({ type: 'export', ...ref, format });
            say(`Export to ${format.toUpperCase()} requested`);
          } else {
            copy(
              format === 'csv' ? toCsv(columns, rows) : JSON.stringify(rows, null, 2),
              `${plural(rows.length, 'row')} as ${format.toUpperCase()}`,
            );
          }
        },
        `wq-export-${format}`,
      );
    toolbar.append(copyCell, copyRows, exportBtn('csv'), exportBtn('json'));
  }
  root.append(toolbar);

  let warnings: string[] = input.warnings ?? [];
  const warningList = el(doc, 'ul', { className: 'wq-warnings' });
  const showWarnings = () => {
    warningList.replaceChildren(...warnings.map((msg) => el(doc, 'li', { text: msg })));
    warningList.hidden = warnings.length === 0;
  };
  showWarnings();
  root.append(warningList);
  if (input.count) root.append(renderCount(doc, input));
  if (hasRows && rows.length === 0)
    root.append(el(doc, 'div', { className: 'wq-empty wq-muted', text: 'No rows matched the query.' }));

  // Views. Map and chart are built the first time their tab is shown, so a large result pays only
  // for the table on first paint.
  let map: MapHandle | undefined;
  let chart: ChartHandle | undefined;
  const builders = new Map<TabId, () => HTMLElement>();
  if (hasRows) {
    if (input.entitySet === 'Metadata' && rows.length) builders.set('cards', () => renderCards(doc, rows));
    builders.set('table', () => table!.element);
    if (rows.length && hasCoordinates(columns)) {
      builders.set('map', () => {
        const showInTable = button(
          doc,
          'Show in table',
          'Show the selected location in the table',
          () => tabs.select('table'),
          'wq-show-in-table',
        );
        map = renderMap(doc, rows, (index) => {
          table!.selectRow(index);
          map!.select(index);
          showInTable.disabled = false;
        });
        const sel = table!.selectedRows();
        map.select(sel.length === 1 ? sel[0] : undefined);
        showInTable.disabled = sel.length !== 1;
        map.element.append(showInTable);
        return map.element;
      });
    }
    if (rows.length && hasSeries(columns)) {
      builders.set('chart', () => {
        chart = renderChart(doc, rows);
        return chart.element;
      });
    }
  }
  const rebuildMap = builders.get('map');
  const panels = new Map<TabId, HTMLElement>();

  const tabBar = el(doc, 'div', { className: 'wq-tabs', attrs: { role: 'tablist' } });
  const tabButtons = new Map<TabId, HTMLButtonElement>();
  const uid = Math.random().toString(36).slice(2, 9);
  for (const id of builders.keys()) {
    const b = el(doc, 'button', {
      className: 'wq-tab',
      text: TAB_LABELS[id],
      attrs: { type: 'button', role: 'tab', id: `wq-tab-${id}-${uid}`, 'aria-controls': `wq-panel-${id}-${uid}` },
    });
    b.dataset.tab = id;
    b.addEventListener('click', () => tabs.select(id));
    tabButtons.set(id, b);
    tabBar.append(b);
    const wrapper = el(doc, 'div', {
      className: `wq-panel wq-panel-${id}`,
      attrs: { role: 'tabpanel', id: `wq-panel-${id}-${uid}`, 'aria-labelledby': b.id },
    });
    panels.set(id, wrapper);
  }
  const tabs = {
    current: undefined as TabId | undefined,
    select(id: TabId) {
      if (!panels.has(id)) return;
      this.current = id;
      const panel = panels.get(id)!;
      const build = builders.get(id);
      if (build) {
        builders.delete(id);
        panel.append(build());
      }
      for (const [tid, p] of panels) {
        p.hidden = tid !== id;
        tabButtons.get(tid)!.setAttribute('aria-selected', String(tid === id));
        tabButtons.get(tid)!.tabIndex = tid === id ? 0 : -1;
      }
      if (id === 'table') table?.refresh();
      if (id === 'chart') chart?.show();
    },
  };
  tabBar.addEventListener('keydown', (e) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    const ids = [...panels.keys()];
    const i = ids.indexOf(tabs.current!);
    const next = ids[(i + (e.key === 'ArrowRight' ? 1 : ids.length - 1)) % ids.length];
    tabs.select(next);
    tabButtons.get(next)!.focus();
  });
  if (panels.size > 1) root.append(tabBar);
  for (const p of panels.values()) root.append(p);
  if (panels.size) tabs.select(panels.has('cards') ? 'cards' : 'table');

  // A Metadata result's cards cite their own datasets: the footer does not cite them again.
  const onCards = () => (input.entitySet === 'Metadata' ? doisInRows(rows) : []);
  const footer = renderAttribution(doc, input.attributions, rows, onCards());
  root.append(footer);
  updateToolbar();

  if (host.listen) {
    disposers.push(
      host.listen((msg) => {
        if (msg?.type === 'appendRows' && sameResult(msg, ref) && Array.isArray(msg.rows))
          view.appendRows(msg.rows, msg.nextLink, msg);
      }),
    );
  }

  const view: ResultView = {
    element: root,
    table,
    get map() {
      return map;
    },
    get chart() {
      return chart;
    },
    ref,
    state: () => ({ rows: rows.length, nextLink, warnings: warnings.length }),
    showTab: (id) => tabs.select(id),
    appendRows(more, link, after) {
      rows.push(...more);
      nextLink = link;
      truncated = after?.truncated ?? (truncated && !!link);
      pages = after?.pages ?? pages + 1;
      if (after?.attributions) attributions = after.attributions;
      if (after?.warnings) {
        warnings = after.warnings;
        showWarnings();
      }
      pending = false;
      clearTimeout(pendingTimer);
      table?.setRows(rows);
      chart?.setRows(rows);
      if (map) {
        // Points are positioned once; redraw the map for the longer result.
        const panel = panels.get('map')!;
        const wasVisible = !panel.hidden;
        panel.replaceChildren();
        map = undefined;
        builders.set('map', rebuildMap!);
        if (wasVisible) tabs.select('map');
      }
      const refreshed = renderAttribution(doc, attributions, rows, onCards());
      footer.replaceChildren(...refreshed.childNodes);
      updateToolbar();
      say(`Added ${plural(more.length, 'row')}`);
    },
    dispose() {
      clearTimeout(noticeTimer);
      clearTimeout(pendingTimer);
      disposers.forEach((d) => d());
      table?.dispose();
      chart?.dispose();
    },
  };
  return view;
}
