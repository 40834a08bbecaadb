// A store item's bytes (or a workspace document's export) streamed to a file, hashed on the way: what a
// download checks against the store's checksum before it puts the file in place.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { StorageClient } from '../client';
import { bodyStream } from '../download';
import type { StoreItem } from './storeScan';

/** Writes the item's bytes to `file` and gives their md5 (hex). */
export async function fetchBytes(
  client: StorageClient,
  r: Pick<StoreItem, 'id' | 'export'>,
  file: string,
  signal?: AbortSignal,
): Promise<string> {
  const hash = createHash('md5');
  const res = r.export
    ? await client.raw('files.export', { fileId: r.id, mimeType: r.export }, { signal })
    : await client.media(r.id, { signal });
  const tap = new Transform({
    transform(chunk: Buffer, _e, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  await pipeline(bodyStream(res), tap, createWriteStream(file), { signal });
  return hash.digest('hex');
}
