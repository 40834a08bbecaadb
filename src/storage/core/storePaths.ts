// How `store:` URIs address files. Titles are not unique and may contain `/`, and a file can sit
// in several folders, so a path starts with an id and continues with readable names:
//   store:/<id>                      a folder (or My files: `root`) opened as a workspace folder
//   store:/<folderId>/<name>/<name>  items below that folder, by display name
//   store:/My files/<name>/<name>    a file opened from the tree: its folder path from the root the
//                                    user browsed (also `Shared drives/<drive>/…`, `Shared with me/…`;
//                                    from Starred, Recent or a search, the folder path found through its
//                                    parents; see storeRoots.ts, treePaths.ts and readablePaths.ts)
//   store:/Trash/<name>/<name>       an item in the trash, read-only
//   store:/<fileId>/<name>           one file on its own, by id (the name is only for display)
// Display names replace `/` and control characters; when several children of a folder share a
// name, each gets `~<id prefix>` before its extension, so every name in a listing is unique.

// eslint-disable-next-line no-control-regex -- matching the C0 controls and DEL is the point: names must not hold them
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/g;

/** The text without C0 control characters and DEL, which no file name or label should carry. */
export function stripControlChars(text: string): string {
  return text.replace(CONTROL_CHARS, '');
}

const SLASH = '\u2215'; // ∕ DIVISION SLASH: looks like `/`, is not a separator
const BACKSLASH = '\u29f5'; // ⧵ REVERSE SOLIDUS OPERATOR

export function displayName(title: string | undefined): string {
  let n = stripControlChars(title ?? '')
    .replace(/\//g, SLASH)
    .replace(/\\/g, BACKSLASH);
  if (n === '') n = 'Untitled';
  if (n === '.' || n === '..') n = n.replace(/\./g, '\u2024'); // ․ ONE DOT LEADER
  return n;
}

function withHint(name: string, hint: string, isFolder: boolean): string {
  const dot = name.lastIndexOf('.');
  if (isFolder || dot <= 0) return `${name}~${hint}`;
  return `${name.slice(0, dot)}~${hint}${name.slice(dot)}`;
}

/** Unique names for a folder's children (id → name), stable for a given set of children. */
export function childNames(children: { id?: string; title?: string; folder: boolean }[]): Map<string, string> {
  const byName = new Map<string, { id: string; folder: boolean }[]>();
  for (const c of children) {
    if (!c.id) continue;
    const n = displayName(c.title);
    const list = byName.get(n) ?? [];
    list.push({ id: c.id, folder: c.folder });
    byName.set(n, list);
  }
  const out = new Map<string, string>();
  for (const [name, list] of byName) {
    if (list.length === 1) {
      out.set(list[0].id, name);
      continue;
    }
    // Shortest id prefix (at least 6) that tells the duplicates apart.
    let len = 6;
    while (len < 64 && new Set(list.map((x) => x.id.slice(0, len))).size < list.length) len++;
    for (const x of list) out.set(x.id, withHint(name, x.id.slice(0, len), x.folder));
  }
  return out;
}

/** The id prefix a disambiguated name carries, if any. */
export function hintOf(segment: string): { base: string; hint: string } | undefined {
  const m = /^(.*)~([A-Za-z0-9_-]{6,})(\.[^.~]*)?$/.exec(segment);
  return m ? { base: m[1] + (m[3] ?? ''), hint: m[2] } : undefined;
}

export function splitPath(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

/** Path of a single file opened from the tree. */
export function filePath(id: string, title: string | undefined): string {
  return `/${id}/${displayName(title)}`;
}

export function folderPath(id: string): string {
  return `/${id}`;
}

/**
 * The part of a name a rename selects: all of it but the extension (`report.final.pdf` → `report.final`).
 * A folder, a leading-dot name (`.env`) or one without a dot is selected whole.
 */
export function nameSelection(name: string, folder = false): [number, number] {
  const dot = name.lastIndexOf('.');
  return folder || dot <= 0 ? [0, name.length] : [0, dot];
}
