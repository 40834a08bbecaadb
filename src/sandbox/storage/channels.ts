// Notification channels of changes.watch and files.watch: each change is POSTed to the channel's
// address with the X-Goog-* headers the service uses, one delivery at a time per channel.
import { ApiError, badRequest } from './errors';
import type { Store, StoredChange } from './model';

export interface StoredChannel {
  id: string;
  resourceId: string;
  resourceUri: string;
  address: string;
  token?: string;
  expiration: number;
  payload: boolean;
  /** undefined: every change of the user; a drive id: that drive; `file:<id>`: one file. */
  scope: { kind: 'changes'; driveId?: string } | { kind: 'file'; fileId: string };
  messageNumber: number;
  queue: Promise<void>;
  delivered: number;
  failed: number;
}

const MAX_CHANGES_TTL = 7 * 24 * 3_600_000;
const MAX_FILE_TTL = 24 * 3_600_000;
const DEFAULT_TTL = 3_600_000;

export class Channels {
  readonly byId = new Map<string, StoredChannel>();
  private readonly listener = (c: StoredChange) => this.onChange(c);

  constructor(private readonly store: Store) {
    store.changeListeners.add(this.listener);
  }

  open(
    input: { id?: string; type?: string; address?: string; token?: string; expiration?: string; payload?: boolean },
    scope: StoredChannel['scope'],
    resourceUri: string,
  ): StoredChannel {
    if (!input.id) throw badRequest('The channel id is required.', 'id', 'required');
    if (input.type !== 'web_hook' && input.type !== 'webhook')
      throw badRequest(`Unsupported channel type ${input.type ?? ''}; use web_hook.`, 'type', 'invalid');
    let url: URL;
    try {
      url = new URL(input.address ?? '');
    } catch {
      throw badRequest(`Invalid channel address ${input.address ?? ''}.`, 'address', 'invalid');
    }
    const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
    // The real service insists on HTTPS; the sandbox also accepts plain HTTP to loopback receivers.
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback))
      throw badRequest(`WebHook callback must be HTTPS: ${input.address}`, 'address', 'push.webhookUrlNotHttps');
    if (this.byId.has(input.id)) throw badRequest(`Channel id ${input.id} not unique`, 'id', 'channelIdNotUnique');
    const now = Date.now();
    const max = now + (scope.kind === 'file' ? MAX_FILE_TTL : MAX_CHANGES_TTL);
    const wanted = input.expiration ? Number(input.expiration) : now + DEFAULT_TTL;
    const ch: StoredChannel = {
      id: input.id,
      resourceId: Buffer.from(
        `${scope.kind}:${scope.kind === 'file' ? scope.fileId : (scope.driveId ?? 'user')}`,
      ).toString('base64url'),
      resourceUri,
      address: url.href,
      token: input.token,
      expiration: Math.min(Number.isFinite(wanted) && wanted > now ? wanted : now + DEFAULT_TTL, max),
      payload: !!input.payload,
      scope,
      messageNumber: 0,
      queue: Promise.resolve(),
      delivered: 0,
      failed: 0,
    };
    this.byId.set(ch.id, ch);
    this.deliver(ch, 'sync');
    return ch;
  }

  stop(id: string | undefined, resourceId: string | undefined): void {
    const ch = id ? this.byId.get(id) : undefined;
    if (!ch || (resourceId && ch.resourceId !== resourceId))
      throw new ApiError(404, { domain: 'global', reason: 'notFound', message: `Channel '${id ?? ''}' not found.` });
    this.byId.delete(ch.id);
  }

  async close(): Promise<void> {
    this.store.changeListeners.delete(this.listener);
    const pending = [...this.byId.values()].map((c) => c.queue);
    this.byId.clear();
    await Promise.allSettled(pending);
  }

  private onChange(c: StoredChange): void {
    const now = Date.now();
    for (const ch of [...this.byId.values()]) {
      if (ch.expiration <= now) {
        this.byId.delete(ch.id);
        continue;
      }
      if (ch.scope.kind === 'file') {
        if (c.changeType !== 'file' || c.targetId !== ch.scope.fileId) continue;
        const f = this.store.state.files[c.targetId];
        this.deliver(ch, c.removed ? 'remove' : f?.trashed ? 'trash' : 'update', c);
      } else {
        if (ch.scope.driveId ? c.driveId !== ch.scope.driveId : !!c.driveId && c.changeType === 'file') continue;
        this.deliver(ch, 'change', c);
      }
    }
  }

  private deliver(ch: StoredChannel, state: string, change?: StoredChange): void {
    const n = ++ch.messageNumber;
    const headers: Record<string, string> = {
      'x-goog-channel-id': ch.id,
      'x-goog-channel-expiration': new Date(ch.expiration).toUTCString(),
      'x-goog-resource-id': ch.resourceId,
      'x-goog-resource-uri': ch.resourceUri,
      'x-goog-resource-state': state,
      'x-goog-message-number': String(n),
      ...(ch.token ? { 'x-goog-channel-token': ch.token } : {}),
    };
    const body =
      ch.payload && change
        ? JSON.stringify({
            kind: 'drive#change',
            id: String(change.id),
            fileId: change.targetId,
            deleted: change.removed,
          })
        : undefined;
    if (body) headers['content-type'] = 'application/json; charset=UTF-8';
    ch.queue = ch.queue.then(async () => {
      try {
        const res = await fetch(ch.address, { method: 'POST', headers, body, signal: AbortSignal.timeout(5000) });
        await res.arrayBuffer().catch(() => undefined);
        if (res.ok) ch.delivered++;
        else ch.failed++;
      } catch {
        ch.failed++;
      }
    });
  }
}
