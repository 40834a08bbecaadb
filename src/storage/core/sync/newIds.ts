// Ids for the items a run creates, reserved with files.generateIds before each insert, so a retried request
// makes no second item. Reserved as they are needed, at most 1,000 at a time (a service may forget reservations
// it made long ago).
import type { StorageClient } from '../client';

export class NewIds {
  private readonly ids: string[] = [];
  private reserving: Promise<void> | undefined;

  /** `left`: how many items the run may still create (a reservation asks for no more). */
  constructor(
    private readonly client: StorageClient,
    private left: number,
    private readonly signal?: AbortSignal,
  ) {}

  async next(): Promise<string> {
    while (!this.ids.length) {
      this.reserving ??= (async () => {
        const got = await this.client.call(
          'files.generateIds',
          { maxResults: Math.max(1, Math.min(1000, this.left)) },
          undefined,
          { signal: this.signal },
        );
        if (!got.ids?.length) throw new Error('The storage service reserved no ids for new files.');
        this.ids.push(...got.ids);
      })().finally(() => (this.reserving = undefined));
      await this.reserving;
    }
    this.left--;
    return this.ids.shift()!;
  }
}
