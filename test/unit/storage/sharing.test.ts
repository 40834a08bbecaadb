import * as assert from 'node:assert/strict';
import { StorageClient } from '../../../src/storage/core/client';
import {
  assignableRoles,
  describePermission,
  grantBody,
  granteePrompt,
  grantRoles,
  otherVisibility,
  propertyParams,
  Sharing,
} from '../../../src/storage/core/sharing';
import { startStorage, type Harness } from './emulatorHarness';

describe('storage core: sharing rules', () => {
  it('offers organizer roles only in shared drives, and never owner', () => {
    assert.deepEqual(assignableRoles({ kind: 'file', file: { id: 'f' } }), ['writer', 'reader']);
    assert.deepEqual(assignableRoles({ kind: 'file', file: { id: 'f', driveId: 'd' } }), [
      'organizer',
      'fileOrganizer',
      'writer',
      'reader',
    ]);
    assert.deepEqual(assignableRoles({ kind: 'drive', driveId: 'd' }), [
      'organizer',
      'fileOrganizer',
      'writer',
      'reader',
    ]);
    assert.deepEqual(grantRoles({ kind: 'file', file: { id: 'f' } }), ['writer', 'reader', 'commenter']);
  });

  it('writes commenter as reader plus an additional role, and a link grant without a value', () => {
    assert.deepEqual(grantBody('user', 'commenter', 'a@example.com'), {
      type: 'user',
      role: 'reader',
      additionalRoles: ['commenter'],
      value: 'a@example.com',
    });
    assert.deepEqual(grantBody('anyone', 'reader', 'ignored'), { type: 'anyone', role: 'reader', withLink: true });
    assert.deepEqual(grantBody('domain', 'writer', 'example.com'), {
      type: 'domain',
      role: 'writer',
      value: 'example.com',
    });
    assert.equal(granteePrompt('anyone'), undefined);
    assert.equal(granteePrompt('domain'), 'Domain');
    assert.equal(granteePrompt('group'), 'E-mail address');
  });

  it('lists a permission by who and role', () => {
    assert.deepEqual(
      describePermission({
        type: 'user',
        role: 'reader',
        additionalRoles: ['commenter'],
        emailAddress: 'a@example.com',
      }),
      {
        label: 'a@example.com',
        description: 'reader + commenter',
        detail: 'a@example.com',
      },
    );
    assert.equal(describePermission({ type: 'anyone', role: 'reader' }).label, 'anyone');
  });

  it('addresses a property by key and lower-case visibility', () => {
    assert.deepEqual(propertyParams('f', { key: 'k', visibility: 'PUBLIC' }), {
      fileId: 'f',
      propertyKey: 'k',
      visibility: 'public',
    });
    assert.deepEqual(propertyParams('f', { key: 'k' }), { fileId: 'f', propertyKey: 'k', visibility: 'private' });
    assert.equal(otherVisibility('PUBLIC'), 'PRIVATE');
    assert.equal(otherVisibility(undefined), 'PUBLIC');
  });
});

describe('storage core: sharing against the emulator', () => {
  let h: Harness;
  let sharing: Sharing;
  let fileId: string;

  before(async () => {
    h = await startStorage();
    const client = new StorageClient({ baseUrl: h.origin, auth: { token: () => h.token }, retry: { maxRetries: 0 } });
    sharing = new Sharing(client);
    fileId = (await client.call('files.insert', {}, { title: 'shared.txt', mimeType: 'text/plain' })).id!;
  });
  after(async () => h.close());

  it('grants, changes and revokes access', async () => {
    const commenter = await sharing.grant(fileId, grantBody('user', 'commenter', 'colleague@example.com'));
    assert.equal(commenter.role, 'reader');
    assert.deepEqual(commenter.additionalRoles, ['commenter']);
    const link = await sharing.grant(fileId, grantBody('anyone', 'reader', ''));
    assert.equal(link.withLink, true);
    assert.equal(await sharing.permissionIdForEmail('colleague@example.com'), commenter.id);

    const changed = await sharing.changeRole(fileId, commenter.id!, 'writer');
    assert.equal(changed.role, 'writer');
    await sharing.revoke(fileId, link.id!);
    const left = await sharing.list(fileId);
    assert.ok(left.some((p) => p.id === commenter.id && p.role === 'writer'));
    assert.ok(!left.some((p) => p.id === link.id));
  });

  it('sets, edits, flips and deletes properties', async () => {
    await sharing.setProperty(fileId, 'stage', 'draft', 'PRIVATE');
    const [p] = await sharing.listProperties(fileId);
    assert.deepEqual([p.key, p.value, p.visibility], ['stage', 'draft', 'PRIVATE']);
    await sharing.updateProperty(fileId, p, { value: 'final' });
    const flipped = await sharing.updateProperty(fileId, p, { visibility: otherVisibility(p.visibility) });
    assert.deepEqual([flipped.value, flipped.visibility], ['final', 'PUBLIC']);
    await sharing.deleteProperty(fileId, flipped);
    assert.deepEqual(await sharing.listProperties(fileId), []);
  });
});
