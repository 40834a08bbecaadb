// Polls the change feed (getStartPageToken once, then changes.list from the saved token) and
// reports which items changed, so views refresh only what moved. Pages are followed to the end;
// the last page's newStartPageToken is where the next poll starts.
import type { Change } from '../../shared/wire/storage';
import type { StorageClient } from './client';

export interface ChangeBatch {
  changes: Change[];
  /** Ids of files that changed or went away. */
  fileIds: string[];
  /** Ids of folders whose children may differ: old and new parents of changed files. */
  parentIds: string[];
  driveIds: string[];
}

export class ChangeFeed {
  private token: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<ChangeBatch> | undefined;
  private readonly listeners = new Set<(batch: ChangeBatch) => void>();
  /** Last known parents per file, to refresh the folder a file left. */
  private readonly knownParents = new Map<string, string[]>();

  constructor(
    private readonly client: StorageClient,
    private readonly opts: { includeDrives?: boolean } = {},
  ) {}

  onChanges(listener: (batch: ChangeBatch) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Remembers where to start: changes from now on. Returns that page token (a watcher starts from it too). */
  async init(): Promise<string> {
    const token = await this.client.startPageToken();
    this.token = token;
    return token;
  }

  async poll(): Promise<ChangeBatch> {
    if (this.polling) return this.polling;
    this.polling = (async () => {
      if (!this.token) await this.init();
      const changes: Change[] = [];
      let token = this.token!;
      for (;;) {
        const page = await this.client.call('changes.list', {
          pageToken: token,
          maxResults: 500,
          includeItemsFromAllDrives: this.opts.includeDrives ?? true,
          supportsAllDrives: true,
          fields:
            'nextPageToken,newStartPageToken,items(id,changeType,fileId,deleted,driveId,file(id,title,mimeType,parents(id),labels(trashed),etag,modifiedDate))',
        });
        changes.push(...(page.items ?? []));
        if (page.nextPageToken) token = page.nextPageToken;
        else {
          this.token = page.newStartPageToken ?? token;
          break;
        }
      }
      const batch = this.summarise(changes);
      if (changes.length) for (const l of this.listeners) l(batch);
      return batch;
    })().finally(() => (this.polling = undefined));
    return this.polling;
  }

  start(intervalMs: number, onError?: (e: unknown) => void): void {
    this.stop();
    const tick = () => {
      this.poll()
        .catch((e) => onError?.(e))
        .finally(() => {
          if (this.timer) this.timer = setTimeout(tick, intervalMs);
        });
    };
    this.timer = setTimeout(tick, intervalMs);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private summarise(changes: Change[]): ChangeBatch {
    const fileIds = new Set<string>();
    const parentIds = new Set<string>();
    const driveIds = new Set<string>();
    for (const c of changes) {
      if (c.changeType === 'drive' && c.driveId) {
        driveIds.add(c.driveId);
        continue;
      }
      if (!c.fileId) continue;
      fileIds.add(c.fileId);
      for (const p of this.knownParents.get(c.fileId) ?? []) parentIds.add(p);
      const now = (c.file?.parents ?? []).map((p) => p.id);
      for (const p of now) parentIds.add(p);
      if (c.deleted) this.knownParents.delete(c.fileId);
      else this.knownParents.set(c.fileId, now);
    }
    return { changes, fileIds: [...fileIds], parentIds: [...parentIds], driveIds: [...driveIds] };
  }
}
