// Recursive upload of local files and folders, and recursive download of storage items to disk
// (workspace documents exported in their preferred format), through the async local-files port.
import * as path from 'node:path';
import { FOLDER_MIME, isWorkspaceDocument, type File } from '../../shared/wire/storage';
import type { StorageClient } from './client';
import { safeLocalName, saveResponse, uniqueLocalPath } from './download';
import { guessType } from './storeItems';
import { nodeLocalFiles, type LocalFiles } from './localFiles';
import { DOWNLOAD_EXPORT } from './exportFormats';
import { formatSize } from './present';
import { upload } from './upload';

export interface TransferOptions {
  signal?: AbortSignal;
  /** A line for the progress notification (the item being moved and how far it got). */
  report?: (message: string) => void;
  files?: LocalFiles;
}

/** Fields a recursive download needs of each child. */
const DOWNLOAD_FIELDS = 'nextPageToken,items(id,title,mimeType,fileSize)';

/** Uploads a file or a folder tree (folders are created, files streamed from disk); every item made, in order. */
export async function uploadTree(
  client: StorageClient,
  local: string,
  parentId: string,
  opts: TransferOptions = {},
): Promise<File[]> {
  const files = opts.files ?? nodeLocalFiles;
  const made: File[] = [];
  // Symbolic links can lead back to a directory already on the way; each directory goes up once.
  const seenDirs = new Set<string>();
  // An explicit stack, not recursion: a deep local tree cannot exhaust the call stack.
  const stack: { local: string; parentId: string }[] = [{ local, parentId }];
  while (stack.length) {
    opts.signal?.throwIfAborted();
    const item = stack.pop()!;
    const st = await files.stat(item.local);
    const title = path.basename(item.local);
    if (st.directory) {
      if (st.key !== undefined && seenDirs.has(st.key)) {
        opts.report?.(`${title}: skipped, links back to a folder already uploaded`);
        continue;
      }
      if (st.key !== undefined) seenDirs.add(st.key);
      const folder = await client.call(
        'files.insert',
        { supportsAllDrives: true },
        { title, mimeType: FOLDER_MIME, parents: [{ id: item.parentId }] },
        { signal: opts.signal },
      );
      made.push(folder);
      // Pushed in reverse so children are uploaded in name order.
      const children = (await files.readdir(item.local)).sort().reverse();
      for (const child of children) stack.push({ local: path.join(item.local, child), parentId: folder.id! });
      continue;
    }
    // Reserved ids make retried creates safe: a repeated request cannot make a second copy.
    const ids = await client.call('files.generateIds', { maxResults: 1 }, undefined, { signal: opts.signal });
    made.push(
      await upload(client, files.source(item.local, st.size), {
        metadata: { id: ids.ids?.[0], title, parents: [{ id: item.parentId }] },
        contentType: guessType(title),
        signal: opts.signal,
        query: { supportsAllDrives: true },
        // Sent bytes as they go (one request carries the whole file), confirmed ones after each request.
        onSent: (n, total) => opts.report?.(`${title} ${total ? Math.floor((n / total) * 100) : 100}%`),
        onProgress: (n, total) => opts.report?.(`${title} ${total ? Math.floor((n / total) * 100) : 100}%`),
      }),
    );
  }
  return made;
}

export interface DownloadResult {
  /** Local paths written, in order. */
  written: string[];
  /** Items not downloaded, with why (workspace types without an export format, folders seen before). */
  skipped: { title: string; reason: string }[];
}

/**
 * Downloads files and folder trees into `dir` with safe, unique local names. A folder is fetched
 * once per download even when it is reachable through several parents, so a folder that (through
 * multiple parents) contains itself cannot make the walk loop, and shared subtrees are not repeated.
 */
export async function downloadTree(
  client: StorageClient,
  items: File[],
  dir: string,
  opts: TransferOptions = {},
): Promise<DownloadResult> {
  const files = opts.files ?? nodeLocalFiles;
  const result: DownloadResult = { written: [], skipped: [] };
  const seenFolders = new Set<string>();
  const stack: { file: File; dir: string }[] = items.map((file) => ({ file, dir })).reverse();
  while (stack.length) {
    opts.signal?.throwIfAborted();
    const { file: f, dir: into } = stack.pop()!;
    const title = f.title ?? '';
    if (f.mimeType === FOLDER_MIME) {
      if (!f.id || seenFolders.has(f.id)) {
        result.skipped.push({ title, reason: 'already downloaded through another parent' });
        continue;
      }
      seenFolders.add(f.id);
      const target = await uniqueLocalPath(into, safeLocalName(title || 'folder'), files);
      await files.mkdir(target);
      const kids = await client.listFolder(f.id, { fields: DOWNLOAD_FIELDS }, opts.signal);
      for (let i = kids.length - 1; i >= 0; i--) stack.push({ file: kids[i], dir: target });
      continue;
    }
    if (!f.id) continue;
    if (isWorkspaceDocument(f)) {
      const fmt = DOWNLOAD_EXPORT[f.mimeType ?? ''];
      if (!fmt) {
        result.skipped.push({ title, reason: `no download format for ${f.mimeType}` });
        continue;
      }
      const target = await uniqueLocalPath(into, safeLocalName(title || 'document', fmt.ext), files);
      opts.report?.(path.basename(target));
      const res = await client.raw('files.export', { fileId: f.id, mimeType: fmt.mime }, { signal: opts.signal });
      await saveResponse(res, target, { signal: opts.signal }, files);
      result.written.push(target);
      continue;
    }
    const target = await uniqueLocalPath(into, safeLocalName(title || 'file'), files);
    opts.report?.(`${path.basename(target)}${f.fileSize ? ` (${formatSize(Number(f.fileSize))})` : ''}`);
    const res = await client.raw(
      'files.get',
      { fileId: f.id, alt: 'media', supportsAllDrives: true },
      { signal: opts.signal },
    );
    await saveResponse(res, target, { signal: opts.signal }, files);
    result.written.push(target);
  }
  return result;
}
