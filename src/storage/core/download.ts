// Downloads (`alt=media`) and exports streamed to disk: bytes go from the socket to a temporary
// file next to the target, renamed into place only when complete, so a failure never leaves a
// truncated file under the real name.
import * as path from 'node:path';
import { Readable, Transform } from 'node:stream';
import type { MediaOptions, StorageClient } from './client';
import type { ResponseLike } from './transport';
import { nodeLocalFiles, type LocalFiles } from './localFiles';
import { stripControlChars } from './storePaths';

export interface DownloadOptions extends MediaOptions {
  onProgress?: (received: number, total: number | undefined) => void;
}

export function bodyStream(res: ResponseLike): Readable {
  const b = res.body as unknown;
  if (b instanceof Readable) return b;
  if (b && typeof (b as { getReader?: unknown }).getReader === 'function')
    return Readable.fromWeb(b as import('node:stream/web').ReadableStream);
  throw new Error('The response has no readable body.');
}

/** Streams a media response into `target` through the local-files port, counting bytes as they pass. */
export async function saveResponse(
  res: ResponseLike,
  target: string,
  opts: DownloadOptions = {},
  files: LocalFiles = nodeLocalFiles,
): Promise<number> {
  const total = Number(res.headers.get('content-length') ?? NaN);
  let received = 0;
  const count = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      received += chunk.length;
      opts.onProgress?.(received, Number.isFinite(total) ? total : undefined);
      cb(null, chunk);
    },
  });
  const source = bodyStream(res);
  // pipe() forwards neither errors nor teardown: a cut socket fails the write, a failed write frees the socket.
  source.on('error', (e) => count.destroy(e));
  count.on('close', () => source.destroy());
  await files.write(target, source.pipe(count), opts.signal);
  return received;
}

export async function downloadToFile(
  client: StorageClient,
  fileId: string,
  target: string,
  opts: DownloadOptions = {},
): Promise<number> {
  return saveResponse(await client.media(fileId, opts), target, opts);
}

export async function exportToFile(
  client: StorageClient,
  fileId: string,
  mimeType: string,
  target: string,
  opts: DownloadOptions = {},
): Promise<number> {
  const res = await client.raw('files.export', { fileId, mimeType }, { signal: opts.signal });
  return saveResponse(res, target, opts);
}

/** A local file name for a title: no path separators, control or reserved characters, not empty, not too long. */
export function safeLocalName(title: string, extension = ''): string {
  let name = stripControlChars(title)
    .replace(/[\\/:*?"<>|]/g, '_')
    .replace(/^\.+$/, '_')
    .trim()
    .replace(/[. ]+$/, '');
  if (/^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i.test(name)) name = `_${name}`;
  if (!name) name = 'untitled';
  if (extension && !name.toLowerCase().endsWith(`.${extension.toLowerCase()}`)) name += `.${extension}`;
  // Keep within common file-system limits (255 bytes) while preserving the extension.
  while (Buffer.byteLength(name) > 200) {
    const ext = path.extname(name);
    name = name.slice(0, Math.max(1, name.length - ext.length - 1)) + ext;
  }
  return name;
}

/** A name not yet used in `dir`: `name`, `name (1)`, `name (2)`, … */
export async function uniqueLocalPath(dir: string, name: string, files: LocalFiles = nodeLocalFiles): Promise<string> {
  const ext = path.extname(name);
  const base = name.slice(0, name.length - ext.length);
  let candidate = path.join(dir, name);
  for (let i = 1; await files.exists(candidate); i++) candidate = path.join(dir, `${base} (${i})${ext}`);
  return candidate;
}
