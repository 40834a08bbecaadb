// The fixed roots of the storage tree and what each entry shows (label, description, tooltip,
// codicon id, context value for menus); the tree model owns the entries, the VS Code adapter maps
// a Presentation onto a TreeItem.
import { SHORTCUT_MIME, isWorkspaceDocument } from '../../shared/wire/storage';
import { formatDate, formatSize, iconFor } from './present';
import type { TreeEntry } from './tree';

export type RootKind = 'myFiles' | 'sharedDrives' | 'sharedWithMe' | 'starred' | 'recent' | 'trash' | 'search';

export const ROOTS: { kind: RootKind; label: string; icon: string }[] = [
  { kind: 'myFiles', label: 'My files', icon: 'root-folder' },
  { kind: 'sharedDrives', label: 'Shared drives', icon: 'organization' },
  { kind: 'sharedWithMe', label: 'Shared with me', icon: 'live-share' },
  { kind: 'starred', label: 'Starred', icon: 'star-full' },
  { kind: 'recent', label: 'Recent', icon: 'history' },
  { kind: 'trash', label: 'Trash', icon: 'trash' },
];

export interface Presentation {
  label: string;
  description?: string;
  tooltip?: string;
  /** Codicon id; the adapter turns it into a ThemeIcon. */
  icon: string;
  collapsible: boolean;
  /** For `when` clauses of context menus: `storage.folder`, `storage.file.trashed`, … */
  contextValue: string;
}

export function presentEntry(e: TreeEntry): Presentation {
  switch (e.type) {
    case 'root':
      return {
        label: e.label,
        icon: e.root === 'search' ? 'search' : (ROOTS.find((r) => r.kind === e.root)?.icon ?? 'folder'),
        collapsible: true,
        contextValue: `storage.root.${e.root}`,
      };
    case 'drive':
      return {
        label: e.drive.name ?? e.drive.id ?? '',
        description: e.drive.hidden ? 'hidden' : undefined,
        tooltip: `${e.drive.name}\nShared drive${e.drive.createdDate ? `\nCreated ${formatDate(e.drive.createdDate)}` : ''}`,
        icon: 'organization',
        collapsible: true,
        contextValue: e.drive.hidden ? 'storage.drive.hidden' : 'storage.drive',
      };
    case 'loadMore':
      return {
        label: 'Load more…',
        description: `${e.loaded} loaded`,
        icon: 'more',
        collapsible: false,
        contextValue: 'storage.loadMore',
      };
    case 'message':
      return {
        label: e.message,
        icon: e.error ? 'error' : 'info',
        collapsible: false,
        contextValue: e.error ? 'storage.error' : 'storage.message',
      };
    case 'file': {
      const f = e.file;
      const size = f.fileSize !== undefined ? formatSize(Number(f.fileSize)) : undefined;
      const modified = f.modifiedDate ? formatDate(f.modifiedDate) : undefined;
      const kind = e.folder
        ? 'folder'
        : f.mimeType === SHORTCUT_MIME
          ? 'shortcut'
          : isWorkspaceDocument(f)
            ? 'document'
            : 'file';
      const flags = [f.labels?.trashed ? 'trashed' : '', f.labels?.starred ? 'starred' : ''].filter(Boolean);
      const owner = f.owners?.[0];
      const tooltip = [
        f.title ?? '',
        `Type: ${f.mimeType ?? 'unknown'}`,
        size ? `Size: ${size} (${Number(f.fileSize).toLocaleString('en-US')} bytes)` : undefined,
        modified
          ? `Modified: ${modified}${f.lastModifyingUserName ? ` by ${f.lastModifyingUserName}` : ''}`
          : undefined,
        owner ? `Owner: ${owner.displayName ?? ''}${owner.emailAddress ? ` <${owner.emailAddress}>` : ''}` : undefined,
        f.md5Checksum ? `MD5: ${f.md5Checksum}` : undefined,
        f.description ? `\n${f.description}` : undefined,
      ]
        .filter((l) => l !== undefined)
        .join('\n');
      return {
        label: f.title ?? f.id ?? '',
        description: [size, modified].filter(Boolean).join(' · ') || undefined,
        tooltip,
        icon: iconFor(f),
        collapsible: e.folder,
        contextValue: ['storage', kind, ...flags].join('.'),
      };
    }
  }
}
