// Runs the real results grid bundle in headless Debian Chromium: bundles it with esbuild into a temp dir and
// serves a page that plays the webview host (acquireVsCodeApi, messages as window events), with VS Code's Dark
// Modern colours. Each requestAnimationFrame callback is timed (its work plus the layout it leaves), so a
// benchmark can see the cost of every frame the grid paints.
import { build } from 'esbuild';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import type { GridInit, HostToGrid } from '../../../src/generation/evalGridProtocol';

const ROOT = resolve(__dirname, '../../..');
const CHROMIUM = '/usr/bin/chromium';

const DARK = `--vscode-font-family: system-ui, "Segoe UI", Ubuntu, sans-serif; --vscode-font-size: 13px;
  --vscode-editor-font-family: "DejaVu Sans Mono", monospace;
  --vscode-foreground: #cccccc; --vscode-editor-background: #1f1f1f; --vscode-descriptionForeground: #9d9d9d;
  --vscode-panel-border: #2b2b2b; --vscode-editorWidget-background: #202020; --vscode-focusBorder: #0078d4;
  --vscode-button-secondaryBackground: #313131; --vscode-button-secondaryForeground: #cccccc;
  --vscode-button-secondaryHoverBackground: #3c3c3c; --vscode-button-border: #ffffff12;
  --vscode-dropdown-background: #313131; --vscode-dropdown-foreground: #cccccc; --vscode-dropdown-border: #3c3c3c;
  --vscode-list-inactiveSelectionBackground: #37373d; --vscode-errorForeground: #f85149;
  --vscode-charts-green: #89d185; --vscode-charts-red: #f14c4c; --vscode-charts-orange: #d18616;
  --vscode-charts-yellow: #cca700; --vscode-textLink-foreground: #4daafc;`;

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>grid harness</title>
<link rel="stylesheet" href="/evalGrid.css"><style>body { ${DARK} }</style></head>
<body><div id="app"></div>
<script>
  window.__posted = [];
  window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__posted.push(m) });
  window.__frames = [];
  const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (cb) => raf((ts) => {
    const t0 = performance.now();
    cb(ts);
    void document.body.offsetHeight;
    window.__frames.push(performance.now() - t0);
  });
  window.__longTasks = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push(e.duration); })
    .observe({ type: 'longtask', buffered: true });
  window.__send = (m) => window.dispatchEvent(new MessageEvent('message', { data: m }));
  window.__stage = (text) => { window.__staged = JSON.parse(text); };
  // The init message as the host sends it, then the first paint: the frame after the message was handled.
  window.__paint = () => new Promise((ok) => {
    const t0 = performance.now();
    window.__send({ type: 'init', data: window.__staged });
    raf(() => setTimeout(() => ok(performance.now() - t0), 0));
  });
</script>
<script src="/evalGrid.js"></script></body></html>`;

export interface GridHarness {
  page: Page;
  /** Sends a run's init message and resolves with ms from the message to the first paint after it. */
  paint(init: GridInit): Promise<number>;
  send(m: HostToGrid): Promise<void>;
  errors: string[];
  close(): Promise<void>;
}

function serve(bundle: string): Promise<Server> {
  const files: Record<string, [string, string]> = {
    '/': ['text/html', PAGE],
    '/evalGrid.js': ['text/javascript', readFileSync(bundle, 'utf8')],
    '/evalGrid.css': ['text/css', readFileSync(join(ROOT, 'media/generation/evalGrid.css'), 'utf8')],
  };
  const server = createServer((req, res) => {
    const f = files[(req.url ?? '/').split('?')[0]];
    if (!f) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': `${f[0]}; charset=utf-8`, 'cache-control': 'no-store' });
    res.end(f[1]);
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

export async function startGridHarness(viewport = { width: 1280, height: 860 }): Promise<GridHarness> {
  const work = mkdtempSync(join(tmpdir(), 'eval-grid-'));
  const outfile = join(work, 'evalGrid.js');
  await build({
    entryPoints: [join(ROOT, 'src/generation/evalGrid/main.ts')],
    outfile,
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    minify: process.env.GRID_UNMINIFIED !== '1',
    logLevel: 'warning',
    absWorkingDir: ROOT,
  });
  const server = await serve(outfile);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  let context: BrowserContext | undefined;
  try {
    context = await chromium.launchPersistentContext(join(work, 'profile'), {
      executablePath: CHROMIUM,
      headless: true,
      viewport,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
    });
    const page = context.pages()[0] ?? (await context.newPage());
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.route(
      (u) => !u.href.startsWith(url),
      (route) => {
        errors.push(`network request blocked: ${route.request().url()}`);
        return route.abort();
      },
    );
    await page.goto(url);
    const ctx = context;
    return {
      page,
      errors,
      async paint(init) {
        await page.evaluate(
          (text) => (window as unknown as { __stage(t: string): void }).__stage(text),
          JSON.stringify(init),
        );
        const ms = await page.evaluate(() => (window as unknown as { __paint(): Promise<number> }).__paint());
        if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
        return ms;
      },
      async send(m) {
        await page.evaluate((msg) => (window as unknown as { __send(x: unknown): void }).__send(msg), m);
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
