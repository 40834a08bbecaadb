// Tests that check our code against the real recordings and documents in ../shared find them here. When
// the data is missing they FAIL with this error (never skip): a green run without the data would claim
// checks that did not happen.
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const REPO_ROOT = resolve(__dirname, '../..');

/** The shared data folder: $API_WORKBENCH_DATA, else ../shared/data beside the repository. */
function dataRoot(): string {
  return process.env.API_WORKBENCH_DATA ?? resolve(REPO_ROOT, '../shared/data');
}

function mustExist(path: string, what: string): string {
  if (!existsSync(path)) {
    throw new Error(
      `${what} not found at ${path}. The shared data lives beside the repository (../shared); ` +
        'check it out there or point API_WORKBENCH_DATA at its data folder.',
    );
  }
  return path;
}

/** A file or folder under the shared data folder, e.g. sharedData('discovery', 'drive.v2.json'); throws if missing. */
export function sharedData(...parts: string[]): string {
  return mustExist(join(dataRoot(), ...parts), `shared data ${parts.join('/')}`);
}

/** The files in a shared data folder that pass `keep`; throws if the folder is missing or none pass. */
export function sharedDataFiles(folder: string, keep: (name: string) => boolean): string[] {
  const dir = sharedData(folder);
  const files = readdirSync(dir)
    .filter(keep)
    .sort()
    .map((f) => join(dir, f));
  if (files.length === 0) throw new Error(`no matching files in the shared data folder ${dir}`);
  return files;
}

/** The specification (../shared/spec/specification.md); throws if missing. */
export function sharedSpecification(): string {
  return mustExist(resolve(dataRoot(), '../spec/specification.md'), 'the specification');
}

/**
 * For suites that make one test per shared file, listed while mocha loads them: a missing folder must not
 * crash the whole run at load time, so the error is kept for a test that throws it (and fails).
 */
export function listAtLoad(list: () => string[]): { files: string[]; failIfMissing: () => void } {
  try {
    const files = list();
    return { files, failIfMissing: () => undefined };
  } catch (err) {
    return {
      files: [],
      failIfMissing: () => {
        throw err;
      },
    };
  }
}
