// Access control of the storage emulator: the caller's role on a file (direct, through a shared drive,
// inherited from a folder, or by link) and what a role may do. Used by the handlers and by rendering.
import type { Store, StoredFile, StoredPermission } from './model';

/** The caller's role on a file; items in a shared drive inherit the drive's membership. */
export function roleOf(store: Store, f: StoredFile): StoredPermission['role'] | undefined {
  const me = store.state.meId;
  const direct = f.permissions.find((p) => p.id === me)?.role;
  if (direct) return direct;
  if (f.driveId) return store.state.files[f.driveId]?.permissions.find((p) => p.id === me)?.role;
  for (const a of store.ancestors(f.id)) {
    const r = store.state.files[a]?.permissions.find((p) => p.id === me)?.role;
    if (r) return r;
  }
  if (f.permissions.some((p) => p.type === 'anyone')) return 'reader';
  return undefined;
}

export function canWrite(role: string | undefined): boolean {
  return role === 'owner' || role === 'organizer' || role === 'fileOrganizer' || role === 'writer';
}
