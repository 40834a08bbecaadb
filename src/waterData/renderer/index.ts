// Notebook renderer for water-quality query results (WATER_RESULT_MIME). Browser code: no Node APIs,
// no network; everything the views need comes in the output item.
import type { ActivationFunction, OutputItem, RendererContext } from 'vscode-notebook-renderer';
import { WATER_RESULT_MIME, type HostToRenderer, type RendererToHost, type WaterResult } from '../protocol';
import { copyText } from './clipboard';
import { el } from './dom';
import { ensureStyles } from './styles';
import { isWaterResult, renderResult, type ResultView, type ViewHost } from './view';

export { WATER_RESULT_MIME };

function afterPaint(win: (Window & typeof globalThis) | null, fn: () => void): void {
  // The first animation frame runs just before the paint; a task queued from it runs just after.
  if (win?.requestAnimationFrame) win.requestAnimationFrame(() => setTimeout(fn, 0));
  else setTimeout(fn, 0);
}

/** True when `view` is showing `data` already (same output, rows, continuation and warnings). */
function alreadyShows(view: ResultView, data: WaterResult): boolean {
  if (!data.resultId || view.ref.resultId !== data.resultId) return false;
  const state = view.state();
  return (
    state.rows === data.rows.length &&
    state.nextLink === data.nextLink &&
    state.warnings === (data.warnings?.length ?? 0)
  );
}

export function createRenderer(context: RendererContext<unknown>) {
  const views = new Map<string, ResultView>();

  return {
    renderOutputItem(item: OutputItem, element: HTMLElement, signal?: AbortSignal): void {
      const doc = element.ownerDocument;
      let data: unknown;
      let invalid: Error | undefined;
      try {
        data = item.json();
      } catch (e) {
        invalid = e as Error;
      }
      const shown = views.get(item.id);
      if (shown && isWaterResult(data) && alreadyShows(shown, data)) {
        // The controller stores rows it already sent with appendRows; re-rendering them would flash
        // the output and lose its scroll position, filters and selection.
        if (shown.element.parentNode !== element) element.replaceChildren(shown.element);
        return;
      }
      shown?.dispose();
      views.delete(item.id);
      const rootNode = element.getRootNode();
      ensureStyles(rootNode.nodeType === 11 && 'host' in rootNode ? (rootNode as ShadowRoot) : doc);
      element.replaceChildren();

      if (invalid) {
        element.append(
          el(doc, 'div', {
            className: 'wq-result wq-error',
            text: `This output is not valid JSON: ${invalid.message}`,
          }),
        );
        return;
      }
      if (!isWaterResult(data)) {
        element.append(
          el(doc, 'div', {
            className: 'wq-result wq-error',
            text: `This output is not a water-quality result (${item.mime}).`,
          }),
        );
        return;
      }
      const post = context.postMessage ? (m: RendererToHost) => context.postMessage!(m) : undefined;
      const host: ViewHost = {
        post,
        listen: context.onDidReceiveMessage
          ? (listener) => {
              const sub = context.onDidReceiveMessage!((m: HostToRenderer) => listener(m));
              return () => sub.dispose();
            }
          : undefined,
        copy: (text) => copyText(doc, text),
      };
      const view = renderResult(doc, data, host);
      views.set(item.id, view);
      element.append(view.element);
      const result = data;
      afterPaint(doc.defaultView, () => {
        if (signal?.aborted || views.get(item.id) !== view) return;
        post?.({ type: 'rendered', ...view.ref, rows: result.rows.length });
      });
    },
    disposeOutputItem(id?: string): void {
      if (id === undefined) {
        for (const v of views.values()) v.dispose();
        views.clear();
        return;
      }
      views.get(id)?.dispose();
      views.delete(id);
    },
  };
}

export const activate: ActivationFunction = (context) => createRenderer(context);
