// `api-workbench sync`: one run of the two-way (or one-way) sync between a local folder and a store
// folder, thin over src/storage/core/sync. One line per action (text, or JSON with --json) and a last
// summary line; exit 0 when the run finished with both sides the same, 4 when the max-delete guard stopped it
// before it deleted anything, 1 on other errors, 2 on misuse.
import { StorageClient } from '../storage/core/client';
import { StorageError } from '../storage/core/errors';
import type { SyncEvent } from '../storage/core/sync/apply';
import { syncFolder, type SyncSummary } from '../storage/core/sync/engine';
import type { SyncMode } from '../storage/core/sync/model';
import { resolveStoreFolder } from '../storage/core/sync/storeFolder';
import { EXPORT_EXTENSIONS, parseExportFlag, type ExportFormats } from '../storage/core/sync/exports';
import { isAbortError, redactText } from '../shared/http';
import { parseArgs, stringFlag, UsageError } from './args';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, type CliCommand } from './io';

export const EXIT_MAX_DELETE = 4;

export const SYNC_USAGE =
  'usage: api-workbench sync [--base-url URL] [--access-token T] [--mode two-way|upload|download] [--dry-run] [--json] [--max-delete PCT] [--export KIND=FORMAT,...] LOCAL_DIR STORE_FOLDER';

const HELP = `${SYNC_USAGE}

Makes LOCAL_DIR and the store folder the same. STORE_FOLDER is a folder id, root, or a path of titles
from My files (/Projects/site).
  --mode two-way    both sides' changes go to the other (default); a file changed on both sides is
                    kept twice: the local version as "NAME (conflict YYYY-MM-DD local).ext"
  --mode upload     local changes go to the store; a store-side edit is never overwritten (conflict copy)
  --mode download   the mirror image
  --dry-run         print the plan and change nothing (exit 4 if the max-delete guard would stop)
  --json            one JSON object per action, then {"summary": {...}}
  --max-delete PCT  stop without deleting when a run would delete more than PCT % of the synced files
                    (default 50)
  --export KIND=FORMAT,...
                    sync workspace documents of these kinds as their export (download-only: a local
                    edit is reported, never uploaded); KIND is document, spreadsheet, presentation,
                    drawing, script or a full type; FORMAT is ${EXPORT_EXTENSIONS.join(', ')} or a full
                    type. Other documents are skipped (reported). Example: --export document=pdf,spreadsheet=xlsx
  --base-url URL    the storage service's origin (default $API_WORKBENCH_STORAGE_BASE_URL)
  --access-token T  default $API_WORKBENCH_STORAGE_TOKEN (never printed)
Deletions go to the store's trash and to LOCAL_DIR/.api-workbench-sync/trash. Paths matching
LOCAL_DIR/.storeignore (gitignore syntax) are not synced. Exit 0: done, 4: stopped by --max-delete,
1: an error, or items that changed during the run (the next run resumes), 2: usage.
`;

const MODES: SyncMode[] = ['two-way', 'upload', 'download'];

