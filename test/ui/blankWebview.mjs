// What a blank webview says about itself, for a failure message: the extension's log lines about webviews and
// the generation feature since a moment (the page watchdog logs each page it sets again, the serializer's
// restore errors land there too), and the console lines of each frame left without a page (VS Code's webview
// host frame says there when it waits for its service worker). One line, since the runner keeps the first.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { inside } from './frames.mjs';

/** Set on the workbench's window: the next webview host frame waits for its service worker for good. */
export const HANG_NEXT = '__apiwbHangNextWebviewFrame';
/** What such a frame says in its console. */
export const HUNG = 'fault injected: this webview host frame never gets its service worker';

/**
 * The fault a CI run met after a reload, on demand: VS Code's webview host frame (pre/index.html) writes no page
 * into its inner frame until its service worker answers. Run in every frame (an init script): the first host frame
 * made after the workbench sets HANG_NEXT registers a worker that never comes. Webview frames share the
 * workbench's origin in code-server, so they can read the flag.
 */
export function hangNextWebviewFrame([flag, said]) {
  try {
    if (!/\/pre\/index(-no-csp)?\.html$/.test(location.pathname) || !window.top[flag]) return;
    window.top[flag] = false;
    navigator.serviceWorker.register = () => new Promise(() => {});
    console.log(said);
  } catch {
    /* another origin: not a frame this can hang */
  }
}

/** The runner keeps every console message here, with the URL of the frame's script (the webview's id is in it). */
export const consoleEntries = [];

export function recordConsole(message) {
  const url = message.location()?.url ?? '';
  consoleEntries.push({ at: Date.now(), type: message.type(), url, text: message.text() });
}

/** The webview id VS Code puts in its frames' URLs (`?id=…`), if any. */
export function webviewId(url) {
  try {
    return new URL(url).searchParams.get('id') ?? undefined;
  } catch {
    return undefined;
  }
}

const pad = (n, w = 2) => String(n).padStart(w, '0');
/** A time as the log writes it (local). */
function logStamp(ms) {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

function logFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('API Workbench.log'))
    .map((f) => join(dir, f));
}

/** The extension's log lines about webviews and generation written since `sinceMs`, from every window's log. */
export function extensionLogLines(reportFile, sinceMs) {
  const files = logFiles(join(dirname(reportFile), 'user-data', 'logs'));
  const since = logStamp(sinceMs);
  const lines = files
    .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs)
    .flatMap((f) => readFileSync(f, 'utf8').split('\n'))
    .filter((l) => l.slice(0, 19) >= since && /webview|generation|failed|error/i.test(l));
  return { files: files.length, lines: lines.slice(-30) };
}

/** The console lines of a webview's frames (by its id) since `sinceMs`. */
export function frameConsole(id, sinceMs) {
  return consoleEntries
    .filter((e) => e.at >= sinceMs && webviewId(e.url) === id)
    .map((e) => `${e.type} ${e.text.replace(/\s+/g, ' ').slice(0, 200)}`)
    .slice(-15);
}

/** The report: `frames` as framesSeen gives them (a frame without a page has no child frame and no text). */
export function blankReport(frames, { reportFile, since }) {
  const log = extensionLogLines(reportFile, since);
  const blank = frames.filter((f) => f.id && f.children === 0 && !f.body.trim());
  const consoles = blank.map(
    (f) => `${f.id}${f.inEditor ? ' (editor area)' : ''}: ${JSON.stringify(frameConsole(f.id, since))}`,
  );
  return (
    `; the extension's log (${log.files} files) since ${logStamp(since).slice(11)}, webview and generation lines: ` +
    `${JSON.stringify(log.lines)}; the console of each frame without a page: ${consoles.join(' ') || 'none found'}`
  );
}

/** What every webview frame shows: its id, whether it holds a frame (a host frame holds its page), its text. */
export async function framesSeen(page) {
  const seen = [];
  const region = await page.locator('.part.editor').first().boundingBox();
  for (const frame of page.frames()) {
    if (frame === page.mainFrame()) continue;
    try {
      const body = (await frame.locator('body').innerText({ timeout: 1_000 })).replace(/\s+/g, ' ').slice(0, 120);
      const box = await (await frame.frameElement()).boundingBox();
      const chat = inside(box, region) && (await frame.locator('[data-testid="prompt"]').count()) > 0;
      const id = webviewId(frame.url());
      const children = frame.childFrames().length;
      seen.push({ url: frame.url().slice(0, 60), id, children, inEditor: inside(box, region), chat, body });
    } catch {
      /* detached, or still without a body */
    }
  }
  return seen;
}
