import * as assert from 'node:assert/strict';
import { startStorage, type Harness } from './emulatorHarness';

describe('storage emulator with an off-the-shelf Drive v2 client (@googleapis/drive) on /drive/v2', () => {
  let h: Harness;
  before(async () => (h = await startStorage()));
  after(async () => h.close());

  const client = async () => {
    const { drive, auth } = await import('@googleapis/drive');
    const oauth = new auth.OAuth2();
    oauth.setCredentials({ access_token: h.token, expiry_date: Date.now() + 3_600_000 });
    return drive({ version: 'v2', rootUrl: `${h.origin}/`, auth: oauth });
  };

  it('lists, gets, inserts, downloads, patches and trashes', async () => {
    const d = await client();
    const about = await d.about.get();
    assert.equal(about.data.user?.emailAddress, 'sandbox.user@example.com');
    const list = await d.files.list({
      q: "'root' in parents and trashed = false",
      maxResults: 3,
      fields: 'nextPageToken,items(id,title)',
    });
    assert.equal(list.data.items?.length, 3);
    assert.ok(list.data.nextPageToken);
    // The library builds media-upload URLs from its own host (not rootUrl), so content goes in through the raw API here.
    const made = await d.files.insert({ requestBody: { title: 'from-googleapis.txt', mimeType: 'text/plain' } });
    await h.call('PUT', `/upload/drive/v2/files/${made.data.id}?uploadType=media`, {
      raw: 'hello from googleapis',
      headers: { 'content-type': 'text/plain' },
    });
    const media = await d.files.get({ fileId: made.data.id!, alt: 'media' }, { responseType: 'text' });
    assert.equal(media.data, 'hello from googleapis');
    const patched = await d.files.patch({ fileId: made.data.id!, requestBody: { title: 'renamed.txt' } });
    assert.equal(patched.data.title, 'renamed.txt');
    const trashed = await d.files.trash({ fileId: made.data.id! });
    assert.equal(trashed.data.labels?.trashed, true);
    const perms = await d.permissions.list({ fileId: made.data.id! });
    assert.equal(perms.data.items?.[0].role, 'owner');
    const start = await d.changes.getStartPageToken();
    assert.ok(start.data.startPageToken);
  });

  it('surfaces the real error shape to the library', async () => {
    const d = await client();
    await assert.rejects(
      d.files.get({ fileId: 'missing' }),
      (e: { status?: number; response?: { data?: { error?: { errors?: { reason: string }[] } } } }) =>
        e.status === 404 && e.response?.data?.error?.errors?.[0]?.reason === 'notFound',
    );
  });
});
