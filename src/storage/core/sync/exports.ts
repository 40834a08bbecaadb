// Workspace documents (`application/vnd.google-apps.*`) have no bytes of their own: a sync exports each
// kind the user chose (SyncOptions.exportFormats: document type → export type) to a local file named after
// the document with the export's extension, and skips the others (reported). An export is download-only: a
// change of the document exports it again; a local edit, move or deletion of the export is reported and
// never sent to the store. The CLI's `--export` and the editor's `apiWorkbench.storage.sync.export` setting
// both go through `exportFormatsFrom`.
import { WORKSPACE_MIME_PREFIX } from '../../../shared/wire/storage';
import { extensionOf } from '../exportFormats';

/** Document type → export type, e.g. `application/vnd.google-apps.document` → `application/pdf`. */
export type ExportFormats = Readonly<Record<string, string>>;

/** The document kinds a user names without the type's prefix (`document=pdf`). */
export const DOCUMENT_KINDS = ['document', 'spreadsheet', 'presentation', 'drawing', 'script'] as const;

/** Export types by the extension a user writes (`pdf`, `docx`…). */
const TYPE_OF_EXTENSION: Readonly<Record<string, string>> = {
  pdf: 'application/pdf',
  txt: 'text/plain',
  md: 'text/markdown',
  html: 'text/html',
  rtf: 'application/rtf',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  svg: 'image/svg+xml',
  zip: 'application/zip',
  odt: 'application/vnd.oasis.opendocument.text',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  json: 'application/vnd.google-apps.script+json',
};

/** Extensions a user can write, for messages and the setting's choices. */
export const EXPORT_EXTENSIONS = Object.keys(TYPE_OF_EXTENSION);

const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;

/**
 * Document type → export type from what a user wrote: a kind (`document`) or a full document type, and an
 * extension (`pdf`) or a full export type. Throws an Error that says what is wrong with the first bad entry.
 */
export function exportFormatsFrom(choices: Readonly<Record<string, string>>): ExportFormats {
  const out: Record<string, string> = {};
  for (const [kind, target] of Object.entries(choices)) {
    const k = kind.trim();
    const source = (DOCUMENT_KINDS as readonly string[]).includes(k)
      ? `${WORKSPACE_MIME_PREFIX}${k}`
      : k.startsWith(WORKSPACE_MIME_PREFIX) && MIME.test(k)
        ? k
        : undefined;
    if (!source)
      throw new Error(
        `"${kind}" is not a kind of workspace document: use ${DOCUMENT_KINDS.join(', ')} or a full ${WORKSPACE_MIME_PREFIX}* type`,
      );
    const t = target.trim();
    const type = Object.hasOwn(TYPE_OF_EXTENSION, t.toLowerCase())
      ? TYPE_OF_EXTENSION[t.toLowerCase()]
      : MIME.test(t)
        ? t
        : undefined;
    if (!type)
      throw new Error(`"${target}" is not an export format: use ${EXPORT_EXTENSIONS.join(', ')} or a full type`);
    out[source] = type;
  }
  return out;
}

/** Parses the CLI's `--export document=pdf,spreadsheet=xlsx` (entries separated by commas). */
export function parseExportFlag(text: string): ExportFormats {
  const choices: Record<string, string> = {};
  for (const part of text.split(',')) {
    if (!part.trim()) continue;
    const eq = part.indexOf('=');
    if (eq < 0) throw new Error(`"${part}" is not KIND=FORMAT (for example document=pdf)`);
    choices[part.slice(0, eq)] = part.slice(eq + 1);
  }
  if (!Object.keys(choices).length) throw new Error('--export needs at least one KIND=FORMAT');
  return exportFormatsFrom(choices);
}

/** The local name of a document's export: its title with the export's extension (unless it has it already). */
export function exportName(title: string, type: string): string {
  const ext = extensionOf(type);
  if (!ext || title.toLowerCase().endsWith(`.${ext}`)) return title;
  return `${title}.${ext}`;
}

/** What the sync compares to know a document changed: the export type, the document's modified time and etag. */
export function exportVersion(type: string, modified: string | undefined, etag: string | undefined): string {
  return `export ${type} ${modified ?? ''} ${etag ?? ''}`;
}
