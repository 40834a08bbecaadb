// Which store folder a link names: a folder id, `root` (My files), or a path of titles from My files
// (`/Projects/site`). A path must exist: the error names the first title missing, or the one that
// several folders share (never a guess between them).
import { FOLDER_MIME } from '../../../shared/wire/storage';
import { quote, type StorageClient } from '../client';
import { StorageError } from '../errors';

export async function resolveStoreFolder(client: StorageClient, spec: string, signal?: AbortSignal): Promise<string> {
  if (spec.startsWith('/')) {
    let id = await folderId(client, 'root', spec, signal);
    let at = '';
    for (const title of spec.split('/').filter((s) => s !== '')) {
      const found = await client.listAllFiles(
        {
          q: `${quote(id)} in parents and title = ${quote(title)} and mimeType = ${quote(FOLDER_MIME)} and trashed = false`,
          maxResults: 10,
          fields: 'nextPageToken,items(id)',
        },
        signal,
      );
      if (found.length === 0) throw new Error(`No folder "${title}" in ${at || '/'} (store folder ${spec}).`);
      if (found.length > 1)
        throw new Error(`${found.length} folders are named "${title}" in ${at || '/'}; give the folder's id instead.`);
      id = found[0].id!;
      at += `/${title}`;
    }
    return id;
  }
  return folderId(client, spec, spec, signal);
}

async function folderId(client: StorageClient, id: string, spec: string, signal?: AbortSignal): Promise<string> {
  try {
    const f = await client.getFile(id, { fields: 'id,mimeType,labels(trashed)' }, signal);
    if (f.mimeType !== FOLDER_MIME) throw new Error(`${spec} is not a folder on the store.`);
    if (f.labels?.trashed) throw new Error(`The store folder ${spec} is in the trash.`);
    return f.id!;
  } catch (e) {
    if (e instanceof StorageError && e.status === 404) throw new Error(`No store folder ${spec}.`, { cause: e });
    throw e;
  }
}
