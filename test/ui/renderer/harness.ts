// Runs the real renderer bundle in headless Debian Chromium: bundles it with esbuild into a temp dir,
// serves a page that plays the notebook host (RendererContext with messaging), and drives it.
import { build } from 'esbuild';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { WATER_RESULT_MIME, type WaterResult } from '../../../src/waterData/protocol';

const ROOT = resolve(__dirname, '../../..');
export const CHROMIUM = '/usr/bin/chromium';

// VS Code's Dark Modern / Light Modern colours for the variables the renderer reads.
const DARK = `--vscode-font-family: system-ui, "Segoe UI", Ubuntu, sans-serif; --vscode-font-size: 13px;
  --vscode-foreground: #cccccc; --vscode-editor-background: #1f1f1f; --vscode-descriptionForeground: #9d9d9d;
  --vscode-panel-border: #2b2b2b; --vscode-editorWidget-background: #202020; --vscode-editorWidget-border: #313131;
  --vscode-input-background: #313131; --vscode-input-foreground: #cccccc; --vscode-input-border: #3c3c3c;
  --vscode-input-placeholderForeground: #989898; --vscode-focusBorder: #0078d4; --vscode-button-background: #0078d4;
  --vscode-button-foreground: #ffffff; --vscode-button-hoverBackground: #026ec1; --vscode-button-secondaryBackground: #313131;
  --vscode-button-secondaryForeground: #cccccc; --vscode-button-secondaryHoverBackground: #3c3c3c; --vscode-button-border: #ffffff12;
  --vscode-badge-background: #616161; --vscode-badge-foreground: #f8f8f8; --vscode-textLink-foreground: #4daafc;
  --vscode-list-hoverBackground: #2a2d2e; --vscode-list-activeSelectionBackground: #04395e; --vscode-list-activeSelectionForeground: #ffffff;
  --vscode-list-inactiveSelectionBackground: #37373d; --vscode-editorGroupHeader-tabsBackground: #181818;
  --vscode-editorLineNumber-foreground: #6e7681; --vscode-charts-blue: #3794ff; --vscode-charts-orange: #d18616;
  --vscode-charts-green: #89d185; --vscode-charts-red: #f14c4c; --vscode-charts-purple: #b180d7; --vscode-charts-yellow: #cca700;
  --vscode-editorIndentGuide-background: #404040; --vscode-dropdown-background: #313131; --vscode-dropdown-foreground: #cccccc;
  --vscode-dropdown-border: #3c3c3c; --vscode-editorHoverWidget-background: #202020; --vscode-editorHoverWidget-border: #454545;
  --vscode-editorWarning-foreground: #cca700; --vscode-inputValidation-warningBackground: #352a05; --vscode-inputValidation-warningBorder: #b89500;`;
const LIGHT = `--vscode-foreground: #3b3b3b; --vscode-editor-background: #ffffff; --vscode-descriptionForeground: #3b3b3b;
  --vscode-panel-border: #e5e5e5; --vscode-editorWidget-background: #f8f8f8; --vscode-editorWidget-border: #e5e5e5;
  --vscode-input-background: #ffffff; --vscode-input-foreground: #3b3b3b; --vscode-input-border: #cecece;
  --vscode-input-placeholderForeground: #767676; --vscode-focusBorder: #005fb8; --vscode-button-background: #005fb8;
  --vscode-button-foreground: #ffffff; --vscode-button-hoverBackground: #0258a8; --vscode-button-secondaryBackground: #e5e5e5;
  --vscode-button-secondaryForeground: #3b3b3b; --vscode-button-secondaryHoverBackground: #cccccc; --vscode-badge-background: #cccccc;
  --vscode-badge-foreground: #3b3b3b; --vscode-textLink-foreground: #005fb8; --vscode-list-hoverBackground: #f2f2f2;
  --vscode-list-activeSelectionBackground: #e8e8e8; --vscode-list-activeSelectionForeground: #000000; --vscode-list-inactiveSelectionBackground: #e4e6f1;
  --vscode-editorGroupHeader-tabsBackground: #f8f8f8; --vscode-editorLineNumber-foreground: #6e7681;
  --vscode-editorIndentGuide-background: #d3d3d3; --vscode-dropdown-background: #ffffff; --vscode-dropdown-foreground: #3b3b3b;
  --vscode-dropdown-border: #cecece; --vscode-charts-blue: #1a85ff; --vscode-charts-red: #e51400; --vscode-charts-orange: #d18616;
  --vscode-charts-green: #388a34; --vscode-charts-purple: #652d90; --vscode-charts-yellow: #bf8803;
  --vscode-inputValidation-warningBackground: #f6f5d2; --vscode-inputValidation-warningBorder: #b89500;`;

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>renderer harness</title>
<style>
  body { margin: 0; padding: 12px 16px; background: var(--vscode-editor-background); }
  body.dark { ${DARK} }
  body.light { ${DARK} ${LIGHT} }
  #outputs { width: 1040px; }
