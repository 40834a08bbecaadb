// Resumable upload sessions while the sandbox runs, over their records in the store: every change of a session
// is saved as a record (written to disk with the request's other writes before its answer), a restart takes the
// sessions up again with their partial contents, and a write undone after a failed commit puts them back too.
import { createHash } from 'node:crypto';
import type { Store, StoredUpload, UploadSession } from './model';

/** Sessions are bound to the token that opened it; only its hash is kept. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

function recordOf(s: UploadSession): StoredUpload {
  const { partial: _partial, busy: _busy, ...record } = s;
  return { ...record };
}

export class UploadSessions {
  private readonly live = new Map<string, UploadSession>();

  constructor(private readonly store: Store) {
    this.resume();
    // Partials no session names belong to sessions that ended, or to uploads a crash cut short.
    store.blobs.keepPartials(new Set(Object.values(store.uploads).map((u) => u.partialName)));
    store.restoreListeners.add(() => this.resume());
  }

  /** The live sessions from the records: a restart, or the state put back after a write that was not durable. */
  private resume(): void {
    const records = this.store.uploads;
    for (const [id, s] of this.live) {
      if (records[id]?.partialName === s.partialName) continue;
      this.live.delete(id);
      void s.partial.discard();
    }
    for (const record of Object.values(records)) {
      const s = this.live.get(record.id);
      if (s) {
        Object.assign(s, record);
        continue;
      }
      const partial = record.result ? undefined : this.store.blobs.resumePartial(record.partialName, record.received);
      if (!partial && !record.result) {
        // Its bytes are gone (removed outside the sandbox): the client is told to start again (404).
        this.store.dropUpload(record.id);
        continue;
      }
      this.live.set(record.id, { ...record, partial: partial ?? this.finished(record), busy: false });
    }
  }

  /** A finished session keeps only its answer; its bytes became the file's content. */
  private finished(record: StoredUpload): UploadSession['partial'] {
    const done = (): never => {
      throw new Error(`upload session ${record.id} is finished`);
    };
    return {
      name: record.partialName,
      size: record.received,
      append: done,
      truncate: done,
      sync: done,
      complete: done,
      close: () => Promise.resolve(),
      discard: () => Promise.resolve(),
    };
  }

  get(id: string): UploadSession | undefined {
    return this.live.get(id);
  }

  values(): IterableIterator<UploadSession> {
    return this.live.values();
  }

  start(s: UploadSession): void {
    this.live.set(s.id, s);
    this.save(s);
  }

  /** Records the session as it is now. */
  save(s: UploadSession): void {
    this.store.saveUpload(recordOf(s));
  }

  end(id: string): void {
    this.live.delete(id);
    this.store.dropUpload(id);
  }

  /** The sandbox stops: files are closed and kept, the sessions go on at the next start. */
  async close(): Promise<void> {
    await Promise.all([...this.live.values()].map((s) => s.partial.close().catch(() => undefined)));
    this.live.clear();
  }
}
