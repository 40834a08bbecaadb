// Shared helpers of the storage emulator's handlers: looking files up with the real 404s,
// visibility (what the caller may see), If-Match checks, and list snapshots cached per query.
import { FOLDER_MIME } from '../../shared/wire/storage';
import { ApiError, badRequest, forbidden, notFound, preconditionFailed } from './errors';
import { etagOf, type Store, type StoredFile } from './model';
import { UploadSessions } from './uploadSessions';
import { evaluate, parseQuery, QuerySyntaxError, type QueryDialect, type QueryEnv, type QueryNode } from './query';
import { canWrite, roleOf } from './access';
import type { RequestContext } from './router';
import type { SandboxContext } from '../types';
import { Channels } from './channels';
import type { BlobStore } from './blobs';
import { OAuthServer } from './oauth';

export interface FaultConfig {
  /** Requests per second before the rate limiter answers; 0 = unlimited. */
  rateLimitPerSecond: number;
  /** Status of rate-limit answers: 403 userRateLimitExceeded or 429 rateLimitExceeded. */
  rateLimitStatus: 403 | 429;
  /** One-shot faults consumed by the next matching requests. */
  queued: QueuedFault[];
  /** Items to leave out of every list page (the page still carries a token): exercises short pages. */
  shortPageBy: number;
  /** With `--data`: writes to disk fail as on a full disk (ENOSPC) until cleared; reads go on. */
  diskFull: boolean;
}

export type QueuedFault =
  | { kind: 'status'; status: number; pathContains?: string }
  | { kind: 'rateLimit'; status: 403 | 429; pathContains?: string }
  /** Drop the connection of the next upload chunk after this many bytes were stored. */
  | { kind: 'resetUpload'; afterBytes: number };

const SORT_KEYS = [
  'createdDate',
  'folder',
  'lastViewedByMeDate',
  'modifiedByMeDate',
  'modifiedDate',
  'quotaBytesUsed',
  'recency',
  'sharedWithMeDate',
  'starred',
  'title',
  'title_natural',
] as const;
type SortKey = (typeof SORT_KEYS)[number];

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

export class StorageService {
  readonly faults: FaultConfig = {
    rateLimitPerSecond: 0,
    rateLimitStatus: 403,
    queued: [],
    shortPageBy: 0,
    diskFull: false,
  };
  private snapshot = new Map<string, { generation: number; ids: string[] }>();
  /** Resumable upload sessions by upload id. */
  readonly uploads: UploadSessions;
  /** Live notification channels. */
  readonly channels: Channels;
  /** The sandbox's OAuth authorization server; its access tokens are accepted like the built-in one. */
  readonly oauth: OAuthServer;

  constructor(
    readonly store: Store,
    readonly sandbox?: SandboxContext,
  ) {
    this.channels = new Channels(store);
    this.uploads = new UploadSessions(store);
    this.oauth = new OAuthServer(sandbox?.consentSecret);
  }

  /** Ends background work (channel deliveries, pending uploads) when the sandbox stops. */
  async close(): Promise<void> {
    await this.uploads.close();
    await this.channels.close();
  }

  /** A file the caller can see, or the real 404 (`root` resolves to the root folder). */
  visibleFile(fileId: string, opts: { supportsAllDrives?: boolean } = {}): StoredFile {
    const f = this.store.file(fileId);
    if (!f || !this.canSee(f)) throw notFound('File', fileId);
    // Shared-drive items are invisible to callers that did not opt in.
    if (f.driveId && opts.supportsAllDrives === false) throw notFound('File', fileId);
    return f;
  }

  /** A visible child of a visible folder, or the real 404 (the child is named in it). */
  visibleChild(folderId: string, childId: string): { folder: StoredFile; child: StoredFile } {
    const folder = this.visibleFile(folderId);
    const child = this.store.file(childId);
    if (!child || !child.parents.includes(folder.id) || !this.canSee(child)) throw notFound('Child', childId);
    return { folder, child };
  }

  writableFile(fileId: string, opts: { supportsAllDrives?: boolean } = {}): StoredFile {
    const f = this.visibleFile(fileId, opts);
    if (!canWrite(roleOf(this.store, f))) {
      throw forbidden('insufficientFilePermissions', 'The user does not have sufficient permissions for this file.');
    }
    return f;
  }

  canSee(f: StoredFile): boolean {
    return roleOf(this.store, f) !== undefined;
  }

  /** 412 when `If-Match` names another version of the resource; `*` matches anything. */
  checkIfMatch(ctx: RequestContext, currentEtag: string): void {
    checkIfMatchHeader(ctx.req.headers['if-match'], currentEtag);
  }

  checkFileIfMatch(ctx: RequestContext, f: StoredFile): void {
    this.checkIfMatch(ctx, etagOf('file', f.id, f.version));
  }

  queryEnv(): QueryEnv {
    const s = this.store;
    return {
      rootId: s.state.rootId,
      meId: s.state.meId,
      emailOf: (id) => s.user(id).emailAddress,
      fullTextOf: (f) => [f.title, f.description ?? '', f.indexableText ?? '', textContent(s.blobs, f)].join('\n'),
    };
  }