export const syncCommand: CliCommand = async (args, io) => {
  let baseUrl: string;
  let token: string;
  let mode: SyncMode;
  let maxDelete = 50;
  let exportFormats: ExportFormats | undefined;
  let json: boolean;
  let dryRun: boolean;
  let localDir: string;
  let folder: string;
  try {
    const p = parseArgs(args, {
      values: ['base-url', 'access-token', 'mode', 'max-delete', 'export'],
      booleans: ['dry-run', 'json', 'help'],
    });
    if (p.flags.has('help')) {
      io.stdout.write(HELP);
      return EXIT_OK;
    }
    const m = stringFlag(p, 'mode') ?? 'two-way';
    if (!MODES.includes(m as SyncMode)) throw new UsageError(`--mode is two-way, upload or download, not ${m}`);
    mode = m as SyncMode;
    const md = stringFlag(p, 'max-delete');
    if (md !== undefined) {
      if (!/^\d+(\.\d+)?$/.test(md) || Number(md) > 100)
        throw new UsageError(`--max-delete is a percentage from 0 to 100, not ${md}`);
      maxDelete = Number(md);
    }
    const ex = stringFlag(p, 'export');
    if (ex !== undefined) {
      try {
        exportFormats = parseExportFlag(ex);
      } catch (e) {
        throw new UsageError(`--export: ${(e as Error).message}`);
      }
    }
    json = p.flags.has('json');
    dryRun = p.flags.has('dry-run');
    const url = stringFlag(p, 'base-url') ?? io.env.API_WORKBENCH_STORAGE_BASE_URL;
    if (!url) throw new UsageError('no service: pass --base-url or set API_WORKBENCH_STORAGE_BASE_URL');
    if (!/^https?:\/\/[^/]+/.test(url)) throw new UsageError(`--base-url must be an http(s) URL, not ${url}`);
    if (/\/store\/v2\/?$/.test(url))
      throw new UsageError('--base-url is the service origin (as `sandbox` prints it), without /store/v2');
    baseUrl = url.replace(/\/+$/, '');
    const t = stringFlag(p, 'access-token') ?? io.env.API_WORKBENCH_STORAGE_TOKEN;
    if (!t) throw new UsageError('no access token: pass --access-token or set API_WORKBENCH_STORAGE_TOKEN');
    token = t;
    if (p.positionals.length !== 2)
      throw new UsageError(`give LOCAL_DIR and STORE_FOLDER (${p.positionals.length} argument(s) given)`);
    [localDir, folder] = p.positionals;
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.stderr.write(`api-workbench sync: ${err.message}\n${SYNC_USAGE}\n`);
    return EXIT_USAGE;
  }

  const abort = new AbortController();
  void io.interrupted.then(() => abort.abort());
  const client = new StorageClient({ baseUrl, auth: { token: () => token } });
  const print = (e: SyncEvent) =>
    io.stdout.write(
      json
        ? `${JSON.stringify(e)}\n`
        : `${e.action.padEnd(12)} ${e.path}${e.to ? ` -> ${e.to}` : ''}${e.reason ? ` (${e.reason})` : ''}\n`,
    );
  let summary: SyncSummary;
  try {
    const storeFolderId = await resolveStoreFolder(client, folder, abort.signal);
    ({ summary } = await syncFolder({
      client,
      localDir,
      storeFolderId,
      mode,
      dryRun,
      maxDeletePercent: maxDelete,
      exportFormats,
      signal: abort.signal,
      onEvent: print,
    }));
  } catch (e) {
    io.stderr.write(`api-workbench sync: ${failure(e, abort.signal.aborted)}\n`);
    return EXIT_FAILURE;
  }
  if (json) io.stdout.write(`${JSON.stringify({ summary })}\n`);
  else io.stdout.write(describe(summary) + '\n');
  if (summary.stoppedByMaxDelete) {
    const over = `${summary.deletes} files, more than ${maxDelete}% of those synced`;
    io.stderr.write(
      dryRun
        ? `api-workbench sync: a run would stop here: it would delete ${over}. Raise --max-delete if these deletions are meant.\n`
        : `api-workbench sync: stopped: the run would delete ${over}; nothing was changed. Check the plan with --dry-run, then raise --max-delete.\n`,
    );
    return EXIT_MAX_DELETE;
  }
  if (summary.deferred)
    io.stderr.write(
      `api-workbench sync: ${summary.deferred} item(s) changed during the run and were left as they are; run again to sync them\n`,
    );
  return summary.errors || summary.deferred ? EXIT_FAILURE : EXIT_OK;
};

/** What went wrong, said for someone at a command line (the flags and variables they can change). */
function failure(e: unknown, interrupted: boolean): string {
  if (isAbortError(e) || interrupted) return 'interrupted; the next run resumes';
  const message = redactText((e as Error).message ?? String(e));
  if (e instanceof StorageError && e.action === 'signIn')
    return `the service refused the access token (${e.status} ${e.serverMessage}): pass a valid one with --access-token or set API_WORKBENCH_STORAGE_TOKEN`;
  return message;
}

function describe(s: SyncSummary): string {
  const parts = Object.entries(s.counts).map(([k, n]) => `${n} ${k}`);
  // A run the guard stopped did none of its plan: the counts are what it would have done.
  const what = s.dryRun ? 'plan' : s.stoppedByMaxDelete ? 'stopped before any change; the plan was' : 'done';
  return `${what} (${s.mode}, store read from ${s.storeRead === 'full' ? 'a full listing' : 'the change feed'}): ${parts.join(', ') || 'nothing to do'}${s.skipped ? `; ${s.skipped} skipped` : ''}${s.errors ? `; ${s.errors} errors` : ''}`;
}
