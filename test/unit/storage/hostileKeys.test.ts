// Names from outside used as keys in the storage client and emulator: a label field id, a content type, an
// export target, a server's error reason or a local file's extension named `__proto__`, `constructor` or
// `toString` is a name like any other.
import * as assert from 'node:assert/strict';
import { errorFromResponse } from '../../../src/storage/core/errors';
import { guessType, openAsType } from '../../../src/storage/core/storeItems';
import type { FileList } from '../../../src/shared/wire/storage';
import { startStorage, type Harness } from './emulatorHarness';

const HOSTILE = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];

describe('storage: hostile names as keys', () => {
  it('a local file named x.constructor uploads as octet-stream; a mimeType named toString opens as text', () => {
    for (const k of HOSTILE) {
      assert.equal(guessType(`notes.${k}`), 'application/octet-stream', k);
      assert.equal(openAsType({ mimeType: k }), 'text/plain', k);
    }
    assert.equal(guessType('a.JSON'), 'application/json');
  });

  it("a server's error reason named constructor is described as an unknown reason", () => {
    for (const k of HOSTILE) {
      const e = errorFromResponse(
        400,
        JSON.stringify({ error: { code: 400, message: 'no', errors: [{ reason: k, message: 'no' }] } }),
      );
      assert.equal(e.message, `Storage request failed (400 ${k}): no`, k);
    }
  });

  describe('emulator', () => {
    let h: Harness;
    before(async () => {
      h = await startStorage();
    });
    after(() => h.close());
    const find = async (title: string) =>
      (await h.call<FileList>('GET', `/store/v2/files?q=${encodeURIComponent(`title = '${title}'`)}&fields=items(id)`))
        .json.items[0];

    it('label fields with ids named __proto__ and constructor are kept, listed and selected by fields', async () => {
      const notes = await find('notes.md');
      const mod = await h.call<{ modifiedLabels: { fields: Record<string, unknown> }[] }>(
        'POST',
        `/store/v2/files/${notes.id}/modifyLabels`,
        {
          body: {
            labelModifications: [
              { labelId: 'lbl', fieldModifications: HOSTILE.map((k) => ({ fieldId: k, setTextValues: [k] })) },
            ],
          },
        },
      );
      assert.equal(mod.status, 200, mod.text);
      assert.deepEqual(Object.keys(mod.json.modifiedLabels[0].fields), HOSTILE);
      const listed = await h.call<{ items: { fields: Record<string, { text: string[] }> }[] }>(
        'GET',
        `/store/v2/files/${notes.id}/listLabels`,
      );
      assert.deepEqual(Object.keys(listed.json.items[0].fields), HOSTILE);
      for (const k of HOSTILE)
        assert.deepEqual(
          (Object.getOwnPropertyDescriptor(listed.json.items[0].fields, k)?.value as { text: string[] }).text,
          [k],
        );
      const picked = await h.call<{ items: { fields: Record<string, unknown> }[] }>(
        'GET',
        `/store/v2/files/${notes.id}/listLabels?fields=${encodeURIComponent('items(fields(__proto__,constructor))')}`,
      );
      assert.deepEqual(Object.keys(picked.json.items[0].fields), ['__proto__', 'constructor']);
      // Removing one leaves the others.
      await h.call('POST', `/store/v2/files/${notes.id}/modifyLabels`, {
        body: {
          labelModifications: [{ labelId: 'lbl', fieldModifications: [{ fieldId: '__proto__', unsetValues: true }] }],
        },
      });
      const after = await h.call<{ items: { fields: Record<string, unknown> }[] }>(
        'GET',
        `/store/v2/files/${notes.id}/listLabels`,
      );
      assert.deepEqual(Object.keys(after.json.items[0].fields), HOSTILE.slice(1));
    });

    it('an export to a type named constructor is refused like any unsupported one', async () => {
      const roadmap = await find('Roadmap');
      const other = await h.call('GET', `/store/v2/files/${roadmap.id}/export?mimeType=zzz`);
      assert.equal(other.status, 400);
      for (const k of HOSTILE) {
        const r = await h.call('GET', `/store/v2/files/${roadmap.id}/export?mimeType=${k}`);
        assert.equal(r.status, 400, `${k}: ${r.text.slice(0, 80)}`);
      }
    });
  });
});
