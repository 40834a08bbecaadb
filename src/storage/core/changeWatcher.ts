// Push instead of poll where the server can reach us: a loopback receiver registered with
// changes.watch. Each notification triggers an immediate change-feed poll; stop() ends the
// channel (channels.stop) and closes the receiver. Real services need a public HTTPS address,
// so this is for loopback endpoints such as the sandbox; polling remains the fallback.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { Channel } from '../../shared/wire/storage';
import type { StorageClient } from './client';

export class ChangeWatcher {
  private server: http.Server | undefined;
  private channel: Channel | undefined;
  /** Notifications received (sync included), for diagnostics. */
  received = 0;

  constructor(
    private readonly client: StorageClient,
    private readonly onNotify: (state: string) => void,
  ) {}

  async start(pageToken: string): Promise<Channel> {
    const secret = randomBytes(16).toString('hex');
    this.server = http.createServer((req, res) => {
      // Only notifications carrying our channel token count; anything else on the port is ignored.
      const ok = req.method === 'POST' && req.headers['x-goog-channel-token'] === secret;
      req.resume();
      res.writeHead(ok ? 200 : 404).end();
      if (!ok) return;
      this.received++;
      this.onNotify(String(req.headers['x-goog-resource-state'] ?? ''));
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(0, '127.0.0.1', () => resolve());
    });
    const address = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/notifications`;
    try {
      this.channel = await this.client.call(
        'changes.watch',
        { pageToken, supportsAllDrives: true, includeItemsFromAllDrives: true },
        {
          id: `aw-${randomBytes(8).toString('hex')}`,
          type: 'web_hook',
          address,
          token: secret,
          expiration: String(Date.now() + 24 * 3_600_000),
        },
      );
    } catch (e) {
      this.server.close();
      this.server = undefined;
      throw e;
    }
    return this.channel;
  }

  async stop(): Promise<void> {
    const ch = this.channel;
    this.channel = undefined;
    if (ch?.id)
      await this.client.call('channels.stop', {}, { id: ch.id, resourceId: ch.resourceId }).catch(() => undefined);
    this.server?.close();
    this.server?.closeAllConnections?.();
    this.server = undefined;
  }
}
