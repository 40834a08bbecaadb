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

/** The live session takes the record's values, and loses those the record does not have. */
function refill(s: UploadSession, record: StoredUpload): void {
  const live = s as unknown as Record<string, unknown>;
  for (const key of Object.keys(recordOf(s))) if (!(key in record)) delete live[key];
  Object.assign(s, record);
}

export class UploadSessions {
  private readonly live = new Map<string, UploadSession>();

  constructor(private readonly store: Store) {
    this.resume();
    // Partials no unfinished session names belong to sessions that ended, or to uploads a crash cut short; a
    // finished session's answer is on disk, so its partial (a second name of the blob) is no longer needed.
    const unfinished = Object.values(store.uploads).filter((u) => !u.result);
    store.blobs.keepPartials(new Set(unfinished.map((u) => u.partialName)));
    store.restoreListeners.add(() => this.resume());
    store.committedUploadListeners.add((records) => this.committed(records));
  }

  /** The live sessions from the records: a restart, or the state put back after a write that was not durable. */
  private resume(): void {
    const records = this.store.uploads;
    for (const [id, s] of this.live) {
      const record = records[id];
      if (record?.partialName === s.partialName && (record.result || !s.result)) {
        refill(s, record);
        continue;
      }
      this.live.delete(id);
      // The session's start was undone: its bytes go. A completion that was undone keeps them (below).
      if (!record) void s.partial.discard();
    }
    for (const record of Object.values(records)) {
      if (this.live.has(record.id)) continue;
      const partial = record.result ? undefined : this.store.blobs.resumePartial(record.partialName, record.received);
      if (!partial && !record.result) {
        // Its bytes are gone (removed outside the sandbox): the client is told to start again (404).
        this.store.dropUpload(record.id);
        continue;
      }
      this.live.set(record.id, { ...record, partial: partial ?? this.finished(record), busy: false });
    }
  }

  /** A session's answer is durable: its partial file, kept until now in case of a crash, can go. */
  private committed(records: Readonly<Record<string, StoredUpload | null>>): void {
    for (const record of Object.values(records)) {
      if (!record?.result) continue;
      try {
        this.store.blobs.dropPartial(record.partialName);
      } catch {
        // Left for the next start, which removes the partials of finished sessions.
      }
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
