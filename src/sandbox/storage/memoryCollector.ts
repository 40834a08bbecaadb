// Without a data directory nothing is written to disk, but contents still live in a (temporary) blob folder:
// those no file refers to any more are deleted a moment after a burst of changes.
import type { BlobStore } from './blobs';
import { liveBlobKeys, type Store } from './model';

export class MemoryCollector {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: Store,
    private readonly blobs: BlobStore,
    private readonly delayMs = 150,
  ) {
    store.onMutate = () => this.schedule();
  }

  private schedule(): void {
    // Nothing is kept on disk, so what changed need not be remembered.
    this.store.takeWrites();
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.blobs.collect(liveBlobKeys(this.store.state));
    }, this.delayMs);
    this.timer.unref?.();
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.blobs.collect(liveBlobKeys(this.store.state));
  }
}
