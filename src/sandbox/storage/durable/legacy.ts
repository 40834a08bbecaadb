// Data folders written before the journal hold one `state.json`. It is read once, checked record by record,
// and turned into the first snapshot. Its oldest form named file contents `{"$blob": sha256}`: such markers are
// read only where a content belongs (a file's head and its revisions) and only as a key of this folder's blob
// store; a value a client stored elsewhere (a drive's restrictions, a property) stays the client's data.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { blobRefOf } from '../blobs';
import { dictionary, type StoreState } from '../model';
import {
  DamagedStateError,
  isMeta,
  isObject,
  isStoredChange,
  isStoredDrive,
  isStoredFile,
  isStoredUser,
} from './format';

function blobMarkerToRef(v: unknown, blobDir: string, file: string): unknown {
  if (!isObject(v) || Object.keys(v).length !== 1 || typeof v.$blob !== 'string') return v;
  if (!/^[0-9a-f]{64}$/.test(v.$blob))
    throw new DamagedStateError(file, `a content names "${v.$blob}", not a blob key`);
  const blob = path.join(blobDir, v.$blob);
  if (!fs.existsSync(blob)) throw new DamagedStateError(file, `the content ${v.$blob} is missing from ${blobDir}`);
  return blobRefOf(fs.readFileSync(blob));
}

export function readLegacyState(file: string, blobDir: string): StoreState {
  let v: unknown;
  try {
    v = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new DamagedStateError(file, e instanceof SyntaxError ? 'it is not JSON' : String(e));
  }
  if (!isObject(v)) throw new DamagedStateError(file, 'it does not hold a state object');
  const { users, files, drives, changes, apps, reservedIds } = v;
  if (!isObject(users) || !isObject(files) || !isObject(drives) || !Array.isArray(changes))
    throw new DamagedStateError(file, 'users, files, drives or changes are missing');
  const meta = {
    rootId: v.rootId,
    meId: v.meId,
    nextChangeId:
      v.nextChangeId ?? (changes.length ? Number((changes[changes.length - 1] as { id: number }).id) + 1 : 1),
    idCounter: v.idCounter ?? 0,
    quotaBytesTotal: v.quotaBytesTotal ?? 15 * 1024 ** 3,
  };
  if (!isMeta(meta)) throw new DamagedStateError(file, 'its root, user or counters are missing');
  for (const [id, f] of Object.entries(files)) {
    if (!isObject(f)) throw new DamagedStateError(file, `file ${JSON.stringify(id)} is ${JSON.stringify(f)}`);
    f.content = f.content === undefined ? undefined : blobMarkerToRef(f.content, blobDir, file);
    if (Array.isArray(f.revisions))
      for (const r of f.revisions) if (isObject(r)) r.content = blobMarkerToRef(r.content, blobDir, file);
    if (!isStoredFile(f)) throw new DamagedStateError(file, `file ${JSON.stringify(id)} is not a file record`);
  }
  for (const [id, d] of Object.entries(drives))
    if (!isStoredDrive(d))
      throw new DamagedStateError(file, `shared drive ${JSON.stringify(id)} is not a drive record`);
  for (const [id, u] of Object.entries(users))
    if (!isStoredUser(u)) throw new DamagedStateError(file, `user ${JSON.stringify(id)} is not a user record`);
  if (!changes.every(isStoredChange)) throw new DamagedStateError(file, 'the change log holds a bad entry');
  if (!users[meta.meId]) throw new DamagedStateError(file, 'the current user is missing');
  return {
    ...meta,
    users: dictionary(users as StoreState['users']),
    files: dictionary(files as StoreState['files']),
    drives: dictionary(drives as StoreState['drives']),
    changes: changes,
    apps: (Array.isArray(apps) ? apps : []) as StoreState['apps'],
    reservedIds: Array.isArray(reservedIds) ? reservedIds.filter((x): x is string => typeof x === 'string') : [],
  };
}
