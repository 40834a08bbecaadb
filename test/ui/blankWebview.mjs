// What a blank webview says about itself, for a failure message: the extension's log lines about webviews and
// the generation feature since a moment (the page watchdog logs each page it sets again, the serializer's
// restore errors land there too), and the console lines of each frame left without a page (VS Code's webview
// host frame says there when it waits for its service worker). One line, since the runner keeps the first.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

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
    `; the extension's log (${log.files} files) since the reload, webview and generation lines: ` +
    `${JSON.stringify(log.lines)}; the console of each frame without a page: ${consoles.join(' ') || 'none found'}`
  );
}
