// Typed client of the storage API. Every operation goes through `call(methodId, …)`, which takes
// its HTTP verb, path template and parameter locations from a description document (ours by
// default, so pointing the client at another document with its rootUrl/servicePath just works).
import type * as W from '../../shared/wire/storage';
import { collectAll, pages } from './paging';
import { Transport, type QueryValue, type ResponseLike, type TransportOptions } from './transport';
import { OperationTable, defaultOperations } from './operations';
import type { OperationParams, OperationId } from './operationTypes';

export type StorageClientOptions = Omit<TransportOptions, 'servicePath' | 'uploadPath'> & {
  /** Description document to drive the operations; defaults to schemas/store.v2.json. */
  operations?: OperationTable;
  /** Overrides the document's servicePath (e.g. `drive/v2/`). */
  servicePath?: string;
  uploadPath?: string;
};

/** Fields the tree and file system ask for: small responses, everything they show. */
export const LIST_FIELDS =
  'nextPageToken,items(id,title,mimeType,fileSize,modifiedDate,createdDate,md5Checksum,etag,version,headRevisionId,parents(id,isRoot),labels(starred,trashed,hidden),explicitlyTrashed,owners(displayName,emailAddress),lastModifyingUserName,shortcutDetails,exportLinks,driveId,capabilities(canEdit,canRename,canTrash,canUntrash,canDelete,canAddChildren,canDownload,canCopy,canModifyContent,canComment,canShare,canReadRevisions),originalFilename,fileExtension,description)';

export interface CallOptions {
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Extra statuses handled by the caller. */
  expectStatus?: number[];
}

export class StorageClient {
  readonly transport: Transport;
  readonly ops: OperationTable;

  constructor(options: StorageClientOptions) {
    this.ops = options.operations ?? defaultOperations();
    this.transport = new Transport({
      ...options,
      servicePath: options.servicePath ?? this.ops.servicePath,
      uploadPath: options.uploadPath ?? this.ops.uploadPath,
    });
  }

  /** Performs any operation of the description by id (`files.list`, `drive.files.list` also accepted). */
  async call<T = unknown>(methodId: OperationId | string, params: Record<string, QueryValue> = {}, opts: CallOptions = {}): Promise<T> {
    const res = await this.raw(methodId, params, opts);
    if (res.status === 204) return undefined as T;
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** Like `call` but hands back the response (media downloads, status codes). */
  async raw(methodId: OperationId | string, params: Record<string, QueryValue> = {}, opts: CallOptions & { upload?: boolean; rawBody?: Buffer | string | (() => unknown) } = {}): Promise<ResponseLike> {
    const op = this.ops.get(methodId);
    // Compact JSON (a documented global parameter): smaller answers, faster to send and parse.
    const { path, query } = this.ops.resolve(op, params.alt === 'media' || params.prettyPrint !== undefined ? params : { ...params, prettyPrint: false });
    return this.transport.send({
      method: op.httpMethod,
      path,
      query,
      json: opts.rawBody === undefined ? opts.body : undefined,
      body: opts.rawBody,
      headers: opts.headers,
      signal: opts.signal,
      upload: opts.upload,
      expectStatus: opts.expectStatus,
    });
  }

  // ---- conveniences over the operations the tree, file system and commands use most ----

  about(fields?: string, signal?: AbortSignal): Promise<W.About> {
    return this.call<W.About>('about.get', { fields }, { signal });
  }

  listFiles(params: OperationParams<'files.list'>, signal?: AbortSignal): Promise<W.FileList> {
    return this.call<W.FileList>('files.list', params as Record<string, QueryValue>, { signal });
  }

  /** Every page of a files.list query, in order. */
  listFilePages(params: Omit<OperationParams<'files.list'>, 'pageToken'>, signal?: AbortSignal): AsyncGenerator<W.FileList> {
    return pages<W.File, W.FileList>((pageToken) => this.listFiles({ ...params, pageToken }, signal), signal);
  }

  listAllFiles(params: Omit<OperationParams<'files.list'>, 'pageToken'>, signal?: AbortSignal): Promise<W.File[]> {
    return collectAll<W.File, W.FileList>((pageToken) => this.listFiles({ ...params, pageToken }, signal), signal);
  }

  /** Children of a folder with their metadata (files.list on `'<id>' in parents`). */
  listFolder(folderId: string, opts: { includeTrashed?: boolean; pageSize?: number; orderBy?: string; fields?: string; allDrives?: boolean } = {}, signal?: AbortSignal): Promise<W.File[]> {
    return this.listAllFiles(folderQuery(folderId, opts), signal);
  }

  getFile(fileId: string, params: Omit<OperationParams<'files.get'>, 'fileId'> = {}, signal?: AbortSignal): Promise<W.File> {
    return this.call<W.File>('files.get', { supportsAllDrives: true, ...params, fileId } as Record<string, QueryValue>, { signal });
  }

  /** The bytes of a blob (`alt=media`), optionally of an older revision. */
  async download(fileId: string, opts: { revisionId?: string; signal?: AbortSignal; acknowledgeAbuse?: boolean } = {}): Promise<Buffer> {
    const res = await this.raw('files.get', { fileId, alt: 'media', revisionId: opts.revisionId, acknowledgeAbuse: opts.acknowledgeAbuse, supportsAllDrives: true }, { signal: opts.signal });
    return Buffer.from(await res.arrayBuffer());
  }

  async exportFile(fileId: string, mimeType: string, signal?: AbortSignal): Promise<Buffer> {
    const res = await this.raw('files.export', { fileId, mimeType }, { signal });
    return Buffer.from(await res.arrayBuffer());
  }

  listChildren(folderId: string, params: Omit<OperationParams<'children.list'>, 'folderId'> = {}, signal?: AbortSignal): Promise<W.ChildList> {
    return this.call<W.ChildList>('children.list', { ...params, folderId } as Record<string, QueryValue>, { signal });
  }
}

/** files.list parameters for one folder's children, folders first. */
export function folderQuery(folderId: string, opts: { includeTrashed?: boolean; pageSize?: number; orderBy?: string; fields?: string; allDrives?: boolean } = {}): OperationParams<'files.list'> {
  const q = `${quote(folderId)} in parents${opts.includeTrashed ? '' : ' and trashed = false'}`;
  return {
    q,
    maxResults: opts.pageSize ?? 100,
    orderBy: opts.orderBy ?? 'folder,title_natural',
    fields: opts.fields ?? LIST_FIELDS,
    supportsAllDrives: true,
    includeItemsFromAllDrives: opts.allDrives ?? true,
  };
}

/** Quotes a value for the `q` language: single quotes, with `\` and `'` escaped. */
export function quote(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
