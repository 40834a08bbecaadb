// What a stored item is to a file system: folder or file (a shortcut acts as its target), the MIME
// type a local name implies, and the text format a workspace document opens as.
import { FOLDER_MIME, SHORTCUT_MIME, type File } from '../../shared/wire/storage';
import { ownValue } from '../../shared/wire/ownKeys';

/** What a workspace document opens as: a text export of it. */
const DOC_TEXT: Record<string, string> = {
  'application/vnd.google-apps.document': 'text/plain',
  'application/vnd.google-apps.spreadsheet': 'text/csv',
  'application/vnd.google-apps.presentation': 'text/plain',
  'application/vnd.google-apps.drawing': 'image/svg+xml',
  'application/vnd.google-apps.script': 'application/vnd.google-apps.script+json',
};

/** The type a workspace document is exported as when opened. */
export function openAsType(f: File): string {
  return ownValue(DOC_TEXT, f.mimeType ?? '') ?? 'text/plain';
}

export function isDirectory(f: File): boolean {
  return (
    f.mimeType === FOLDER_MIME || (f.mimeType === SHORTCUT_MIME && f.shortcutDetails?.targetMimeType === FOLDER_MIME)
  );
}

/** Shortcuts act as their target. */
export function targetId(f: File): string {
  return f.mimeType === SHORTCUT_MIME && f.shortcutDetails?.targetId ? f.shortcutDetails.targetId : f.id!;
}

const TYPES: Record<string, string> = {
  txt: 'text/plain',
  md: 'text/markdown',
  json: 'application/json',
  csv: 'text/csv',
  html: 'text/html',
  htm: 'text/html',
  xml: 'application/xml',
  js: 'text/javascript',
  ts: 'text/x-typescript',
  css: 'text/css',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  pdf: 'application/pdf',
  zip: 'application/zip',
  yaml: 'application/x-yaml',
  yml: 'application/x-yaml',
  py: 'text/x-python',
};

export function guessType(name: string): string {
  const ext = /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';
  return ownValue(TYPES, ext) ?? 'application/octet-stream';
}
