// Runs an extension's test module inside the Node extension host of code-server, opened in headless
// Chromium. The workbench calls window.codeAutomationExit(code) when the tests finish (the same hook
// VS Code's own browser integration runner uses); the test module's output reaches us through the
// page console and through a report file whose path the extension host inherits from code-server's env.
import { mkdtempSync, readFileSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCodeServer } from './codeServer.mjs';
import { launchBrowser } from './browser.mjs';

export async function runHostTests({
  extensionPath,
  testsModule,
  folder,
  timeoutMs = 20 * 60_000,
  env = {},
  settings = {},
  onPage,
  onLine,
  quiet = false,
  extensionsDir,
}) {
  const profileDir = mkdtempSync(join(tmpdir(), 'apiwb-host-'));
  const reportFile = join(profileDir, 'report.log');
  const server = await startCodeServer({
    folder,
    profileDir,
    settings,
    extensionsDir,
    env: { ...env, API_WORKBENCH_TEST_REPORT: reportFile },
  });
  const browser = await launchBrowser();
  let printed = 0;
  const flushReport = () => {
    if (!existsSync(reportFile)) return;
    const text = readFileSync(reportFile, 'utf8');
    const end = text.lastIndexOf('\n') + 1;
    if (end > printed) {
      const fresh = text.slice(printed, end);
      printed = end;
      if (!quiet) process.stdout.write(fresh);
      if (onLine) for (const line of fresh.split('\n').filter(Boolean)) onLine(line, reportFile);
    }
  };
  const poll = setInterval(flushReport, 500);
  let stopRendererProfile;
  try {
    // code-server registers its own service worker (a PWA stub) with scope "/" and clients.claim(): all
    // webviews are served from the same origin, so it can take a webview frame over from VS Code's webview
    // worker while the frame loads; its resources then 404 and the webview stays blank for good (the UI
    // tier's side-bar Generation view did, loaded at startup). The workbench runs without it; each webview
    // still registers VS Code's worker (init scripts run in every frame).
    await browser.addInitScript(() => {
      const workers = navigator.serviceWorker;
      if (!workers) return;
      const register = workers.register.bind(workers);
      workers.register = (url, options) =>
        String(url).includes('/_static/out/browser/serviceWorker.js')
          ? Promise.reject(new Error('code-server service worker disabled under test'))
          : register(url, options);
    });
    const page = browser.pages()[0] ?? (await browser.newPage());
    const exit = new Promise((resolve) => {
      void page.exposeFunction('codeAutomationExit', (code) => resolve(Number(code)));
    });
    await page.exposeFunction('codeAutomationLog', () => undefined);
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const remote = (p) => `vscode-remote://127.0.0.1:${server.port}${p}`;
    const payload = [
      ['extensionDevelopmentPath', remote(extensionPath)],
      ['extensionTestsPath', remote(testsModule)],
    ];
    const url = `${server.url}/?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    // A loaded 2-core machine can take well over the default 30 s to serve the workbench.
    await page.goto(url, { timeout: 180_000 });
    // BROWSER_PROFILE=<file>: a CPU profile of the workbench's page (the renderer's main thread), to see what
    // the browser side of a host round trip is busy with.
    const rendererProfile = process.env.BROWSER_PROFILE;
    const cdp = rendererProfile ? await page.context().newCDPSession(page) : undefined;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.start');
    }
    stopRendererProfile = async () => {
      if (!cdp) return;
      const { profile } = await cdp.send('Profiler.stop');
      writeFileSync(rendererProfile, JSON.stringify(profile));
    };
    if (onPage) await onPage(page);
    const timeout = new Promise((resolve) => setTimeout(() => resolve('timeout'), timeoutMs).unref());
    const code = await Promise.race([exit, timeout]);
    await stopRendererProfile?.().catch((e) => process.stderr.write(`[host] renderer profile: ${e}\n`));
    flushReport();
    if (code === 'timeout') {
      process.stderr.write(
        `[host] tests did not finish within ${Math.round(timeoutMs / 1000)} s\n${server.output().slice(-4000)}\n${errors.join('\n')}\n`,
      );
      return 1;
    }
    if (!existsSync(reportFile)) {
      process.stderr.write(
        `[host] the test module wrote no report; code-server said:\n${server.output().slice(-4000)}\n`,
      );
    }
    return code;
  } finally {
    clearInterval(poll);
    await browser.close().catch(() => undefined);
    await server.stop();
    if (!process.env.KEEP_HOST_PROFILE) rmSync(profileDir, { recursive: true, force: true });
  }
}
