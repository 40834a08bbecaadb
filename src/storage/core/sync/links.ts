// A link as the editor keeps it: in the workspace folder's `apiWorkbench.storage.syncLinks` setting
// (so it can be committed or kept local like any setting), one object per linked folder. The sync state
// stays in the engine's hidden folder inside the local folder. What a link shows: its status line, and
// the one line the status bar gives all links together.
import type { SyncMode } from './model';

export interface SyncLink {
  /** The local folder, relative to its workspace folder (`/`-separated; `''` is the workspace folder itself). */
  local: string;
  /** The store folder's id. */
  storeFolderId: string;
  /** What the user picked it as (a path of titles), for labels only. */
  storeName: string;
  mode: SyncMode;
  /** Paths left out of the link (unchecked in the plan view), relative to the local folder. */
  exclude?: string[];
}

const MODES: readonly SyncMode[] = ['two-way', 'upload', 'download'];

/** The links of a setting's value; entries that are not links are reported by index, never guessed at. */
export function parseLinks(value: unknown): { links: SyncLink[]; problems: string[] } {
  const links: SyncLink[] = [];
  const problems: string[] = [];
  if (value === undefined || value === null) return { links, problems };
  if (!Array.isArray(value)) return { links, problems: ['syncLinks is not a list'] };
  value.forEach((v: unknown, i) => {
    const o = (v && typeof v === 'object' ? v : {}) as Record<string, unknown>;
    const mode = o.mode ?? 'two-way';
    if (typeof o.local !== 'string' || o.local.split('/').includes('..'))
      problems.push(`syncLinks[${i}]: "local" must be a folder inside the workspace folder`);
    else if (typeof o.storeFolderId !== 'string' || o.storeFolderId === '')
      problems.push(`syncLinks[${i}]: "storeFolderId" is missing`);
    else if (!MODES.includes(mode as SyncMode))
      problems.push(`syncLinks[${i}]: "mode" must be one of ${MODES.join(', ')}`);
    else
      links.push({
        local: o.local.replace(/\\/g, '/').replace(/^\/+|\/+$/g, ''),
        storeFolderId: o.storeFolderId,
        storeName: typeof o.storeName === 'string' && o.storeName ? o.storeName : o.storeFolderId,
        mode: mode as SyncMode,
        ...(Array.isArray(o.exclude) ? { exclude: o.exclude.filter((x): x is string => typeof x === 'string') } : {}),
      });
  });
  return { links, problems };
}

/** `stopped`: the last run was cancelled (or cut short by a reload) before the end; the next one finishes it. */
export type LinkPhase = 'plan' | 'idle' | 'running' | 'paused' | 'error' | 'stopped';

export interface LinkStatus {
  phase: LinkPhase;
  /** While running: actions done and planned. */
  done: number;
  total: number;
  conflicts: number;
  errors: number;
}

export interface OverallStatus {
  kind: 'running' | 'error' | 'conflicts' | 'stopped' | 'plan' | 'paused' | 'ok';
  links: number;
  /** Running links: actions done and planned, summed. */
  done: number;
  total: number;
  conflicts: number;
  /** Links whose last run failed, and items the last runs could not do. */
  failedLinks: number;
  errors: number;
}

/** What the status bar says over every link (undefined when there is none), the most pressing first. */
export function overallStatus(all: readonly LinkStatus[]): OverallStatus | undefined {
  if (!all.length) return undefined;
  const sum = (f: (s: LinkStatus) => number, of = all) => of.reduce((a, s) => a + f(s), 0);
  const running = all.filter((s) => s.phase === 'running');
  const failedLinks = all.filter((s) => s.phase === 'error').length;
  const out = {
    links: all.length,
    done: Math.min(
      sum((s) => s.done, running),
      sum((s) => s.total, running),
    ),
    total: sum((s) => s.total, running),
    conflicts: sum((s) => s.conflicts),
    failedLinks,
    errors: sum((s) => s.errors),
  };
  const kind: OverallStatus['kind'] = running.length
    ? 'running'
    : failedLinks || out.errors
      ? 'error'
      : out.conflicts
        ? 'conflicts'
        : all.some((s) => s.phase === 'stopped')
          ? 'stopped'
          : all.some((s) => s.phase === 'plan')
            ? 'plan'
            : all.every((s) => s.phase === 'paused')
              ? 'paused'
              : 'ok';
  return { kind, ...out };
}
