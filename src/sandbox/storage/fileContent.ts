// New content for a file with Drive v2 semantics: a new head revision (or the head replaced), import
// conversion to workspace documents, the purge of old unpinned revisions, and indexable text.
import { FOLDER_MIME, SHORTCUT_MIME, isWorkspaceDocument } from '../../shared/wire/storage';
import { badRequest } from './errors';
import { makeId, type StoredFile } from './model';
import type { BlobRef } from './blobs';
import { boolParam } from './params';
import { newRevision } from './records';
import type { StorageService } from './service';

/** Source MIME → workspace type, for `convert=true`. */
const IMPORTS: Record<string, string> = {
  'text/plain': 'application/vnd.google-apps.document',
  'text/markdown': 'application/vnd.google-apps.document',
  'text/html': 'application/vnd.google-apps.document',
  'text/csv': 'application/vnd.google-apps.spreadsheet',
  'image/svg+xml': 'application/vnd.google-apps.drawing',
};

const MAX_UNPINNED_REVISIONS = 100;
/** Larger text contents are not read into memory to become indexable text. */
const INDEXABLE_TEXT_SOURCE_MAX = 4 * 1024 * 1024;

/**
 * New content for a file: a new head revision (or, with newRevision=false, replaces the head one).
 * `convert=true` turns importable types into workspace documents.
 */
export function setContent(
  svc: StorageService,
  f: StoredFile,
  bytes: BlobRef,
  q: URLSearchParams,
  opts: { type?: string; insert?: boolean } = {},
): void {
  if (f.mimeType === FOLDER_MIME || f.mimeType === SHORTCUT_MIME)
    throw badRequest('Folders and shortcuts have no content.', undefined, 'invalidContent');
  const sourceType = (opts.type ?? f.mimeType).split(';')[0].trim();
  if (opts.insert && boolParam(q, 'convert', false) && IMPORTS[sourceType]) {
    f.mimeType = IMPORTS[sourceType];
    f.title = f.title.replace(/\.(txt|md|markdown|html?|csv|svg)$/i, '');
  } else if (opts.type && !isWorkspaceDocument(f) && opts.insert) f.mimeType = sourceType;
  if (isWorkspaceDocument(f) && !opts.insert && !IMPORTS[sourceType] && sourceType !== f.mimeType) {
    throw badRequest(`Content of type ${sourceType} cannot replace a ${f.mimeType}.`, undefined, 'invalidContent');
  }
  const now = svc.store.nowIso();
  const addRevision = boolParam(q, 'newRevision', true);
  const head = f.revisions[f.revisions.length - 1];
  const doc = isWorkspaceDocument(f);
  if (!addRevision && head && !opts.insert) {
    head.content = bytes;
    head.modifiedDate = now;
    head.mimeType = f.mimeType;
    head.lastModifyingUserId = svc.store.state.meId;
  } else {
    f.revisions.push(
      newRevision({
        id: doc
          ? String(Number(head?.id ?? 0) + 1)
          : makeId(`rev:${f.id}`, f.revisions.length + 1 + f.version, 24).slice(1),
        mimeType: f.mimeType,
        date: now,
        userId: svc.store.state.meId,
        originalFilename: doc ? undefined : (f.originalFilename ?? f.title),
        content: bytes,
        pinned: boolParam(q, 'pinned', false),
      }),
    );
    // Old unpinned revisions are purged, as the service does.
    const unpinned = f.revisions.filter((r) => !r.pinned);
    if (unpinned.length > MAX_UNPINNED_REVISIONS) {
      const drop = new Set(unpinned.slice(0, unpinned.length - MAX_UNPINNED_REVISIONS).map((r) => r.id));
      f.revisions = f.revisions.filter((r) => !drop.has(r.id) || r === f.revisions[f.revisions.length - 1]);
    }
  }
  f.content = bytes;
  if (!doc) f.originalFilename ??= f.title;
  if (
    boolParam(q, 'useContentAsIndexableText', false) &&
    /^text\//.test(sourceType) &&
    bytes.size <= INDEXABLE_TEXT_SOURCE_MAX
  ) {
    f.indexableText = svc.store.blobs
      .readAll(bytes)
      .toString('utf8')
      .slice(0, 128 * 1024);
  }
}
