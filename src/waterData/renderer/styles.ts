// Styles use VS Code's theme variables (with fallbacks for the test harness) so outputs follow the
// user's colour theme; injected once per document.
import uplotCss from 'uplot/dist/uPlot.min.css';

const STYLE_ID = 'api-workbench-water-result-styles';

const CSS = `
.wq-result { font-family: var(--vscode-font-family, system-ui, sans-serif); font-size: var(--vscode-font-size, 13px);
  color: var(--vscode-foreground, #ccc); padding: 4px 0 2px; }
.wq-result [hidden] { display: none !important; }
.wq-result a { color: var(--vscode-textLink-foreground, #3794ff); text-decoration: none; }
.wq-result a:hover { color: var(--vscode-textLink-activeForeground, #3794ff); text-decoration: underline; }
.wq-muted { color: var(--vscode-descriptionForeground, #999); }
.wq-toolbar { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; margin-bottom: 6px; }
.wq-summary { font-weight: 600; margin-right: 4px; }
.wq-spacer { flex: 1 1 auto; }
.wq-badge { display: inline-block; padding: 0 6px; border-radius: 8px; font-size: 11px; line-height: 18px;
  background: var(--vscode-badge-background, #4d4d4d); color: var(--vscode-badge-foreground, #fff); }
.wq-badge.wq-warn { background: var(--vscode-inputValidation-warningBackground, #5f4b14); color: var(--vscode-foreground, #fff);
  border: 1px solid var(--vscode-inputValidation-warningBorder, #b89500); }
.wq-btn { font: inherit; font-size: 12px; padding: 2px 9px; border-radius: 2px; cursor: pointer; line-height: 18px;
  color: var(--vscode-button-secondaryForeground, #fff); background: var(--vscode-button-secondaryBackground, #3a3d41);
  border: 1px solid var(--vscode-button-border, transparent); }
.wq-btn:hover:not(:disabled) { background: var(--vscode-button-secondaryHoverBackground, #45494e); }
.wq-btn.wq-primary { color: var(--vscode-button-foreground, #fff); background: var(--vscode-button-background, #0e639c); }
.wq-btn.wq-primary:hover:not(:disabled) { background: var(--vscode-button-hoverBackground, #1177bb); }
.wq-btn:disabled { opacity: .5; cursor: default; }
.wq-btn:focus-visible, .wq-tab:focus-visible, .wq-scroll:focus-visible, .wq-sort:focus-visible {
  outline: 1px solid var(--vscode-focusBorder, #007fd4); outline-offset: -1px; }
.wq-tabs { display: flex; gap: 0; border-bottom: 1px solid var(--vscode-panel-border, #444); margin-bottom: 6px; }
.wq-tab { font: inherit; background: none; border: none; border-bottom: 2px solid transparent; cursor: pointer;
  padding: 3px 12px; color: var(--vscode-descriptionForeground, #999); }
.wq-tab[aria-selected="true"] { color: var(--vscode-foreground, #ccc); border-bottom-color: var(--vscode-focusBorder, #007fd4); }
.wq-panel[hidden] { display: none; }
/* A bounded output with its own scroll, as VS Code's scrolling notebook outputs: the table scrolls inside its
   own 420 px, every other view inside this height, so the notebook stays one wheel turn from the next cell. */
.wq-panel:not(.wq-panel-table) { max-height: 480px; overflow: auto; }
.wq-warnings { margin: 0 0 6px; max-height: 8em; overflow: auto; padding: 4px 8px; border-left: 3px solid var(--vscode-editorWarning-foreground, #cca700);
  background: var(--vscode-textBlockQuote-background, rgba(127,127,127,.1)); }

.wq-table { --wq-row-h: 24px; }
.wq-scroll { overflow: auto; position: relative; border: 1px solid var(--vscode-panel-border, #444);
  background: var(--vscode-editor-background, #1e1e1e); }
.wq-head { position: sticky; top: 0; z-index: 2; width: var(--wq-width); background: var(--vscode-editorGroupHeader-tabsBackground, #252526); }
.wq-row { display: grid; grid-template-columns: var(--wq-cols); width: var(--wq-width); }
.wq-head-row { height: 26px; border-bottom: 1px solid var(--vscode-panel-border, #444); }
.wq-filter-row { height: 28px; border-bottom: 1px solid var(--vscode-panel-border, #444); }
.wq-body { position: relative; width: var(--wq-width); }
.wq-data-row { position: absolute; top: 0; left: 0; height: var(--wq-row-h); cursor: default; contain: strict; }
.wq-data-row .wq-cell { contain: strict; height: var(--wq-row-h); }
.wq-data-row.wq-odd { background: var(--vscode-list-hoverBackground, rgba(127,127,127,.06)); background: color-mix(in srgb, var(--vscode-list-hoverBackground, #2a2d2e) 45%, transparent); }
.wq-data-row:hover { background: var(--vscode-list-hoverBackground, #2a2d2e); }
.wq-data-row.wq-selected { background: var(--vscode-list-inactiveSelectionBackground, #37373d); color: var(--vscode-list-inactiveSelectionForeground, inherit); }
.wq-scroll:focus-within .wq-data-row.wq-selected { background: var(--vscode-list-activeSelectionBackground, #04395e); color: var(--vscode-list-activeSelectionForeground, #fff); }
.wq-cell { overflow: hidden; text-overflow: ellipsis; white-space: pre; padding: 0 6px; line-height: var(--wq-row-h);
  border-right: 1px solid var(--vscode-editorWidget-border, rgba(127,127,127,.18)); box-sizing: border-box; min-width: 0; }
.wq-cell.wq-num { text-align: right; font-variant-numeric: tabular-nums; }
.wq-cell.wq-focus { outline: 1px solid var(--vscode-focusBorder, #007fd4); outline-offset: -1px; }
.wq-gutter { color: var(--vscode-editorLineNumber-foreground, #858585); text-align: right; font-variant-numeric: tabular-nums; }
.wq-th { padding: 0; position: relative; }
.wq-resizer { position: absolute; top: 0; right: 0; width: 6px; height: 100%; cursor: col-resize; z-index: 1; }
.wq-resizer:hover { background: var(--vscode-sash-hoverBorder, var(--vscode-focusBorder, #007fd4)); }
.wq-sort { all: unset; box-sizing: border-box; display: flex; gap: 4px; width: 100%; height: 100%; padding: 0 6px; cursor: pointer;
  font-weight: 600; line-height: 26px; }
.wq-th-name { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; flex: 1 1 auto; }
.wq-sort-mark { font-size: 9px; }
.wq-filter-row .wq-cell { padding: 2px 3px; line-height: normal; }
.wq-filter { box-sizing: border-box; width: 100%; height: 22px; font: inherit; font-size: 12px; padding: 1px 4px;
  color: var(--vscode-input-foreground, #ccc); background: var(--vscode-input-background, #3c3c3c);
  border: 1px solid var(--vscode-input-border, transparent); border-radius: 2px; }
.wq-filter::placeholder { color: var(--vscode-input-placeholderForeground, #888); }
.wq-filter:focus { outline: 1px solid var(--vscode-focusBorder, #007fd4); outline-offset: -1px; }
.wq-table-status { padding: 3px 2px 0; font-size: 12px; color: var(--vscode-descriptionForeground, #999); }

.wq-count { padding: 10px 4px 12px; }
.wq-count-value { font-size: 2.4em; font-weight: 600; font-variant-numeric: tabular-nums; line-height: 1.1; }
.wq-count-label { color: var(--vscode-descriptionForeground, #999); margin-top: 2px; }
.wq-count-approx { font-size: 2.4em; font-weight: 600; margin-right: 4px; }
.wq-count .wq-badge { margin-left: 10px; vertical-align: middle; font-size: 12px; }

.wq-cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(340px, 1fr)); gap: 10px; }
.wq-card { border: 1px solid var(--vscode-panel-border, #444); border-radius: 4px; padding: 10px 12px;
  background: var(--vscode-editorWidget-background, #252526); }
.wq-card h3 { margin: 0 0 2px; font-size: 1.15em; }
.wq-card-org { color: var(--vscode-descriptionForeground, #999); margin-bottom: 6px; }
.wq-card-abstract { margin: 6px 0; white-space: pre-wrap; max-height: 9.5em; overflow: auto; }
.wq-card dl { display: grid; grid-template-columns: max-content 1fr; gap: 3px 10px; margin: 6px 0 0; }
.wq-card dt { color: var(--vscode-descriptionForeground, #999); }
.wq-card dd { margin: 0; overflow-wrap: anywhere; }
.wq-chips { display: flex; flex-wrap: wrap; gap: 4px; }
.wq-chip { padding: 0 6px; border-radius: 8px; font-size: 11px; line-height: 18px;
  background: var(--vscode-badge-background, #4d4d4d); color: var(--vscode-badge-foreground, #fff); }

.wq-map-wrap { position: relative; }
.wq-map { display: block; width: 100%; max-width: 900px; height: auto; border: 1px solid var(--vscode-panel-border, #444);
  background: var(--vscode-editor-background, #1e1e1e); }
.wq-map .wq-ocean { fill: var(--vscode-editor-background, #1e1e1e); }
.wq-map .wq-land { fill: color-mix(in srgb, var(--vscode-foreground, #ccc) 7%, var(--vscode-editor-background, #1e1e1e));
  stroke: color-mix(in srgb, var(--vscode-foreground, #ccc) 25%, transparent); stroke-width: .6; }
.wq-map .wq-canada { fill: color-mix(in srgb, var(--vscode-foreground, #ccc) 15%, var(--vscode-editor-background, #1e1e1e));
  stroke: color-mix(in srgb, var(--vscode-foreground, #ccc) 55%, transparent); stroke-width: .8; }
.wq-map .wq-grat { stroke: var(--vscode-editorIndentGuide-background, rgba(127,127,127,.3)); stroke-width: .5; fill: none; stroke-dasharray: 2 3; }
.wq-map .wq-grat-label { fill: var(--vscode-descriptionForeground, #999); font-size: 10px; }
.wq-map .wq-pt { fill: var(--vscode-charts-blue, #3794ff); stroke: var(--vscode-editor-background, #1e1e1e); stroke-width: 1; cursor: pointer; }
.wq-map .wq-pt:hover { fill: var(--vscode-charts-orange, #d18616); }
.wq-map .wq-pt.wq-selected { fill: var(--vscode-charts-red, #f14c4c); stroke: var(--vscode-foreground, #fff); stroke-width: 1.5; }
.wq-map .wq-credit { fill: var(--vscode-descriptionForeground, #999); font-size: 9px; }
.wq-map-info { min-height: 1.5em; margin-top: 4px; }
.wq-tooltip { position: absolute; pointer-events: none; z-index: 5; padding: 3px 7px; border-radius: 3px; white-space: pre;
  background: var(--vscode-editorHoverWidget-background, #252526); color: var(--vscode-editorHoverWidget-foreground, #ccc);
  border: 1px solid var(--vscode-editorHoverWidget-border, #454545); font-size: 12px; }

.wq-chart-bar { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; margin-bottom: 6px; }
.wq-chart-bar select { font: inherit; color: var(--vscode-dropdown-foreground, #ccc); background: var(--vscode-dropdown-background, #3c3c3c);
  border: 1px solid var(--vscode-dropdown-border, #3c3c3c); padding: 2px 4px; }
.wq-chart { min-height: 300px; }
.wq-chart .uplot { font-family: inherit; color: var(--vscode-foreground, #ccc); }
.wq-chart .u-legend { color: var(--vscode-foreground, #ccc); font-size: 12px; }
.wq-chart .u-select { background: rgba(127,127,127,.2); }

.wq-footer { margin-top: 8px; padding-top: 6px; border-top: 1px solid var(--vscode-panel-border, #444); font-size: 12px; }
.wq-footer-title { font-weight: 600; margin-bottom: 2px; }
.wq-attr-list { list-style: none; margin: 0; padding: 0; display: grid; gap: 6px; max-height: 12em; overflow: auto; }
.wq-attr-on-cards { color: var(--vscode-descriptionForeground, #999); }
.wq-attr-name { font-weight: 600; }
.wq-attr-label { color: var(--vscode-descriptionForeground, #999); }
.wq-attr-line { margin-left: 0; }
.wq-disclaimer { margin-top: 2px; white-space: pre-wrap; }
.wq-attr-missing { color: var(--vscode-editorWarning-foreground, #cca700); margin-bottom: 2px; }
.wq-error { color: var(--vscode-errorForeground, #f48771); }
`;

/** Adds the stylesheet to the document, or to the shadow root when outputs are rendered in one. */
export function ensureStyles(scope: Document | ShadowRoot): void {
  if (scope.getElementById(STYLE_ID)) return;
  const doc = 'createElement' in scope ? scope : scope.ownerDocument;
  const style = doc.createElement('style');
  style.id = STYLE_ID;
  style.textContent = uplotCss + CSS;
  const target = 'head' in scope ? (scope.head ?? scope.documentElement) : scope;
  target.appendChild(style);
}
