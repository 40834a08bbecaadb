// Typed client of the storage API. Every operation goes through `call(methodId, …)`, which takes
// its HTTP verb, path template and parameter locations from a description document (ours by
// default, so pointing the client at another document with its rootUrl/servicePath just works).
import type * as W from '../../shared/wire/storage';
import { collectAll, pages } from './paging';
import { Transport, type QueryValue, type ResponseLike, type TransportOptions } from './transport';
import { OperationTable, defaultOperations } from './operations';
import type { OperationId, ParamsOf, RequestOf, ResponseOf } from './operationTypes';

/** The generated parameter types are closed object types; the operation table reads them by name. */
type ParamRecord = Record<string, QueryValue>;

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

/** How long the root folder's metadata is reused (see rootFolder). */
const ROOT_REUSE_MS = 10_000;

export interface CallOptions {
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Extra statuses handled by the caller. */
  expectStatus?: number[];
  /** A GET whose answer does not change for this long (ms) may be answered from the last one (HttpRequest.reuseMs). */
  reuseMs?: number;
}

export interface RawOptions extends CallOptions {
  /** JSON body (metadata). */
  body?: unknown;
  upload?: boolean;
  /** Raw body; a factory is called per attempt so streams can be recreated for retries. */
  rawBody?: Buffer | string | (() => unknown);
}

/** Which bytes of a file a media download reads. */
export interface MediaOptions {
  revisionId?: string;
  acknowledgeAbuse?: boolean;
  signal?: AbortSignal;
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

  /** Performs one operation of the description, typed by its id (parameters, body and answer). */
  async call<K extends OperationId>(
    id: K,
    params: ParamsOf<K>,
    body?: RequestOf<K>,
    opts: CallOptions = {},
  ): Promise<ResponseOf<K>> {
    return this.parse<ResponseOf<K>>(await this.send(id, params as ParamRecord, { ...opts, body }));
  }

  /**
   * Performs an operation chosen at run time (a full method id such as `drive.files.list` is also
   * accepted); the answer is unchecked JSON. Only for callers whose id comes from outside the code.
   */
  async callById(
    methodId: string,
    params: Record<string, QueryValue> = {},
    body?: unknown,
    opts: CallOptions = {},
  ): Promise<unknown> {
    return this.parse<unknown>(await this.send(methodId, params, { ...opts, body }));
  }

  /** Like `call` but hands back the response (media downloads, uploads, status codes). */
  raw<K extends OperationId>(
    id: K,
    params: ParamsOf<K>,
    opts: RawOptions & { body?: RequestOf<K> } = {},
  ): Promise<ResponseLike> {
    return this.send(id, params as ParamRecord, opts);
  }

  private async parse<T>(res: ResponseLike): Promise<T> {
    if (res.status === 204) return undefined as T;
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  private send(methodId: string, params: Record<string, QueryValue>, opts: RawOptions): Promise<ResponseLike> {
    const op = this.ops.get(methodId);
    // Compact JSON (a documented global parameter): smaller answers, faster to send and parse.
    const { path, query } = this.ops.resolve(
      op,
      params.alt === 'media' || params.prettyPrint !== undefined ? params : { ...params, prettyPrint: false },
    );
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
      reuseMs: opts.reuseMs,
    });
  }

  // ---- conveniences over the operations the tree, file system and commands use most ----

  about(fields?: string, signal?: AbortSignal): Promise<W.About> {
    return this.call('about.get', { fields }, undefined, { signal });
  }

  /** Where the change feed starts now; a clear error when the service leaves it out. */
  async startPageToken(signal?: AbortSignal): Promise<string> {
    const t = await this.call('changes.getStartPageToken', { supportsAllDrives: true }, undefined, { signal });
    if (!t.startPageToken) throw new Error('The storage service returned no start page token for the change feed.');
    return t.startPageToken;
  }

  listFiles(params: ParamsOf<'files.list'>, signal?: AbortSignal): Promise<W.FileList> {
    return this.call('files.list', params, undefined, { signal });
  }

  /** Every page of a files.list query, in order. */
  listFilePages(params: Omit<ParamsOf<'files.list'>, 'pageToken'>, signal?: AbortSignal): AsyncGenerator<W.FileList> {
    return pages<W.File, W.FileList>((pageToken) => this.listFiles({ ...params, pageToken }, signal), signal);
  }

  listAllFiles(params: Omit<ParamsOf<'files.list'>, 'pageToken'>, signal?: AbortSignal): Promise<W.File[]> {
    return collectAll<W.File, W.FileList>((pageToken) => this.listFiles({ ...params, pageToken }, signal), signal);
  }

  /** Children of a folder with their metadata (files.list on `'<id>' in parents`). */
  listFolder(
    folderId: string,
    opts: { includeTrashed?: boolean; pageSize?: number; orderBy?: string; fields?: string; allDrives?: boolean } = {},
    signal?: AbortSignal,
  ): Promise<W.File[]> {
    return this.listAllFiles(folderQuery(folderId, opts), signal);
  }

  getFile(fileId: string, params: Omit<ParamsOf<'files.get'>, 'fileId'> = {}, signal?: AbortSignal): Promise<W.File> {
    return this.call('files.get', { supportsAllDrives: true, ...params, fileId }, undefined, { signal });
  }

  /**
   * The root folder (My files): its metadata does not change while a user works, and the file system, its
   * breadcrumbs and the tree all ask for it, so the same request within ROOT_REUSE_MS is answered once.
   */
  rootFolder(fields: string, signal?: AbortSignal): Promise<W.File> {
    return this.call('files.get', { supportsAllDrives: true, fields, fileId: 'root' }, undefined, {
      signal,
      reuseMs: ROOT_REUSE_MS,
    });
  }

  /** The response carrying a blob's bytes (`alt=media`), optionally of an older revision, unread. */
  media(fileId: string, opts: MediaOptions = {}): Promise<ResponseLike> {
    return this.raw(
      'files.get',
      {
        fileId,
        alt: 'media',
        revisionId: opts.revisionId,
        acknowledgeAbuse: opts.acknowledgeAbuse,
        supportsAllDrives: true,
      },
      { signal: opts.signal },
    );
  }

  /** The bytes of a blob (`alt=media`), optionally of an older revision. */
  async download(fileId: string, opts: MediaOptions = {}): Promise<Buffer> {
    const res = await this.media(fileId, opts);
    return Buffer.from(await res.arrayBuffer());
  }

  async exportFile(fileId: string, mimeType: string, signal?: AbortSignal): Promise<Buffer> {
    const res = await this.raw('files.export', { fileId, mimeType }, { signal });
    return Buffer.from(await res.arrayBuffer());
  }

  listChildren(
    folderId: string,
    params: Omit<ParamsOf<'children.list'>, 'folderId'> = {},
    signal?: AbortSignal,
  ): Promise<W.ChildList> {
    return this.call('children.list', { ...params, folderId }, undefined, { signal });
  }
}

/** files.list parameters for one folder's children, folders first. */
export function folderQuery(
  folderId: string,
  opts: { includeTrashed?: boolean; pageSize?: number; orderBy?: string; fields?: string; allDrives?: boolean } = {},
): ParamsOf<'files.list'> {
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