  /** The `q` parameter parsed in the files (or drives) dialect; a syntax error is the service's 400. */
  parseQ(q: string | null, dialect: QueryDialect = 'files'): QueryNode | undefined {
    if (q === null || q.trim() === '') return undefined;
    try {
      return parseQuery(q, dialect);
    } catch (e) {
      if (e instanceof QuerySyntaxError) {
        throw new ApiError(400, {
          domain: 'global',
          reason: 'invalid',
          message: 'Invalid query',
          locationType: 'parameter',
          location: 'q',
        });
      }
      throw e;
    }
  }

  parseOrderBy(orderBy: string | null): { key: SortKey; desc: boolean }[] {
    if (!orderBy || !orderBy.trim()) return [];
    return orderBy.split(',').map((part) => {
      const [key, dir, extra] = part.trim().split(/\s+/);
      if (
        !(SORT_KEYS as readonly string[]).includes(key) ||
        (dir !== undefined && dir.toLowerCase() !== 'desc' && dir.toLowerCase() !== 'asc') ||
        extra !== undefined
      ) {
        throw badRequest(`Invalid sort key or direction: ${part.trim()}`, 'orderBy');
      }
      return { key: key as SortKey, desc: dir?.toLowerCase() === 'desc' };
    });
  }

  /**
   * Ids of the files matching a list request, in order. Cached against the store generation so
   * paging through a large folder evaluates the query once, not once per page.
   */
  listIds(opts: {
    q: QueryNode | undefined;
    qText: string;
    orderBy: { key: SortKey; desc: boolean }[];
    orderText: string;
    /** undefined: the user's corpus (My Drive + shared with me); a drive id: that drive; 'all': both. */
    corpus: 'user' | 'all' | { driveId: string };
    spaces: string[];
    within?: string;
  }): string[] {
    const cacheKey = JSON.stringify([opts.qText, opts.orderText, opts.corpus, opts.spaces, opts.within]);
    const hit = this.snapshot.get(cacheKey);
    if (hit && hit.generation === this.store.generation) return hit.ids;
    const env = this.queryEnv();
    const s = this.store.state;
    const candidates =
      opts.within !== undefined
        ? this.store
            .childIds(opts.within)
            .map((id) => s.files[id])
            .filter(Boolean)
        : Object.values(s.files);
    const matches = candidates.filter((f) => {
      if (f.id === s.rootId || s.drives[f.id]) return false;
      if (!f.spaces.some((sp) => opts.spaces.includes(sp))) return false;
      if (opts.corpus === 'user' && f.driveId) return false;
      if (typeof opts.corpus === 'object' && f.driveId !== opts.corpus.driveId) return false;
      if (!this.canSee(f)) return false;
      return !opts.q || evaluate(opts.q, f, env);
    });
    sortFiles(matches, opts.orderBy);
    const ids = matches.map((f) => f.id);
    if (this.snapshot.size > 64) this.snapshot.clear();
    this.snapshot.set(cacheKey, { generation: this.store.generation, ids });
    return ids;
  }
}

/** 412 when an `If-Match` header value names another version of the resource; `*` matches anything. */
export function checkIfMatchHeader(header: string | undefined, currentEtag: string): void {
  if (!header) return;
  const wanted = String(header)
    .split(',')
    .map((s) => s.trim().replace(/^W\//, ''));
  if (wanted.includes('*') || wanted.includes(currentEtag)) return;
  throw preconditionFailed();
}

function textContent(blobs: BlobStore, f: StoredFile): string {
  if (!f.content || f.content.size > 1_000_000) return '';
  if (
    f.mimeType.startsWith('text/') ||
    f.mimeType.startsWith('application/vnd.google-apps.') ||
    f.mimeType === 'application/json'
  )
    return blobs.readAll(f.content).toString('utf8');
  return '';
}

function sortValue(f: StoredFile, key: SortKey): string | number {
  switch (key) {
    case 'folder':
      return f.mimeType === FOLDER_MIME ? 0 : 1;
    case 'starred':
      return f.starred ? 0 : 1;
    case 'title':
    case 'title_natural':
      return f.title;
    case 'quotaBytesUsed':
      return f.content?.size ?? 0;
    case 'recency':
      return Date.parse(f.modifiedByMeDate ?? f.modifiedDate);
    default:
      return Date.parse(f[key] ?? '') || 0;
  }
}

export function sortFiles(files: StoredFile[], orderBy: { key: SortKey; desc: boolean }[]): void {
  if (orderBy.length === 0) return;
  files.sort((a, b) => {
    for (const { key, desc } of orderBy) {
      const va = sortValue(a, key);
      const vb = sortValue(b, key);
      let c: number;
      if (typeof va === 'string' && typeof vb === 'string')
        c = key === 'title_natural' ? collator.compare(va, vb) : va < vb ? -1 : va > vb ? 1 : 0;
      else c = (va as number) - (vb as number);
      if (c !== 0) return desc ? -c : c;
    }
    return 0;
  });
}
