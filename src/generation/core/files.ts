// Files API client: resumable upload (start → chunks → finalize), then polling the record while
// it is PROCESSING. No official SDK polls; a file is usable as fileData only once ACTIVE.
import type { FileRecord, Part } from '../../shared/wire/generation';
import { jsonCall } from './client';
import { streamCorruption, type GenerationError } from './errors';
import { buildUrl, pause, send, type ConnectionOptions } from './http';

export const UPLOAD_CHUNK_BYTES = 8 * 1024 * 1024;

export interface UploadOptions extends ConnectionOptions {
  data: Uint8Array;
  mimeType: string;
  displayName?: string;
  /** Requested resource name, `files/<id>`. */
  name?: string;
  /** Bytes per chunk; the service works in multiples of 8 MiB. */
  chunkSize?: number;
  onProgress?: (sentBytes: number, totalBytes: number) => void;
}

export interface FileResult {
  file: FileRecord | null;
  error: GenerationError | null;
  aborted?: boolean;
}

export async function uploadFile(opts: UploadOptions): Promise<FileResult> {
  const total = opts.data.length;
  const meta: Record<string, unknown> = { mimeType: opts.mimeType, sizeBytes: String(total) };
  if (opts.displayName) meta.displayName = opts.displayName;
  if (opts.name) meta.name = opts.name;
  const started = await send(opts, 'POST', buildUrl(opts, '/upload/v1beta/files'), JSON.stringify({ file: meta }), {
    'content-type': 'application/json',
    'x-goog-upload-protocol': 'resumable',
    'x-goog-upload-command': 'start',
    'x-goog-upload-header-content-length': String(total),
    'x-goog-upload-header-content-type': opts.mimeType,
  });
  if (started.kind === 'aborted') return { file: null, error: null, aborted: true };
  if (started.kind === 'error') return { file: null, error: started.error };
  const uploadUrl = started.response.headers.get('x-goog-upload-url');
  await started.response.text().catch(() => '');
  if (!uploadUrl)
    return { file: null, error: streamCorruption('The upload start response carried no x-goog-upload-url header.') };

  const chunkSize = opts.chunkSize ?? UPLOAD_CHUNK_BYTES;
  let offset = 0;
  opts.onProgress?.(0, total);
  do {
    const end = Math.min(total, offset + chunkSize);
    const last = end === total;
    let status: string | null = null;
    let body = '';
    // The SDKs retry a chunk whose response lacks the status header: 3 tries, 1 s then 2 s apart.
    for (let attempt = 0; attempt < 3; attempt++) {
      if (attempt > 0) await pause(1000 * attempt, opts.signal, opts.sleep);
      const r = await send(
        { ...opts, keyInQuery: false, retry: { maxAttempts: 1 } },
        'POST',
        uploadUrl,
        opts.data.subarray(offset, end),
        {
          'content-type': 'application/octet-stream',
          'x-goog-upload-command': last ? 'upload, finalize' : 'upload',
          'x-goog-upload-offset': String(offset),
        },
      );
      if (r.kind === 'aborted') return { file: null, error: null, aborted: true };
      if (r.kind === 'error') return { file: null, error: r.error };
      status = r.response.headers.get('x-goog-upload-status');
      body = await r.response.text();
      if (status) break;
    }
    if (status === 'cancelled')
      return { file: null, error: { code: 499, status: 'CANCELLED', message: 'The service cancelled the upload.' } };
    if (!status)
      return {
        file: null,
        error: streamCorruption('The upload chunk response carried no x-goog-upload-status header (tried 3 times).'),
      };
    offset = end;
    opts.onProgress?.(offset, total);
    if (status === 'final') {
      try {
        const parsed = JSON.parse(body) as { file?: FileRecord };
        if (parsed.file) return { file: parsed.file, error: null };
      } catch {
        // reported below
      }
      return {
        file: null,
        error: streamCorruption(`The finalized upload returned no file record: ${body.slice(0, 200)}`),
      };
    }
    if (last) return { file: null, error: streamCorruption(`The upload was finalized but the status is "${status}".`) };
  } while (offset < total || total === 0);
  return { file: null, error: streamCorruption('The upload ended without a final status.') };
}

export async function getFile(opts: ConnectionOptions & { name: string }): Promise<FileResult> {
  const id = opts.name.replace(/^files\//, '');
  const r = await jsonCall<FileRecord>(opts, 'GET', buildUrl(opts, `/v1beta/files/${encodeURIComponent(id)}`));
  return { file: r.value, error: r.error, aborted: r.aborted };
}

/** Polls while the file is PROCESSING; FAILED and a timeout come back as errors. */
export async function waitForActive(
  opts: ConnectionOptions & {
    name: string;
    intervalMs?: number;
    timeoutMs?: number;
    onState?: (f: FileRecord) => void;
  },
): Promise<FileResult> {
  const interval = opts.intervalMs ?? 2000;
  const deadline = Date.now() + (opts.timeoutMs ?? 10 * 60_000);
  for (;;) {
    const r = await getFile(opts);
    if (!r.file) return r;
    opts.onState?.(r.file);
    if (r.file.state === 'ACTIVE') return r;
    if (r.file.state === 'FAILED') {
      return {
        file: r.file,
        error: {
          code: 400,
          status: 'FAILED_PRECONDITION',
          message: `Processing of ${r.file.name} failed${r.file.error?.message ? `: ${r.file.error.message}` : ''}.`,
        },
      };
    }
    if (Date.now() + interval > deadline) {
      return {
        file: r.file,
        error: {
          code: 504,
          status: 'DEADLINE_EXCEEDED',
          message: `${r.file.name} is still ${r.file.state} after waiting.`,
        },
      };
    }
    await pause(interval, opts.signal, opts.sleep);
    if (opts.signal?.aborted) return { file: r.file, error: null, aborted: true };
  }
}

export function fileDataPart(file: FileRecord): Part {
  return { fileData: { fileUri: file.uri, mimeType: file.mimeType } };
}
