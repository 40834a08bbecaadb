// One folder on disk is kept in sync by one link, and links never nest. A folder synced with two store folders
// would merge them (each link uploads what the other downloaded), and files inside two links' folders would be
// changed by two engines. Refused before a run changes anything: the same folder or one above it here, one
// below it by the walk (localScan.ts); the editor checks before it saves a link.
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { STATE_DIR, statePath } from './state';

const STATE_FILE = /^state-.+\.json$/;

/** The state files of links kept in `dir` (none when it holds no state folder). */
export async function linkStates(dir: string): Promise<string[]> {
  const names = await fsp.readdir(path.join(dir, STATE_DIR)).catch(() => [] as string[]);
  return names.filter((n) => STATE_FILE.test(n));
}

/** Why `root` cannot be synced with `storeFolderId`, or undefined when nothing else syncs it. */
export async function linkOverlap(root: string, storeFolderId: string): Promise<string | undefined> {
  const own = path.basename(statePath(root, storeFolderId));
  const others = (await linkStates(root)).filter((n) => n !== own);
  if (others.length)
    return `${root} is synced with another store folder already (${STATE_DIR}/${others[0]}); a folder syncs with one store folder: unlink it in the editor (or delete that file) to sync it with this one`;
  for (let dir = path.dirname(root); dir !== path.dirname(dir); dir = path.dirname(dir))
    if ((await linkStates(dir)).length)
      return `${root} is inside ${dir}, which is synced with a store folder already; sync that folder, or unlink it first (in the editor, or delete its ${STATE_DIR}/state-*.json)`;
  return undefined;
}

/** A folder below the one being synced is another link's: nothing of the run is done. */
export class NestedLinkError extends Error {
  constructor(root: string, rel: string) {
    super(
      `${path.join(root, rel)} inside ${root} is synced with a store folder already (links never nest); sync the folders side by side, or unlink that one first (in the editor, or delete its ${STATE_DIR}/state-*.json)`,
    );
    this.name = 'NestedLinkError';
  }
}
