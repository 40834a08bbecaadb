// How files read in the tree: human sizes, short dates, and a codicon per kind of content.
import { FOLDER_MIME, SHORTCUT_MIME, type File } from '../../shared/wire/storage';

export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = bytes / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}

/** `2026-01-05 09:00` in UTC: stable across machines, sortable, unambiguous. */
export function formatDate(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toISOString().slice(0, 16).replace('T', ' ');
}

const BY_MIME: [RegExp, string][] = [
  [/^application\/vnd\.google-apps\.document$/, 'file-text'],
  [/^application\/vnd\.google-apps\.spreadsheet$/, 'table'],
  [/^application\/vnd\.google-apps\.presentation$/, 'preview'],
  [/^application\/vnd\.google-apps\.drawing$/, 'symbol-color'],
  [/^application\/vnd\.google-apps\.script$/, 'file-code'],
  [/^application\/vnd\.google-apps\.form$/, 'checklist'],
  [/^image\//, 'file-media'],
  [/^(video|audio)\//, 'play-circle'],
  [/^application\/pdf$/, 'file-pdf'],
  [/^application\/(zip|x-zip-compressed|gzip|x-tar|x-7z-compressed)$/, 'file-zip'],
  [/^(text\/csv|text\/tab-separated-values|application\/vnd\.openxmlformats-officedocument\.spreadsheetml)/, 'table'],
  [/^(application\/json|application\/javascript|text\/(javascript|x-|html|css|xml)|application\/xml)/, 'file-code'],
  [/^text\/markdown$/, 'markdown'],
  [/^text\//, 'file-text'],
];

export function iconFor(f: Pick<File, 'mimeType' | 'shortcutDetails'>): string {
  const m = f.mimeType ?? '';
  if (m === FOLDER_MIME) return 'folder';
  if (m === SHORTCUT_MIME)
    return f.shortcutDetails?.targetMimeType === FOLDER_MIME ? 'folder-library' : 'file-symlink-file';
  for (const [re, icon] of BY_MIME) if (re.test(m)) return icon;
  return 'file';
}
