import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startStorage, served, type Harness } from './emulatorHarness';
import type {
  About,
  App,
  AppList,
  Change,
  ChangeList,
  Channel,
  ChildList,
  ChildReference,
  Comment,
  CommentList,
  CommentReply,
  CommentReplyList,
  Drive,
  DriveList,
  ErrorBody,
  File,
  FileList,
  GeneratedIds,
  LabelList,
  ModifyLabelsResponse,
  ParentList,
  ParentReference,
  Permission,
  PermissionId,
  PermissionList,
  Property,
  PropertyList,
  Revision,
  RevisionList,
  StartPageToken,
} from '../../../src/shared/wire/storage';
import { jsonOf } from '../../support/typedJson';
import { defaultOperations } from '../../../src/storage/core/operations';

const q = (s: string) => encodeURIComponent(s);
const FOLDER = 'application/vnd.google-apps.folder';

/** Maps a served request back to the operation it hit, by the description's path templates. */
function operationOf(method: string, pathname: string): string | undefined {
  const m = /^\/(upload\/)?store\/v2\/(.*)$/.exec(pathname);
  if (!m) return undefined;
  const ops = defaultOperations();
  const candidates = ops
    .ids()
    .map((id) => ops.get(id))
    .filter((op) => op.httpMethod === method || (m[1] && op.supportsMediaUpload));
  const scored = candidates
    .map((op) => {
      const re = new RegExp('^' + op.path.replace(/\{[^}]+\}/g, '[^/]+') + '$');
      return re.test(m[2])
        ? { id: op.id, literals: op.path.split('/').filter((s) => !s.startsWith('{')).length }
        : undefined;
    })
    .filter(
      (x): x is { id: string; literals: number } =>
        !!x && (!m[1] || x.id === 'files.insert' || x.id === 'files.update'),
    )
    .sort((a, b) => b.literals - a.literals);
  return scored[0]?.id;
}

