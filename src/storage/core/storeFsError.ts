// The errors of the `store:` file system, one code per FileSystemError the VS Code provider raises,
// and the mapping of storage client failures (status, conflict, permission) onto them.
import type { File } from '../../shared/wire/storage';
import { StorageError } from './errors';

export type StoreFsErrorCode =
  | 'FileNotFound'
  | 'FileExists'
  | 'FileNotADirectory'
  | 'FileIsADirectory'
  | 'NoPermissions'
  | 'Unavailable'
  | 'Conflict';

export class StoreFsError extends Error {
  constructor(
    readonly code: StoreFsErrorCode,
    message: string,
    readonly server?: File,
  ) {
    super(message);
    this.name = 'StoreFsError';
  }
}

/** A storage client's failure as the file system error the editor understands. */
export function toStoreFsError(e: unknown): Error {
  if (e instanceof StoreFsError) return e;
  if (e instanceof StorageError) {
    if (e.status === 404) return new StoreFsError('FileNotFound', e.message);
    if (e.isConflict) return new StoreFsError('Conflict', e.message);
    if (e.status === 403 && !e.retryable) return new StoreFsError('NoPermissions', e.message);
    if (e.status === 409) return new StoreFsError('FileExists', e.message);
    return new StoreFsError('Unavailable', e.message);
  }
  return new StoreFsError('Unavailable', (e as Error)?.message ?? String(e));
}

/** Runs a storage call, its failure turned into a StoreFsError. */
export async function storeFsCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw toStoreFsError(e);
  }
}