</style></head>
<body class="dark"><div id="outputs"></div>
<script type="module">
  import { activate } from './waterData.js';
  const listeners = new Set();
  window.__messages = [];
  window.__send = (m) => listeners.forEach((l) => l(m));
  const context = {
    postMessage: (m) => window.__messages.push({ ...m, at: performance.now() }),
    onDidReceiveMessage: (l) => { listeners.add(l); return { dispose: () => listeners.delete(l) }; },
    setState() {}, getState() { return undefined; }, getRenderer: async () => undefined, workspace: { isTrusted: true },
  };
  const renderer = activate(context);
  let n = 0;
  // The result arrives as JSON text (as VS Code hands over output bytes) and is staged before the
  // timed render, so the harness's own transfer is not counted as rendering.
  window.__stage = (text) => { window.__staged = text; return new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0))); };
  window.__render = () => {
    const text = window.__staged;
    const el = document.createElement('div');
    el.className = 'output';
    document.getElementById('outputs').replaceChildren(el);
    window.__messages.length = 0;
    const item = { id: 'out-' + (++n), mime: ${JSON.stringify(WATER_RESULT_MIME)}, text: () => text, json: () => JSON.parse(text),
      data: () => new TextEncoder().encode(text), blob: () => new Blob([text]), metadata: undefined };
    const t0 = performance.now();
    renderer.renderOutputItem(item, el, new AbortController().signal);
    window.__syncMs = performance.now() - t0;
    return t0;
  };
  window.__ready = true;
</script></body></html>`;

export interface Harness {
  page: Page;
  url: string;
  /** Renders a result and waits for the renderer's `rendered` message; returns ms from call to message. */
  render(result: WaterResult): Promise<number>;
  /** Milliseconds the last renderOutputItem call ran synchronously (parse + build + first rows). */
  lastSyncMs(): Promise<number>;
  theme(name: 'dark' | 'light'): Promise<void>;
  close(): Promise<void>;
}

export async function bundleRenderer(outDir: string): Promise<string> {
  const outfile = join(outDir, 'waterData.js');
  await build({
    entryPoints: [join(ROOT, 'src/waterData/renderer/index.ts')],
    outfile,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    loader: { '.css': 'text' },
    // Unminified on request so profiles name the renderer's functions.
    minify: process.env.WQ_RENDERER_UNMINIFIED !== '1',
    logLevel: 'warning',
    absWorkingDir: ROOT,
  });
  return outfile;
}

function serve(bundle: string): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/' || path === '/index.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(PAGE);
    } else if (path === '/waterData.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
      res.end(readFileSync(bundle));
    } else {
      res.writeHead(404).end();
    }
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

export async function startHarness(viewport = { width: 1100, height: 900 }): Promise<Harness> {
  const work = mkdtempSync(join(tmpdir(), 'wq-renderer-'));
  const bundle = await bundleRenderer(work);
  const server = await serve(bundle);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  let context: BrowserContext | undefined;
  try {
    context = await chromium.launchPersistentContext(join(work, 'profile'), {
      executablePath: CHROMIUM,
      headless: true,
      viewport,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
    const page = context.pages()[0] ?? (await context.newPage());
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    // The renderer must not reach the network: anything but the harness origin is refused.
    await page.route(
      (u) => !u.href.startsWith(url),
      (route) => {
        errors.push(`network request blocked: ${route.request().url()}`);
        return route.abort();
      },
    );
    await page.goto(url);
    await page.waitForFunction(() => (window as unknown as { __ready?: boolean }).__ready === true);
    const ctx = context;
    return {
      page,
      url,
      async render(result) {
        await page.evaluate(
          (text) => (window as unknown as { __stage(t: string): Promise<void> }).__stage(text),
          JSON.stringify(result),
        );
        const t0 = await page.evaluate(() => (window as unknown as { __render(): number }).__render());
        const handle = await page.waitForFunction(
          () =>
            (window as unknown as { __messages: { type: string; at: number }[] }).__messages.find(
              (m) => m.type === 'rendered',
            )?.at,
        );
        const at = (await handle.jsonValue()) as number;
        if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
        return at - t0;
      },
      lastSyncMs: () => page.evaluate(() => (window as unknown as { __syncMs: number }).__syncMs),
      async theme(name) {
        await page.evaluate((n) => (document.body.className = n), name);
      },
      async close() {
        await ctx.close();
        await new Promise((ok) => server.close(() => ok(undefined)));
        rmSync(work, { recursive: true, force: true });
      },
    };
  } catch (e) {
    await context?.close().catch(() => undefined);
    server.close();
    rmSync(work, { recursive: true, force: true });
    throw e;
  }
}