describe('storage emulator: conformance of every §4.2 operation', () => {
  let h: Harness;
  let firstServed = 0;
  let root: string;
  let notes: { id: string; title: string; etag: string };
  const hooks: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  let receiver: http.Server;
  let receiverUrl = '';

  before(async () => {
    h = await startStorage();
    firstServed = served.length;
    root = (await h.call<About>('GET', '/store/v2/about?fields=rootFolderId')).json.rootFolderId;
    notes = (await h.call<FileList>('GET', `/store/v2/files?q=${q("title = 'notes.md'")}&fields=items(id,title,etag)`))
      .json.items[0];
    receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        hooks.push({ headers: req.headers, body });
        res.end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  after(async () => {
    await h.close();
    receiver.close();
  });

  const find = async (title: string) =>
    (
      await h.call<FileList>(
        'GET',
        `/store/v2/files?q=${q(`title = '${title}'`)}&fields=items(id,etag,parents(id),mimeType)&supportsAllDrives=true&includeItemsFromAllDrives=true`,
      )
    ).json.items[0];
  const waitFor = async (pred: () => boolean, what: string) => {
    for (let i = 0; i < 100 && !pred(); i++) await new Promise((r) => setTimeout(r, 20));
    assert.ok(pred(), what);
  };

  describe('files', () => {
    it('insert creates folders and files (default parent root), honours reserved ids and rejects others', async () => {
      const folder = await h.call<File>('POST', '/store/v2/files', { body: { title: 'Work', mimeType: FOLDER } });
      assert.equal(folder.status, 200);
      assert.equal(folder.json.kind, 'drive#file');
      assert.deepEqual(
        folder.json.parents.map((p: { id: string; isRoot: boolean }) => [p.id, p.isRoot]),
        [[root, true]],
      );
      const ids = await h.call<GeneratedIds>('GET', '/store/v2/files/generateIds?maxResults=3');
      assert.equal(ids.json.kind, 'drive#generatedIds');
      assert.equal(ids.json.ids.length, 3);
      const withId = await h.call<File>('POST', '/store/v2/files', {
        body: { id: ids.json.ids[0], title: 'plan.txt', mimeType: 'text/plain', parents: [{ id: folder.json.id }] },
      });
      assert.equal(withId.json.id, ids.json.ids[0]);
      assert.equal(withId.json.fileSize, '0');
      const again = await h.call('POST', '/store/v2/files', { body: { id: ids.json.ids[0], title: 'dup' } });
      assert.equal(again.status, 409, 'a retried insert with the same id does not duplicate');
      const made = await h.call<ErrorBody>('POST', '/store/v2/files', { body: { id: 'invented-id', title: 'x' } });
      assert.equal(made.status, 400);
      assert.equal(made.json.error.errors[0].reason, 'fileIdNotUsable');
      const notFolder = await h.call('POST', '/store/v2/files', {
        body: { title: 'x', parents: [{ id: withId.json.id }] },
      });
      assert.equal(notFolder.status, 400);
      const noParent = await h.call('POST', '/store/v2/files', { body: { title: 'x', parents: [{ id: 'missing' }] } });
      assert.equal(noParent.status, 404);
      const dupTitle = await h.call<File>('POST', '/store/v2/files', {
        body: { title: 'plan.txt', parents: [{ id: folder.json.id }] },
      });
      assert.equal(dupTitle.status, 200, 'titles need not be unique');
      assert.notEqual(dupTitle.json.id, withId.json.id);
    });

    it('patch and update change metadata, move with addParents/removeParents, and check If-Match (412)', async () => {
      const work = await find('Work');
      const projects = await find('Projects');
      const plan = await find('plan.txt');
      const renamed = await h.call<File>('PATCH', `/store/v2/files/${plan.id}`, {
        body: { title: 'plan v2.txt', labels: { starred: true } },
        headers: { 'if-match': plan.etag },
      });
      assert.equal(renamed.status, 200);
      assert.equal(renamed.json.title, 'plan v2.txt');
      assert.equal(renamed.json.labels.starred, true);
      assert.notEqual(renamed.json.etag, plan.etag, 'etag changes with every change');
      assert.equal(Number(renamed.json.version) > 1, true);
      const stale = await h.call<ErrorBody>('PATCH', `/store/v2/files/${plan.id}`, {
        body: { title: 'lost' },
        headers: { 'if-match': plan.etag },
      });
      assert.equal(stale.status, 412);
      assert.equal(stale.json.error.code, 412);
      const moved = await h.call<File>(
        'PUT',
        `/store/v2/files/${plan.id}?addParents=${projects.id}&removeParents=${work.id}`,
        { body: {}, headers: { 'if-match': renamed.json.etag } },
      );
      assert.equal(moved.status, 200);
      assert.deepEqual(
        moved.json.parents.map((p: { id: string }) => p.id),
        [projects.id],
      );
      const cycle = await h.call('PATCH', `/store/v2/files/${projects.id}?addParents=${(await find('Design')).id}`, {
        body: {},
      });
      assert.equal(cycle.status, 400, 'a folder cannot go into its own descendant');
      const partner = await find('Partner agreement.pdf');
      const readOnly = await h.call<ErrorBody>('PATCH', `/store/v2/files/${partner.id}`, {
        body: { title: 'mine now' },
      });
      assert.equal(readOnly.status, 403);
      assert.equal(readOnly.json.error.errors[0].reason, 'insufficientFilePermissions');
      const when = '2025-03-04T05:06:07.000Z';
      const dated = await h.call<File>('PATCH', `/store/v2/files/${plan.id}?setModifiedDate=true`, {
        body: { modifiedDate: when },
      });
      assert.equal(dated.json.modifiedDate, when);
    });

    it('copy, touch, trash/untrash (descendants follow), delete and emptyTrash', async () => {
      const budget = await find('budget.csv');
      const copy = await h.call<File>('POST', `/store/v2/files/${budget.id}/copy`, {
        body: { title: 'budget copy.csv' },
      });
      assert.equal(copy.status, 200);
      assert.equal(copy.json.title, 'budget copy.csv');
      assert.equal(
        copy.json.md5Checksum,
        (await h.call<File>('GET', `/store/v2/files/${budget.id}?fields=md5Checksum`)).json.md5Checksum,
      );
      assert.equal(
        (await h.call('POST', `/store/v2/files/${(await find('Design')).id}/copy`, { body: {} })).status,
        403,
        'folders cannot be copied',
      );
      const before = copy.json.modifiedDate;
      await new Promise((r) => setTimeout(r, 5));
      const touched = await h.call<File>('POST', `/store/v2/files/${copy.json.id}/touch`);
      assert.ok(touched.json.modifiedDate > before);

      const work = await find('Work');
      const inner = await h.call<File>('POST', '/store/v2/files', {
        body: { title: 'inner.txt', parents: [{ id: work.id }] },
      });
      const trashed = await h.call<File>('POST', `/store/v2/files/${work.id}/trash`);
      assert.equal(trashed.json.labels.trashed, true);
      assert.equal(trashed.json.explicitlyTrashed, true);
      const child = await h.call<File>(
        'GET',
        `/store/v2/files/${inner.json.id}?fields=labels/trashed,explicitlyTrashed`,
      );
      assert.deepEqual(child.json, { labels: { trashed: true }, explicitlyTrashed: false });
      const restored = await h.call<File>('POST', `/store/v2/files/${work.id}/untrash`);
      assert.equal(restored.json.labels.trashed, false);
      assert.equal(
        (await h.call<File>('GET', `/store/v2/files/${inner.json.id}?fields=labels/trashed`)).json.labels.trashed,
        false,
      );

      const del = await h.call('DELETE', `/store/v2/files/${copy.json.id}`);
      assert.equal(del.status, 204);
      assert.equal(del.text, '');
      assert.equal((await h.call('GET', `/store/v2/files/${copy.json.id}`)).status, 404);
      const partner = await find('Partner agreement.pdf');
      assert.equal((await h.call('DELETE', `/store/v2/files/${partner.id}`)).status, 403, 'only the owner deletes');

      await h.call('POST', `/store/v2/files/${inner.json.id}/trash`);
      const empty = await h.call('DELETE', '/store/v2/files/trash');
      assert.equal(empty.status, 204);
      assert.equal((await h.call('GET', `/store/v2/files/${inner.json.id}`)).status, 404);
      assert.equal(
        (await h.call<FileList>('GET', `/store/v2/files?q=${q("trashed = true and 'me' in owners")}&fields=items(id)`))
          .json.items.length,
        0,
        'nothing of mine left in the trash',
      );
    });

    it('export converts workspace documents and refuses other files and formats', async () => {
      const roadmap = await find('Roadmap');
      const txt = await h.call('GET', `/store/v2/files/${roadmap.id}/export?mimeType=text/plain`);
      assert.equal(txt.status, 200);
      assert.match(txt.text, /^Roadmap/);
      const pdf = await h.call('GET', `/store/v2/files/${roadmap.id}/export?mimeType=application/pdf`);
      assert.equal(pdf.headers.get('content-type'), 'application/pdf');
      assert.match(pdf.text, /^%PDF-1\.4/);
      const docx = await fetch(
        `${h.origin}/store/v2/files/${roadmap.id}/export?mimeType=${q('application/vnd.openxmlformats-officedocument.wordprocessingml.document')}`,
        { headers: { authorization: `Bearer ${h.token}` } },
      );
      const zip = Buffer.from(await docx.arrayBuffer());
      assert.equal(zip.readUInt32LE(0), 0x04034b50, 'a real zip archive');
      assert.ok(zip.includes(Buffer.from('word/document.xml')));
      const sales = await find('Sales');
      const tsv = await h.call('GET', `/store/v2/files/${sales.id}/export?mimeType=${q('text/tab-separated-values')}`);
      assert.equal(tsv.text.split('\n')[0], 'region\tq1\tq2');
      assert.equal((await h.call('GET', `/store/v2/files/${roadmap.id}/export?mimeType=image/gif`)).status, 400);
      assert.equal((await h.call('GET', `/store/v2/files/${roadmap.id}/export`)).status, 400, 'mimeType is required');
      const csv = await find('budget.csv');
      const notDoc = await h.call<ErrorBody>('GET', `/store/v2/files/${csv.id}/export?mimeType=text/plain`);
      assert.equal(notDoc.status, 403);
      assert.equal(notDoc.json.error.errors[0].reason, 'fileNotExportable');
    });

    it('listLabels and modifyLabels apply, change and remove labels', async () => {
      const mod = await h.call<ModifyLabelsResponse>('POST', `/store/v2/files/${notes.id}/modifyLabels`, {
        body: {
          labelModifications: [
            {
              labelId: 'lbl-status',
              fieldModifications: [
                { fieldId: 'state', setSelectionValues: ['approved'] },
                { fieldId: 'count', setIntegerValues: ['3'] },
              ],
            },
          ],
        },
      });
      assert.equal(mod.status, 200);
      assert.equal(mod.json.kind, 'drive#modifyLabelsResponse');
      assert.deepEqual(mod.json.modifiedLabels[0].fields.state.selection, ['approved']);
      const listed = await h.call<LabelList>('GET', `/store/v2/files/${notes.id}/listLabels`);
      assert.equal(listed.json.kind, 'drive#labelList');
      assert.deepEqual(
        listed.json.items.map((l: { id: string }) => l.id),
        ['lbl-status'],
      );
      await h.call('POST', `/store/v2/files/${notes.id}/modifyLabels`, {
        body: { labelModifications: [{ labelId: 'lbl-status', removeLabel: true }] },
      });
      assert.deepEqual((await h.call<LabelList>('GET', `/store/v2/files/${notes.id}/listLabels`)).json.items, []);
    });
  });

  describe('uploads', () => {
    it('media and multipart inserts, update with a new revision, If-Match on content updates', async () => {
      const media = await h.call<File>('POST', '/upload/store/v2/files?uploadType=media', {
        raw: 'plain bytes',
        headers: { 'content-type': 'text/plain' },
      });
      assert.equal(media.status, 200);
      assert.equal(media.json.title, 'Untitled');
      assert.equal(media.json.mimeType, 'text/plain');
      assert.equal(media.json.fileSize, '11');
      const boundary = 'b0undary';
      const body = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n${JSON.stringify({ title: 'data.bin', parents: [{ id: root }] })}\r\n--${boundary}\r\nContent-Type: application/octet-stream\r\n\r\n`,
        ),
        Buffer.from([0, 1, 2, 255, 13, 10, 45, 45]),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const multi = await h.call<File>('POST', '/upload/store/v2/files?uploadType=multipart', {
        raw: body,
        headers: { 'content-type': `multipart/related; boundary=${boundary}` },
      });
      assert.equal(multi.status, 200);
      assert.equal(multi.json.title, 'data.bin');
      assert.equal(multi.json.fileSize, '8', 'binary-safe');
      const upd = await h.call<File>('PUT', `/upload/store/v2/files/${media.json.id}?uploadType=media`, {
        raw: 'new content!',
        headers: { 'content-type': 'text/plain', 'if-match': media.json.etag },
      });
      assert.equal(upd.status, 200);
      assert.equal(upd.json.fileSize, '12');
      assert.notEqual(upd.json.headRevisionId, media.json.headRevisionId);
      const conflict = await h.call('PUT', `/upload/store/v2/files/${media.json.id}?uploadType=media`, {
        raw: 'overwrite?',
        headers: { 'content-type': 'text/plain', 'if-match': media.json.etag },
      });
      assert.equal(conflict.status, 412, 'a stale etag never overwrites');
      assert.equal((await h.call('GET', `/store/v2/files/${media.json.id}?alt=media`)).text, 'new content!');
      const converted = await h.call<File>('POST', '/upload/store/v2/files?uploadType=multipart&convert=true', {
        raw: `--x\r\nContent-Type: application/json\r\n\r\n{"title":"memo.txt"}\r\n--x\r\nContent-Type: text/plain\r\n\r\nA memo\r\n--x--`,
        headers: { 'content-type': 'multipart/related; boundary=x' },
      });
      assert.equal(converted.json.mimeType, 'application/vnd.google-apps.document');
      assert.equal(converted.json.title, 'memo');
      assert.equal(
        (await h.call('GET', `/store/v2/files/${converted.json.id}/export?mimeType=text/plain`)).text,
        'A memo',
        'decoded text (the BOM Drive prefixes is dropped by the decoder)',
      );
    });

    it('resumable: 256 KiB granules, 308 + Range, status query, resumption after a dropped connection', async () => {
      const total = 3 * 262_144 + 1000;
      const data = Buffer.alloc(total);
      for (let i = 0; i < total; i++) data[i] = (i * 7) % 251;
      const init = await h.call('POST', '/upload/store/v2/files?uploadType=resumable', {
        body: { title: 'big.bin' },
        headers: { 'x-upload-content-type': 'application/octet-stream', 'x-upload-content-length': String(total) },
      });
      assert.equal(init.status, 200);
      const location = init.headers.get('location')!;
      assert.match(location, /\/upload\/store\/v2\/files\?.*upload_id=/);
      // Chunks carry the token that opened the session, as every client sends it.
      const put = (range: string, bytes?: Buffer) =>
        fetch(location, {
          method: 'PUT',
          headers: { 'content-range': range, authorization: `Bearer ${h.token}` },
          body: bytes as BodyInit | undefined,
        });
      // Nothing stored yet: a status query answers 308 without Range.
      let r = await put(`bytes */${total}`);
      assert.equal(r.status, 308);
      assert.equal(r.headers.get('range'), null);
      // A chunk that is not a whole number of granules: only whole granules are kept.
      r = await put(`bytes 0-299999/${total}`, data.subarray(0, 300_000));
      assert.equal(r.status, 308);
      assert.equal(r.headers.get('range'), 'bytes=0-262143');
      // Injected failure: the server keeps one more granule, then drops the connection.
      await h.call('POST', '/store/v2/__sandbox/faults', {
        body: { queued: [{ kind: 'resetUpload', afterBytes: 300_000 }] },
      });
      await assert.rejects(put(`bytes 262144-${total - 1}/${total}`, data.subarray(262_144)));
      r = await put(`bytes */${total}`);
      assert.equal(r.status, 308);
      assert.equal(r.headers.get('range'), 'bytes=0-524287', 'the status query tells where to resume');
      assert.equal(
        (await put(`bytes 600000-${total - 1}/${total}`, data.subarray(600_000))).status,
        400,
        'cannot skip ahead',
      );
      r = await put(`bytes 524288-${total - 1}/${total}`, data.subarray(524_288));
      assert.equal(r.status, 201);
      const file = await jsonOf<{ id: string; fileSize: string; md5Checksum: string }>(r);
      assert.equal(file.fileSize, String(total));
      const back = await fetch(`${h.origin}/store/v2/files/${file.id}?alt=media`, {
        headers: { authorization: `Bearer ${h.token}` },
      });
      assert.ok(Buffer.from(await back.arrayBuffer()).equals(data));
      assert.equal((await put(`bytes */${total}`)).status, 201, 'a finished session keeps answering with the file');
      assert.equal(
        (
          await fetch(location.replace(/upload_id=[^&]+/, 'upload_id=unknown'), {
            method: 'PUT',
            headers: { 'content-range': `bytes */${total}`, authorization: `Bearer ${h.token}` },
          })
        ).status,
        404,
        'an unknown session means: start again',
      );

      const upd = await h.call('PUT', `/upload/store/v2/files/${file.id}?uploadType=resumable`, {
        body: {},
        headers: { 'x-upload-content-type': 'text/plain' },
      });
      const loc2 = upd.headers.get('location')!;
      const done = await fetch(loc2, {
        method: 'PUT',
        headers: { 'content-range': 'bytes 0-4/5', authorization: `Bearer ${h.token}` },
        body: Buffer.from('hello') as unknown as BodyInit,
      });
      assert.equal(done.status, 200, 'a finished update answers 200');
      assert.equal((await jsonOf<{ fileSize: string }>(done)).fileSize, '5');
    });
  });

  describe('parents and children', () => {
    it('insert/get/list/delete keep both views consistent (a file in several folders)', async () => {
      const readme = await find('README.txt');
      const archive = await find('Archive');
      const added = await h.call<ParentReference>('POST', `/store/v2/files/${readme.id}/parents`, {
        body: { id: archive.id },
      });
      assert.equal(added.json.kind, 'drive#parentReference');
      const parents = await h.call<ParentList>('GET', `/store/v2/files/${readme.id}/parents`);
      assert.equal(parents.json.kind, 'drive#parentList');
      assert.deepEqual(parents.json.items.map((p: { id: string }) => p.id).sort(), [root, archive.id].sort());
      assert.equal(
        (await h.call<ParentReference>('GET', `/store/v2/files/${readme.id}/parents/${archive.id}`)).json.isRoot,
        false,
      );
      assert.equal(
        (await h.call<ChildReference>('GET', `/store/v2/files/${archive.id}/children/${readme.id}`)).json.id,
        readme.id,
      );
      await h.call('DELETE', `/store/v2/files/${archive.id}/children/${readme.id}`);
      assert.equal((await h.call('GET', `/store/v2/files/${readme.id}/parents/${archive.id}`)).status, 404);
      const viaChildren = await h.call<ChildReference>('POST', `/store/v2/files/${archive.id}/children`, {
        body: { id: readme.id },
      });
      assert.equal(viaChildren.json.kind, 'drive#childReference');
      const del = await h.call('DELETE', `/store/v2/files/${readme.id}/parents/${archive.id}`);
      assert.equal(del.status, 204);
      assert.ok(
        !(await h.call<ChildList>('GET', `/store/v2/files/${archive.id}/children?maxResults=1000`)).json.items.some(
          (c: { id: string }) => c.id === readme.id,
        ),
      );
    });
  });

  describe('shared drives', () => {
    it('insert (idempotent by requestId), get, list with q, update, hide/unhide, delete only when empty', async () => {
      const made = await h.call<Drive>('POST', '/store/v2/drives?requestId=req-1', { body: { name: 'Launch' } });
      assert.equal(made.status, 200);
      assert.equal(made.json.kind, 'drive#drive');
      assert.equal(
        (await h.call('POST', '/store/v2/drives?requestId=req-1', { body: { name: 'Launch' } })).status,
        409,
      );
      assert.equal(
        (await h.call('POST', '/store/v2/drives', { body: { name: 'x' } })).status,
        400,
        'requestId is required',
      );
      const id = made.json.id;
      assert.equal((await h.call<Drive>('GET', `/store/v2/drives/${id}`)).json.name, 'Launch');
      const upd = await h.call<Drive>('PUT', `/store/v2/drives/${id}`, {
        body: { name: 'Launch 2026', colorRgb: '#112233' },
      });
      assert.equal(upd.json.name, 'Launch 2026');
      assert.equal((await h.call<Drive>('POST', `/store/v2/drives/${id}/hide`)).json.hidden, true);
      const visible = await h.call<DriveList>('GET', `/store/v2/drives?q=${q('hidden = false')}`);
      assert.ok(!visible.json.items.some((d: { id: string }) => d.id === id));
      assert.equal((await h.call<Drive>('POST', `/store/v2/drives/${id}/unhide`)).json.hidden, false);
      const named = await h.call<DriveList>('GET', `/store/v2/drives?q=${q("name contains 'Launch'")}`);
      assert.deepEqual(
        named.json.items.map((d: { id: string }) => d.id),
        [id],
      );
      const file = await h.call<File>('POST', '/store/v2/files?supportsAllDrives=true', {
        body: { title: 'plan', parents: [{ id }] },
      });
      assert.equal(file.json.driveId, id);
      assert.equal(
        (await h.call('GET', `/store/v2/files/${file.json.id}`)).status,
        404,
        'shared-drive items need supportsAllDrives',
      );
      const full = await h.call<ErrorBody>('DELETE', `/store/v2/drives/${id}`);
      assert.equal(full.status, 403);
      assert.equal(full.json.error.errors[0].reason, 'cannotDeleteNonEmptyDrive');
      assert.equal((await h.call('DELETE', `/store/v2/files/${file.json.id}?supportsAllDrives=true`)).status, 204);
      assert.equal((await h.call('DELETE', `/store/v2/drives/${id}`)).status, 204);
      assert.equal((await h.call('GET', `/store/v2/drives/${id}`)).status, 404);
    });
  });

  describe('changes and channels', () => {
    it('getStartPageToken, list pages with newStartPageToken on the last page, get', async () => {
      const start = (await h.call<StartPageToken>('GET', '/store/v2/changes/startPageToken')).json;
      assert.equal(start.kind, 'drive#startPageToken');
      const a = await h.call<File>('POST', '/store/v2/files', { body: { title: 'c1' } });
      const b = await h.call<File>('POST', '/store/v2/files', { body: { title: 'c2' } });
      await h.call('DELETE', `/store/v2/files/${a.json.id}`);
      const page1 = await h.call<ChangeList>('GET', `/store/v2/changes?pageToken=${start.startPageToken}&maxResults=1`);
      assert.equal(page1.json.kind, 'drive#changeList');
      assert.equal(page1.json.items.length, 1);
      assert.ok(page1.json.nextPageToken);
      assert.equal(page1.json.newStartPageToken, undefined);
      const rest = await h.call<ChangeList>('GET', `/store/v2/changes?pageToken=${page1.json.nextPageToken}`);
      assert.ok(rest.json.newStartPageToken, 'the last page says where to continue');
      const all = [...page1.json.items, ...rest.json.items];
      const removed = all.find((c: { fileId: string }) => c.fileId === a.json.id)!;
      assert.equal(removed.deleted, true);
      assert.equal(removed.file, undefined);
      const added = all.find((c: { fileId: string }) => c.fileId === b.json.id)!;
      assert.equal(added.file.title, 'c2');
      assert.equal((await h.call<Change>('GET', `/store/v2/changes/${added.id}`)).json.fileId, b.json.id);
      assert.equal((await h.call('GET', '/store/v2/changes?pageToken=abc')).status, 400);
      const none = await h.call<ChangeList>('GET', `/store/v2/changes?pageToken=${rest.json.newStartPageToken}`);
      assert.deepEqual(none.json.items, []);
    });

    it('changes.watch and files.watch POST notifications to the address; channels.stop ends them', async () => {
      const ch = await h.call<Channel>('POST', '/store/v2/changes/watch?pageToken=1', {
        body: { id: 'chan-1', type: 'web_hook', address: receiverUrl, token: 'tok' },
      });
      assert.equal(ch.status, 200);
      assert.equal(ch.json.kind, 'api#channel');
      const fileCh = await h.call<Channel>('POST', `/store/v2/files/${notes.id}/watch`, {
        body: { id: 'chan-2', type: 'web_hook', address: receiverUrl },
      });
      assert.equal(fileCh.json.id, 'chan-2');
      await waitFor(
        () => hooks.filter((x) => x.headers['x-goog-resource-state'] === 'sync').length === 2,
        'sync messages',
      );
      await h.call('PATCH', `/store/v2/files/${notes.id}`, { body: { description: 'watched' } });
      await waitFor(
        () =>
          hooks.some(
            (x) => x.headers['x-goog-channel-id'] === 'chan-2' && x.headers['x-goog-resource-state'] === 'update',
          ),
        'file update notification',
      );
      await waitFor(
        () =>
          hooks.some(
            (x) => x.headers['x-goog-channel-id'] === 'chan-1' && x.headers['x-goog-resource-state'] === 'change',
          ),
        'change notification',
      );
      const change = hooks.find(
        (x) => x.headers['x-goog-channel-id'] === 'chan-1' && x.headers['x-goog-resource-state'] === 'change',
      )!;
      assert.equal(change.headers['x-goog-channel-token'], 'tok');
      assert.equal(change.headers['x-goog-resource-id'], ch.json.resourceId);
      assert.ok(Number(change.headers['x-goog-message-number']) >= 2);
      for (const c of [ch.json, fileCh.json])
        assert.equal(
          (await h.call('POST', '/store/v2/channels/stop', { body: { id: c.id, resourceId: c.resourceId } })).status,
          204,
        );
      const count = hooks.length;
      await h.call('PATCH', `/store/v2/files/${notes.id}`, { body: { description: 'quiet' } });
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(hooks.length, count, 'no notifications after stop');
      assert.equal((await h.call('POST', '/store/v2/channels/stop', { body: { id: 'chan-1' } })).status, 404);
      const insecure = await h.call('POST', '/store/v2/changes/watch', {
        body: { id: 'chan-3', type: 'web_hook', address: 'http://example.com/hook' },
      });
      assert.equal(insecure.status, 400, 'non-loopback receivers must be HTTPS');
    });
  });

  describe('comments and replies', () => {
    it('insert/get/list/patch/update/delete comments; replies resolve and reopen', async () => {
      const c = await h.call<Comment>('POST', `/store/v2/files/${notes.id}/comments`, {
        body: { content: 'Typo in line 2', context: { type: 'text/plain', value: 'tree view' } },
      });
      assert.equal(c.status, 200);
      assert.equal(c.json.kind, 'drive#comment');
      assert.equal(c.json.status, 'open');
      const id = c.json.commentId;
      assert.equal(
        (await h.call('POST', `/store/v2/files/${notes.id}/comments`, { body: {} })).status,
        400,
        'content is required',
      );
      assert.equal(
        (await h.call<Comment>('GET', `/store/v2/files/${notes.id}/comments/${id}`)).json.content,
        'Typo in line 2',
      );
      assert.equal(
        (
          await h.call<Comment>('PATCH', `/store/v2/files/${notes.id}/comments/${id}`, {
            body: { content: 'Typo in line 3' },
          })
        ).json.content,
        'Typo in line 3',
      );
      assert.equal(
        (
          await h.call<Comment>('PUT', `/store/v2/files/${notes.id}/comments/${id}`, {
            body: { content: 'Typo, line 3' },
          })
        ).json.htmlContent,
        'Typo, line 3',
      );
      const r1 = await h.call<CommentReply>('POST', `/store/v2/files/${notes.id}/comments/${id}/replies`, {
        body: { content: 'Fixed', verb: 'resolve' },
      });
      assert.equal(r1.json.kind, 'drive#commentReply');
      assert.equal(
        (await h.call<Comment>('GET', `/store/v2/files/${notes.id}/comments/${id}`)).json.status,
        'resolved',
      );
      await h.call('POST', `/store/v2/files/${notes.id}/comments/${id}/replies`, { body: { verb: 'reopen' } });
      assert.equal((await h.call<Comment>('GET', `/store/v2/files/${notes.id}/comments/${id}`)).json.status, 'open');
      const rid = r1.json.replyId;
      assert.equal(
        (await h.call<CommentReply>('GET', `/store/v2/files/${notes.id}/comments/${id}/replies/${rid}`)).json.content,
        'Fixed',
      );
      assert.equal(
        (
          await h.call<CommentReply>('PATCH', `/store/v2/files/${notes.id}/comments/${id}/replies/${rid}`, {
            body: { content: 'Fixed now' },
          })
        ).json.content,
        'Fixed now',
      );
      assert.equal(
        (
          await h.call<CommentReply>('PUT', `/store/v2/files/${notes.id}/comments/${id}/replies/${rid}`, {
            body: { content: 'Fixed!' },
          })
        ).json.content,
        'Fixed!',
      );
      const replies = await h.call<CommentReplyList>('GET', `/store/v2/files/${notes.id}/comments/${id}/replies`);
      assert.equal(replies.json.kind, 'drive#commentReplyList');
      assert.equal(replies.json.items.length, 2);
      assert.equal((await h.call('DELETE', `/store/v2/files/${notes.id}/comments/${id}/replies/${rid}`)).status, 204);
      assert.equal(
        (await h.call<CommentReplyList>('GET', `/store/v2/files/${notes.id}/comments/${id}/replies`)).json.items.length,
        1,
      );
      assert.equal(
        (
          await h.call<CommentReplyList>(
            'GET',
            `/store/v2/files/${notes.id}/comments/${id}/replies?includeDeleted=true`,
          )
        ).json.items.length,
        2,
      );
      assert.equal((await h.call('DELETE', `/store/v2/files/${notes.id}/comments/${id}`)).status, 204);
      const list = await h.call<CommentList>('GET', `/store/v2/files/${notes.id}/comments`);
      assert.equal(list.json.kind, 'drive#commentList');
      assert.ok(!list.json.items.some((x: { commentId: string }) => x.commentId === id));
      assert.equal(
        (await h.call<CommentList>('GET', `/store/v2/files/${notes.id}/comments?includeDeleted=true`)).json.items.find(
          (x: { commentId: string }) => x.commentId === id,
        )!.deleted,
        true,
      );
      const roadmap = await find('Roadmap');
      const theirs = (await h.call<CommentList>('GET', `/store/v2/files/${roadmap.id}/comments`)).json.items[0];
      assert.equal(
        (
          await h.call('PATCH', `/store/v2/files/${roadmap.id}/comments/${theirs.commentId}`, {
            body: { content: 'edited by me' },
          })
        ).status,
        403,
        'only the author edits',
      );
    });
  });

  describe('permissions', () => {
    it('insert/get/list/patch/update/delete and getIdForEmail', async () => {
      const p = await h.call<Permission>(
        'POST',
        `/store/v2/files/${notes.id}/permissions?sendNotificationEmails=false`,
        {
          body: { type: 'user', role: 'reader', value: 'new.person@example.net' },
        },
      );
      assert.equal(p.status, 200);
      assert.equal(p.json.kind, 'drive#permission');
      const idForEmail = await h.call<PermissionId>('GET', `/store/v2/permissionIds/${q('new.person@example.net')}`);
      assert.equal(idForEmail.json.kind, 'drive#permissionId');
      assert.equal(idForEmail.json.id, p.json.id);
      assert.equal(
        (await h.call<Permission>('GET', `/store/v2/files/${notes.id}/permissions/${p.json.id}`)).json.role,
        'reader',
      );
      assert.equal(
        (
          await h.call<Permission>('PATCH', `/store/v2/files/${notes.id}/permissions/${p.json.id}`, {
            body: { role: 'writer' },
          })
        ).json.role,
        'writer',
      );
      assert.deepEqual(
        (
          await h.call<Permission>('PUT', `/store/v2/files/${notes.id}/permissions/${p.json.id}`, {
            body: { role: 'reader', additionalRoles: ['commenter'] },
          })
        ).json.additionalRoles,
        ['commenter'],
      );
      const list = await h.call<PermissionList>('GET', `/store/v2/files/${notes.id}/permissions`);
      assert.equal(list.json.kind, 'drive#permissionList');
      assert.equal(list.json.items.length, 2);
      const q2 = await h.call<FileList>(
        'GET',
        `/store/v2/files?q=${q("'new.person@example.net' in readers")}&fields=items(title)`,
      );
      assert.deepEqual(q2.json.items, [{ title: 'notes.md' }]);
      const anyone = await h.call<Permission>('POST', `/store/v2/files/${notes.id}/permissions`, {
        body: { type: 'anyone', role: 'reader', withLink: true },
      });
      assert.equal(anyone.json.id, 'anyoneWithLink');
      assert.equal(
        (
          await h.call('POST', `/store/v2/files/${notes.id}/permissions`, {
            body: { type: 'user', role: 'organizer', value: 'a@b.co' },
          })
        ).status,
        400,
        'organizer only in shared drives',
      );
      assert.equal(
        (await h.call('POST', `/store/v2/files/${notes.id}/permissions`, { body: { role: 'reader' } })).status,
        400,
        'type is required',
      );
      const owner = list.json.items.find((x: { role: string }) => x.role === 'owner')!;
      assert.equal((await h.call('DELETE', `/store/v2/files/${notes.id}/permissions/${owner.id}`)).status, 403);
      assert.equal(
        (
          await h.call('PATCH', `/store/v2/files/${notes.id}/permissions/${p.json.id}`, {
            body: { role: 'owner' },
          })
        ).status,
        403,
        'ownership moves only with transferOwnership',
      );
      assert.equal((await h.call('DELETE', `/store/v2/files/${notes.id}/permissions/${p.json.id}`)).status, 204);
      assert.equal((await h.call('GET', `/store/v2/files/${notes.id}/permissions/${p.json.id}`)).status, 404);
      const partner = await find('Partner agreement.pdf');
      assert.equal(
        (
          await h.call('POST', `/store/v2/files/${partner.id}/permissions`, {
            body: { type: 'anyone', role: 'reader' },
          })
        ).status,
        403,
        'readers cannot share',
      );
    });
  });

  describe('properties', () => {
    it('insert (upsert), get/patch/update/delete by key and visibility, list; limits', async () => {
      const ins = await h.call<Property>('POST', `/store/v2/files/${notes.id}/properties`, {
        body: { key: 'color', value: 'blue', visibility: 'PUBLIC' },
      });
      assert.equal(ins.json.kind, 'drive#property');
      assert.equal(
        (
          await h.call<Property>('POST', `/store/v2/files/${notes.id}/properties`, {
            body: { key: 'color', value: 'green', visibility: 'PUBLIC' },
          })
        ).json.value,
        'green',
      );
      assert.equal(
        (await h.call('GET', `/store/v2/files/${notes.id}/properties/color`)).status,
        404,
        'visibility defaults to private',
      );
      const got = await h.call<Property>('GET', `/store/v2/files/${notes.id}/properties/color?visibility=PUBLIC`);
      assert.equal(got.json.value, 'green');
      assert.equal(
        (
          await h.call<Property>('PATCH', `/store/v2/files/${notes.id}/properties/color?visibility=PUBLIC`, {
            body: { value: 'red' },
          })
        ).json.value,
        'red',
      );
      assert.equal(
        (
          await h.call<Property>('PUT', `/store/v2/files/${notes.id}/properties/color?visibility=PUBLIC`, {
            body: { value: 'teal' },
          })
        ).json.value,
        'teal',
      );
      assert.equal(
        (
          await h.call('PATCH', `/store/v2/files/${notes.id}/properties/color?visibility=PUBLIC`, {
            body: { value: 'x' },
            headers: { 'if-match': got.json.etag },
          })
        ).status,
        412,
      );
      const list = await h.call<PropertyList>('GET', `/store/v2/files/${notes.id}/properties`);
      assert.equal(list.json.kind, 'drive#propertyList');
      assert.deepEqual(
        list.json.items.map((p: { key: string; visibility: string }) => `${p.key}/${p.visibility}`).sort(),
        ['color/PUBLIC', 'reviewed/PUBLIC', 'syncToken/PRIVATE'],
      );
      const q2 = await h.call<FileList>(
        'GET',
        `/store/v2/files?q=${q("properties has { key='color' and value='teal' }")}&fields=items(id)`,
      );
      assert.deepEqual(q2.json.items, [{ id: notes.id }]);
      assert.equal(
        (
          await h.call('POST', `/store/v2/files/${notes.id}/properties`, {
            body: { key: 'k', value: 'v'.repeat(200) },
          })
        ).status,
        400,
      );
      assert.equal(
        (await h.call('DELETE', `/store/v2/files/${notes.id}/properties/color?visibility=PUBLIC`)).status,
        204,
      );
      assert.equal((await h.call('GET', `/store/v2/files/${notes.id}/properties/color?visibility=PUBLIC`)).status, 404);
    });
  });

  describe('revisions', () => {
    it('content updates add revisions; get/list/patch/update/delete; old content stays downloadable', async () => {
      const f = await h.call<File>('POST', '/upload/store/v2/files?uploadType=media', {
        raw: 'v1',
        headers: { 'content-type': 'text/plain' },
      });
      await h.call('PUT', `/upload/store/v2/files/${f.json.id}?uploadType=media`, {
        raw: 'v2',
        headers: { 'content-type': 'text/plain' },
      });
      await h.call('PUT', `/upload/store/v2/files/${f.json.id}?uploadType=media&newRevision=false`, {
        raw: 'v2b',
        headers: { 'content-type': 'text/plain' },
      });
      const list = await h.call<RevisionList>('GET', `/store/v2/files/${f.json.id}/revisions`);
      assert.equal(list.json.kind, 'drive#revisionList');
      assert.equal(list.json.items.length, 2, 'newRevision=false replaced the head');
      const [first, head] = list.json.items;
      assert.equal((await h.call('GET', `/store/v2/files/${f.json.id}?alt=media&revisionId=${first.id}`)).text, 'v1');
      assert.equal(
        (await h.call<Revision>('GET', `/store/v2/files/${f.json.id}/revisions/${head.id}`)).json.fileSize,
        '3',
      );
      assert.equal(
        (
          await h.call<Revision>('PATCH', `/store/v2/files/${f.json.id}/revisions/${first.id}`, {
            body: { pinned: true },
          })
        ).json.pinned,
        true,
      );
      assert.equal(
        (
          await h.call<Revision>('PUT', `/store/v2/files/${f.json.id}/revisions/${first.id}`, {
            body: { pinned: false },
          })
        ).json.pinned,
        false,
      );
      assert.equal(
        (await h.call('DELETE', `/store/v2/files/${f.json.id}/revisions/${head.id}`)).status,
        400,
        'the head revision stays',
      );
      assert.equal((await h.call('DELETE', `/store/v2/files/${f.json.id}/revisions/${first.id}`)).status, 204);
      assert.equal((await h.call('GET', `/store/v2/files/${f.json.id}/revisions/${first.id}`)).status, 404);
      const design = await find('Design');
      assert.equal(
        (await h.call('GET', `/store/v2/files/${design.id}/revisions`)).status,
        403,
        'folders have no revisions',
      );
    });
  });

  describe('apps and about', () => {
    it('lists apps with filters and gets one', async () => {
      const all = await h.call<AppList>('GET', '/store/v2/apps');
      assert.equal(all.json.kind, 'drive#appList');
      assert.equal(all.json.items.length, 2);
      const md = await h.call<AppList>('GET', '/store/v2/apps?appFilterExtensions=md');
      assert.deepEqual(
        md.json.items.map((a: { name: string }) => a.name),
        ['Sandbox Text Editor'],
      );
      const one = await h.call<App>('GET', `/store/v2/apps/${all.json.items[1].id}`);
      assert.equal(one.json.kind, 'drive#app');
      assert.equal((await h.call('GET', '/store/v2/apps/nope')).status, 404);
    });

    it('about.get reflects quota used by uploads', async () => {
      const before = Number((await h.call<About>('GET', '/store/v2/about?fields=quotaBytesUsed')).json.quotaBytesUsed);
      await h.call('POST', '/upload/store/v2/files?uploadType=media', {
        raw: Buffer.alloc(5000),
        headers: { 'content-type': 'application/octet-stream' },
      });
      const after = Number((await h.call<About>('GET', '/store/v2/about?fields=quotaBytesUsed')).json.quotaBytesUsed);
      assert.equal(after - before, 5000);
    });
  });

  describe('rate limits and faults', () => {
    it('answers 403 userRateLimitExceeded or 429 over the configured rate, and injected 5xx', async () => {
      await h.call('POST', '/store/v2/__sandbox/faults', { body: { rateLimitPerSecond: 3, rateLimitStatus: 429 } });
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await h.call('GET', '/store/v2/about?fields=kind')).status);
      assert.ok(statuses.includes(429));
      // The sandbox's controls answer while the limit refuses the service: the limit can be turned off at once.
      const reset = await h.call('POST', '/store/v2/__sandbox/faults', {
        body: { reset: true, rateLimitPerSecond: 2, rateLimitStatus: 403 },
      });
      assert.equal(reset.status, 200);
      await new Promise((r) => setTimeout(r, 1000));
      const s2: { status: number; reason?: string }[] = [];
      for (let i = 0; i < 4; i++) {
        const r = await h.call<Partial<ErrorBody>>('GET', '/store/v2/about?fields=kind');
        s2.push({ status: r.status, reason: r.json?.error?.errors?.[0]?.reason });
      }
      assert.ok(s2.some((x) => x.status === 403 && x.reason === 'userRateLimitExceeded'));
      await new Promise((r) => setTimeout(r, 1000));
      await h.call('POST', '/store/v2/__sandbox/faults', {
        body: { reset: true, queued: [{ kind: 'status', status: 503 }] },
      });
      // A queued fault waits for the service's next call: a look at the controls does not use it up.
      assert.equal((await h.call('GET', '/store/v2/__sandbox/faults')).status, 200);
      const r = await h.call<ErrorBody>('GET', '/store/v2/about?fields=kind');
      assert.equal(r.status, 503);
      assert.equal(r.json.error.errors[0].reason, 'backendError');
      assert.equal((await h.call('GET', '/store/v2/about?fields=kind')).status, 200, 'one-shot');
    });
  });

  // Child suites run after a suite's own tests, so the coverage check is a suite of its own, last.
  describe('coverage', () =>
    it('exercised every operation of the description document', () => {
      const hit = new Set(
        served
          .slice(firstServed)
          .filter((s) => s.status < 500)
          .map((s) => operationOf(s.method, s.path))
          .filter(Boolean),
      );
      const missing = defaultOperations()
        .ids()
        .filter((id) => !hit.has(id));
      assert.deepEqual(missing, []);
    }));
});
