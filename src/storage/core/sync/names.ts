// Names: which store titles the local file system can hold as they are, and the name of a conflict copy.
import * as path from 'node:path';
import { STATE_DIR } from './state';

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i;
// eslint-disable-next-line no-control-regex -- control characters are what Windows refuses in names
const WINDOWS_REFUSED = /[\\:*?"<>|\u0000-\u001f]/;

/** Why a store title cannot be a local file name as it is (undefined when it can). Never mangled: reported. */
export function unfitLocalName(title: string, platform: NodeJS.Platform = process.platform): string | undefined {
  if (title === '') return 'the title is empty';
  if (title === '.' || title === '..') return `"${title}" names a folder itself on disk`;
  if (title.includes('/')) return 'the title holds "/", a path separator on disk';
  // Any case: on a disk that ignores case it would be the sync's own folder.
  if (title.toLowerCase() === STATE_DIR) return `"${STATE_DIR}" is the name of the sync's own folder, never synced`;
  if (title.includes('\u0000')) return 'the title holds a NUL character';
  if (Buffer.byteLength(title) > 255) return 'the title is longer than 255 bytes';
  if (platform === 'win32') {
    if (WINDOWS_REFUSED.test(title)) return 'the title holds a character Windows refuses in file names';
    if (WINDOWS_RESERVED.test(title)) return 'the title is a name Windows reserves';
    if (/[. ]$/.test(title)) return 'the title ends in a dot or a space, which Windows drops';
  }
  return undefined;
}

/** `YYYY-MM-DD` of a date in UTC. */
export function day(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** Splits `report.final.pdf` into `report.final` and `.pdf`; `.env` and `README` have no extension. */
function splitExt(name: string): [string, string] {
  const ext = path.posix.extname(name);
  return ext && ext !== name ? [name.slice(0, name.length - ext.length), ext] : [name, ''];
}

/** `NAME (conflict YYYY-MM-DD side).ext` in the same folder as `relPath`; `n` > 1 adds a number. */
export function conflictPath(relPath: string, side: 'local' | 'store', now: Date, n = 1): string {
  const dir = path.posix.dirname(relPath);
  const [stem, ext] = splitExt(path.posix.basename(relPath));
  const name = `${stem} (conflict ${day(now)} ${side}${n > 1 ? ` ${n}` : ''})${ext}`;
  return dir === '.' ? name : `${dir}/${name}`;
}

/** Whether `candidate` is a conflict copy of `relPath` (any date, side or number). */
export function isConflictCopyOf(candidate: string, relPath: string): boolean {
  if (path.posix.dirname(candidate) !== path.posix.dirname(relPath)) return false;
  const [stem, ext] = splitExt(path.posix.basename(relPath));
  const name = path.posix.basename(candidate);
  if (!name.startsWith(`${stem} (conflict `) || !name.endsWith(`)${ext}`)) return false;
  const middle = name.slice(stem.length + ' (conflict '.length, name.length - ext.length - 1);
  return /^\d{4}-\d{2}-\d{2} (local|store)( \d+)?$/.test(middle);
}

/** The parent of a relative path (`''` for the top). */
export function parentOf(relPath: string): string {
  const i = relPath.lastIndexOf('/');
  return i < 0 ? '' : relPath.slice(0, i);
}

export function baseName(relPath: string): string {
  return relPath.slice(relPath.lastIndexOf('/') + 1);
}

/** `true` when `p` is `folder` or below it. */
export function within(p: string, folder: string): boolean {
  return p === folder || p.startsWith(`${folder}/`);
}
