// The reference preview's browser code, bundled as shipped and run in happy-dom with a fake VS Code API:
// what the preview's webview tests share.
import * as path from 'node:path';
import { build } from 'esbuild';
import { Window } from 'happy-dom';
import type { PreviewHostToWebview, PreviewWebviewToHost } from '../../../src/discovery/protocol';

export async function bundlePreview(): Promise<string> {
  const out = await build({
    entryPoints: [path.resolve(__dirname, '../../../src/discovery/webview/main.ts')],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  return out.outputFiles[0].text;
}

/**
 * One preview page: what it posted to the host, and a way to send it the host's messages. Its webview state
 * lives in `state`: a page made with another page's state is that webview re-created (shown again, reloaded).
 */
export class PreviewPage {
  readonly window = new Window({ url: 'https://webview.test/' });
  readonly posted: PreviewWebviewToHost[] = [];

  constructor(
    bundle: string,
    readonly state: { value?: unknown } = {},
  ) {
    const w = this.window as unknown as Record<string, unknown>;
    w.acquireVsCodeApi = () => ({
      postMessage: (m: PreviewWebviewToHost) => this.posted.push(JSON.parse(JSON.stringify(m)) as PreviewWebviewToHost),
      // Structured-cloned, as VS Code keeps it outside the page.
      getState: () => (state.value === undefined ? undefined : structuredClone(state.value)),
      setState: (v: unknown) => (state.value = structuredClone(v)),
    });
    this.window.document.body.innerHTML = '<div id="content"></div>';
    (this.window as unknown as { eval(code: string): void }).eval(bundle);
  }

  send(m: PreviewHostToWebview): void {
    this.window.dispatchEvent(new this.window.MessageEvent('message', { data: m }));
  }

  get doc(): Document {
    return this.window.document as unknown as Document;
  }
}
