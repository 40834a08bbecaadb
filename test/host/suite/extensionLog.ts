// The extension's log as a host test reads it: the lines its LogOutputChannel wrote, and a wait for lines.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkbenchServices } from '../../../src/platform/services';

const LOG_NAME = 'API Workbench.log';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The extension's log file (its LogOutputChannel writes under the extension's log folder, once it has a line). */
function logFile(services: WorkbenchServices): string | undefined {
  const dir = services.context.logUri.fsPath;
  const candidates = [join(dir, LOG_NAME), join(dir, '..', LOG_NAME)];
  if (existsSync(dir))
    for (const e of readdirSync(dir, { recursive: true, encoding: 'utf8' }))
      if (e.endsWith(LOG_NAME)) candidates.push(join(dir, e));
  return candidates.find((f) => existsSync(f));
}

export function logText(services: WorkbenchServices): string {
  const file = logFile(services);
  return file ? readFileSync(file, 'utf8') : '';
}

/** Waits until the log, from `from` on, matches `pattern` `count` times; returns those matches. */
export async function logged(services: WorkbenchServices, from: number, pattern: RegExp, count = 1): Promise<string[]> {
  let found: string[] = [];
  for (let i = 0; i < 200; i++) {
    found = [...logText(services).slice(from).matchAll(pattern)].map((m) => m[0]);
    if (found.length >= count) return found;
    await sleep(100);
  }
  const where = logFile(services) ?? `nowhere yet: no ${LOG_NAME} under ${services.context.logUri.fsPath}`;
  throw new Error(
    `the log (${where}) holds ${found.length} of ${count} lines like ${pattern}:\n${logText(services).slice(from)}`,
  );
}
