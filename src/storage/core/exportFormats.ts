// Which local format a workspace document becomes: the preferred one when downloading, and the
// file extension of every export type the service offers (for the Export picker and save dialog).

/** Preferred export format per workspace type when downloading (the user can pick others via Export). */
export const DOWNLOAD_EXPORT: Readonly<Record<string, { mime: string; ext: string }>> = {
  'application/vnd.google-apps.document': {
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    ext: 'docx',
  },
  'application/vnd.google-apps.spreadsheet': {
    mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ext: 'xlsx',
  },
  'application/vnd.google-apps.presentation': { mime: 'application/pdf', ext: 'pdf' },
  'application/vnd.google-apps.drawing': { mime: 'image/svg+xml', ext: 'svg' },
  'application/vnd.google-apps.script': { mime: 'application/vnd.google-apps.script+json', ext: 'json' },
};

const EXTENSION_OF: Readonly<Record<string, string>> = {
  'application/pdf': 'pdf',
  'text/plain': 'txt',
  'text/markdown': 'md',
  'text/html': 'html',
  'application/rtf': 'rtf',
  'text/csv': 'csv',
  'text/tab-separated-values': 'tsv',
  'image/svg+xml': 'svg',
  'application/zip': 'zip',
  'application/vnd.oasis.opendocument.text': 'odt',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.google-apps.script+json': 'json',
};

/** The file extension of an export type, when we know one. */
export function extensionOf(mimeType: string): string | undefined {
  return Object.hasOwn(EXTENSION_OF, mimeType) ? EXTENSION_OF[mimeType] : undefined;
}

/** Choices for the Export picker: one per export link, labelled by extension where known. */
export function exportChoices(exportLinks: Record<string, string>): { label: string; mimeType: string }[] {
  return Object.keys(exportLinks).map((mimeType) => {
    const ext = extensionOf(mimeType);
    return { label: ext ? `.${ext}` : mimeType, mimeType };
  });
}
