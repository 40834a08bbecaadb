// Where a file lives, with Drive v2 semantics: moving between parents (and between drives), who may
// trash or delete, trash and restore of whole subtrees, permanent delete.
import { FOLDER_MIME } from '../../shared/wire/storage';
import { badRequest, forbidden, notFound } from './errors';
import type { StoredFile } from './model';
import { boolParam, listParam } from './params';
import { canWrite, roleOf } from './access';
import type { StorageService } from './service';

/** Resolves and checks parent ids: they exist, are folders, can take children, sit in one drive. */
export function checkParents(
  svc: StorageService,
  ids: string[],
  supportsAllDrives: boolean,
): { ids: string[]; driveId?: string } {
  const out: string[] = [];
  let driveId: string | undefined;
  for (const raw of ids) {
    const p = svc.store.file(raw);
    if (!p || !svc.canSee(p) || (p.driveId && !supportsAllDrives)) throw notFound('File', raw);
    if (p.mimeType !== FOLDER_MIME) throw badRequest(`The parent ${raw} is not a folder.`, 'parents', 'invalidParent');
    if (!canWrite(roleOf(svc.store, p)))
      throw forbidden(
        'insufficientFilePermissions',
        'The user does not have sufficient permissions for the parent folder.',
      );
    if (p.trashed) throw badRequest(`The parent ${raw} is in the trash.`, 'parents', 'invalidParent');
    out.push(p.id);
    driveId = p.driveId;
  }
  const drives = new Set(out.map((id) => svc.store.state.files[id].driveId ?? ''));
  if (drives.size > 1 || (driveId && out.length > 1)) {
    throw forbidden('teamDrivesParentLimit', 'A shared drive item must have exactly one parent.');
  }
  return { ids: [...new Set(out)], driveId };
}

/** Applies addParents/removeParents (and `parents` in the body, which replaces the set). */
export function moveFile(
  svc: StorageService,
  f: StoredFile,
  q: URLSearchParams,
  body: { parents?: { id?: string }[] },
): boolean {
  const add = listParam(q, 'addParents');
  const remove = listParam(q, 'removeParents').map((id) => svc.store.resolveId(id));
  const supports = boolParam(q, 'supportsAllDrives', false) || boolParam(q, 'supportsTeamDrives', false);
  let next = [...f.parents];
  if (body.parents && add.length === 0 && remove.length === 0) {
    const wanted = body.parents.map((p) => p.id ?? '').filter(Boolean);
    const fresh = wanted.filter((id) => !f.parents.includes(svc.store.resolveId(id)));
    const checked = checkParents(svc, fresh, supports || !!f.driveId).ids;
    next = [...f.parents.filter((p) => wanted.map((w) => svc.store.resolveId(w)).includes(p)), ...checked];
  } else {
    if (add.length) next.push(...checkParents(svc, add, supports || !!f.driveId).ids);
    for (const r of remove) {
      if (!f.parents.includes(r))
        throw badRequest(`${r} is not a parent of the file.`, 'removeParents', 'invalidParent');
    }
    next = next.filter((p) => !remove.includes(p));
  }
  next = [...new Set(next)];
  if (JSON.stringify(next) === JSON.stringify(f.parents)) return false;
  if (f.mimeType === FOLDER_MIME) {
    for (const p of next)
      if (p === f.id || svc.store.ancestors(p).has(f.id))
        throw badRequest('A folder cannot be moved into itself or its descendants.', 'addParents', 'invalidParent');
  }
  const drives = new Set(next.map((p) => svc.store.state.files[p]?.driveId ?? ''));
  const newDrive = [...drives][0] || undefined;
  if (drives.size > 1 || (newDrive && next.length !== 1)) {
    throw forbidden('teamDrivesParentLimit', 'A shared drive item must have exactly one parent.');
  }
  svc.store.setParents(f, next);
  if (newDrive !== f.driveId) {
    for (const d of [f, ...svc.store.descendants(f.id)]) d.driveId = newDrive;
  }
  return true;
}

export function requireOwner(svc: StorageService, f: StoredFile, action: string): void {
  const role = roleOf(svc.store, f);
  const allowed =
    role === 'owner' ||
    role === 'organizer' ||
    (f.driveId && (role === 'fileOrganizer' || (action === 'trash' && role === 'writer')));
  if (!allowed)
    throw forbidden(
      'insufficientFilePermissions',
      `The user does not have sufficient permissions to ${action} this file.`,
    );
}

/** Trashes a file and everything below it; only the file itself is "explicitly" trashed. */
export function trash(svc: StorageService, f: StoredFile): void {
  if (f.id === svc.store.state.rootId || svc.store.state.drives[f.id])
    throw forbidden('cannotTrashRoot', 'The root folder cannot be trashed.');
  const now = svc.store.nowIso();
  const me = svc.store.state.meId;
  for (const d of [f, ...(f.mimeType === FOLDER_MIME ? svc.store.descendants(f.id) : [])]) {
    if (d.trashed && d !== f) continue;
    d.trashed = true;
    d.trashedDate = now;
    d.trashingUserId = me;
    d.explicitlyTrashed = d === f;
    svc.store.touchFile(d);
  }
}

/** Restores a file and the descendants that went to the trash with it (not ones trashed on their own). */
export function untrash(svc: StorageService, f: StoredFile): void {
  const restore = (d: StoredFile) => {
    d.trashed = false;
    d.explicitlyTrashed = false;
    d.trashedDate = undefined;
    d.trashingUserId = undefined;
    svc.store.touchFile(d);
  };
  restore(f);
  if (f.mimeType !== FOLDER_MIME) return;
  const queue = [f.id];
  while (queue.length) {
    const id = queue.pop()!;
    for (const cid of svc.store.childIds(id)) {
      const c = svc.store.state.files[cid];
      if (!c || !c.trashed || c.explicitlyTrashed) continue;
      restore(c);
      if (c.mimeType === FOLDER_MIME) queue.push(c.id);
    }
  }
}

/** Permanent delete: the file and the descendants the user owns; others' items just lose the parent. */
export function deleteTree(svc: StorageService, f: StoredFile): void {
  const me = svc.store.state.meId;
  const doomed = [f, ...(f.mimeType === FOLDER_MIME ? svc.store.descendants(f.id) : [])];
  for (const d of doomed) {
    if (d !== f && d.ownerId !== me && !d.driveId) {
      svc.store.setParents(
        d,
        d.parents.filter((p) => !doomed.some((x) => x.id === p)),
      );
      svc.store.touchFile(d);
      continue;
    }
    svc.store.removeFile(d.id);
  }
}
