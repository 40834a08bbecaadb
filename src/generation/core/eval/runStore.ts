// Where the editor keeps evaluation runs: `<workspace>/.api-workbench/evals/<prompt name>/<stamp>.jsonl` (the
// cells, appended as they complete: outFile.ts) and `<stamp>.meta.json` beside it (the run's columns and rows,
// written whole before the first cell). The folder gets a `.gitignore` of `*` when it is made, so runs stay out
// of version control unless the user removes it.
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { RunMeta } from './grid';
import { readEarlierRun } from './outFile';
import type { CellResult } from './runner';

export const RUNS_FOLDER = join('.api-workbench', 'evals');

/** A file-name-safe stamp of a time that sorts as the time does: 2026-11-29T01-02-03-456Z. */
export function runStamp(d: Date): string {
  return d.toISOString().replace(/[:.]/g, '-');
}

/** The folder of a prompt's runs: named after the prompt file, without `.prompt`. */
export function promptRunsFolder(workspaceRoot: string, promptPath: string): string {
  const name = basename(promptPath).replace(/\.prompt$/i, '') || 'prompt';
  return join(workspaceRoot, RUNS_FOLDER, name.replace(/[^\w.-]/g, '_'));
}

export interface RunFiles {
  results: string;
  meta: string;
  stamp: string;
}

export function runFiles(folder: string, stamp: string): RunFiles {
  return { results: join(folder, `${stamp}.jsonl`), meta: join(folder, `${stamp}.meta.json`), stamp };
}

/** Makes the runs folder (with its `.gitignore` the first time). */
export async function ensureRunsFolder(workspaceRoot: string, folder: string): Promise<void> {
  const evals = join(workspaceRoot, RUNS_FOLDER);
  await mkdir(folder, { recursive: true });
  await writeFile(
    join(evals, '.gitignore'),
    '# Evaluation runs of API Workbench; delete this file to commit them.\n*\n',
    {
      flag: 'wx',
    },
  ).catch((e: NodeJS.ErrnoException) => {
    if (e.code !== 'EEXIST') throw e;
  });
}

/** Writes the meta file whole (a temporary file renamed over it), so it is never read half written. */
export async function writeRunMeta(path: string, meta: RunMeta): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(meta, null, 2) + '\n');
  await rename(tmp, path);
}

function isRunMeta(v: unknown): v is RunMeta {
  const m = v as Partial<RunMeta> | null;
  return (
    typeof m === 'object' &&
    m !== null &&
    m.version === 1 &&
    typeof m.prompt === 'string' &&
    (m.dataset === null || typeof m.dataset === 'string') &&
    Array.isArray(m.variants) &&
    m.variants.every((x) => typeof x === 'string') &&
    Array.isArray(m.items) &&
    m.items.every(
      (i) => typeof i === 'object' && i !== null && typeof i.index === 'number' && typeof i.label === 'string',
    ) &&
    typeof m.startedAt === 'string' &&
    typeof m.concurrency === 'number'
  );
}

export interface StoredRun {
  files: RunFiles;
  meta: RunMeta;
  cells: Map<string, CellResult>;
  /** Bytes of whole lines of the results file (a resume appends after them). */
  validBytes: number;
}

/** The meta file kept beside a results file (`run.jsonl` → `run.meta.json`). */
export function metaPathOf(resultsPath: string): string {
  return resultsPath.replace(/\.jsonl$/i, '') + '.meta.json';
}

/**
 * Reads a run from its results file (`.jsonl`) and the meta file beside it. A results file without one (an
 * `eval --out` file) gets a meta from its cells: variants and items in the order they first appear.
 */
export async function readRun(resultsPath: string): Promise<StoredRun> {
  const stamp = basename(resultsPath).replace(/\.jsonl$/i, '');
  const files: RunFiles = { results: resultsPath, meta: metaPathOf(resultsPath), stamp };
  const { cells, validBytes } = await readEarlierRun(resultsPath);
  let meta: RunMeta | undefined;
  try {
    const v: unknown = JSON.parse(await readFile(files.meta, 'utf8'));
    if (!isRunMeta(v)) throw new Error(`${files.meta}: not the meta file of an evaluation run`);
    meta = v;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  if (!meta) {
    const variants = [...new Set([...cells.values()].map((c) => c.variant))];
    const items = [...new Set([...cells.values()].map((c) => c.item))].sort((a, b) => a - b);
    meta = {
      version: 1,
      prompt: stamp,
      dataset: null,
      variants,
      items: items.map((index) => ({ index, label: `item ${index}` })),
      startedAt: '',
      concurrency: 0,
    };
  }
  return { files, meta, cells, validBytes };
}

/** The runs of a prompt's folder, newest first (by stamp); a missing folder has none. */
export async function listRuns(folder: string): Promise<RunFiles[]> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  return names
    .filter((n) => n.endsWith('.jsonl'))
    .map((n) => runFiles(folder, n.slice(0, -'.jsonl'.length)))
    .sort((a, b) => (a.stamp < b.stamp ? 1 : a.stamp > b.stamp ? -1 : 0));
}
