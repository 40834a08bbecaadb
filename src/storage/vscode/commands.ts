// Context-menu commands of the storage tree. Each command takes the tree node it was invoked on,
// then optional values that skip the prompts (used by keybindings and host tests). Prompts name
// exactly what a destructive action affects.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { FOLDER_MIME, isWorkspaceDocument, type About, type App, type AppList, type Drive, type File, type Permission, type PermissionList, type Property, type PropertyList, type Revision, type RevisionList, type LabelList } from '../../shared/wire/storage';
import type { StorageClient } from '../core/client';
import { downloadToFile, exportToFile, safeLocalName, uniqueLocalPath } from '../core/download';
import { StorageError } from '../core/errors';
import { formatDate, formatSize } from '../core/present';
import { displayName, filePath, folderPath } from '../core/storePaths';
import type { TreeEntry } from '../core/tree';
import { fileSource, upload } from '../core/upload';
import { guessType } from '../core/fileSystem';
import { REVISION_SCHEME, STORE_SCHEME } from './fileSystemProvider';
import type { StorageTreeProvider } from './treeProvider';

/** Preferred export format per workspace type when downloading (the user can pick others via Export). */
const DOWNLOAD_EXPORT: Record<string, { mime: string; ext: string }> = {
  'application/vnd.google-apps.document': { mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', ext: 'docx' },
  'application/vnd.google-apps.spreadsheet': { mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', ext: 'xlsx' },
  'application/vnd.google-apps.presentation': { mime: 'application/pdf', ext: 'pdf' },
  'application/vnd.google-apps.drawing': { mime: 'image/svg+xml', ext: 'svg' },
  'application/vnd.google-apps.script': { mime: 'application/vnd.google-apps.script+json', ext: 'json' },
};

const EXTENSION_OF: Record<string, string> = {
  'application/pdf': 'pdf', 'text/plain': 'txt', 'text/markdown': 'md', 'text/html': 'html', 'application/rtf': 'rtf', 'text/csv': 'csv',
  'text/tab-separated-values': 'tsv', 'image/svg+xml': 'svg', 'application/zip': 'zip', 'application/vnd.oasis.opendocument.text': 'odt',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.google-apps.script+json': 'json',
};

const LARGE_FILE = 50 * 1024 * 1024;

export interface CommandContext {
  client(): Promise<StorageClient>;
  tree: StorageTreeProvider;
  log: vscode.LogOutputChannel;
  /** Shows JSON read-only (details, app info). */
  showJson(title: string, value: unknown): Promise<void>;
}

export function fileOf(e: TreeEntry | undefined): File | undefined {
  return e?.type === 'file' ? e.file : undefined;
}

/** The folder id an entry stands for (roots and drives included). */
export function folderIdOf(e: TreeEntry | undefined): string | undefined {
  if (!e) return undefined;
  if (e.type === 'root') return e.root === 'myFiles' ? 'root' : undefined;
  if (e.type === 'drive') return e.drive.id;
  if (e.type === 'file' && e.folder) return e.file.shortcutDetails?.targetId ?? e.file.id;
  return undefined;
}

function names(files: File[]): string {
  const shown = files.slice(0, 5).map((f) => `"${displayName(f.title)}"`).join(', ');
  return files.length > 5 ? `${shown} and ${files.length - 5} more` : shown;
}

/** Runs a command body, turning failures into one readable message. */
async function guarded<T>(ctx: CommandContext, what: string, fn: () => Promise<T>): Promise<T | undefined> {
  try {
    return await fn();
  } catch (e) {
    if ((e as Error)?.name === 'AbortError' || e instanceof vscode.CancellationError) return undefined;
    const message = e instanceof StorageError ? e.message : (e as Error)?.message ?? String(e);
    ctx.log.error(`storage: ${what} failed: ${message}`);
    // An expired or missing sign-in: offer the way out right in the message.
    if (e instanceof StorageError && e.action === 'signIn') {
      void vscode.window.showErrorMessage(`${what} failed: ${message}`, 'Sign In').then((pick) => pick && vscode.commands.executeCommand('apiWorkbench.storage.signIn'));
    } else void vscode.window.showErrorMessage(`${what} failed: ${message}`);
    return undefined;
  }
}

/** The entries a command applies to: the multi-selection when the clicked node is part of it. */
function selection(clicked: TreeEntry | undefined, all: TreeEntry[] | undefined): File[] {
  const list = all && clicked && all.some((x) => x.key === clicked.key) ? all : clicked ? [clicked] : [];
  return list.map(fileOf).filter((f): f is File => !!f);
}

export function registerCommands(ctx: CommandContext): vscode.Disposable[] {
  const reg = (id: string, fn: (...args: never[]) => unknown) => vscode.commands.registerCommand(`apiWorkbench.storage.${id}`, fn);
  const refreshAround = (e: TreeEntry | undefined) => ctx.tree.refresh(e);

  return [
    reg('open', async (e: TreeEntry, confirmed?: boolean) => {
      const f = fileOf(e);
      if (!f?.id) return;
      // Editors read the whole file into memory, and VS Code stops syncing documents over 50 MB.
      const size = Number(f.fileSize ?? 0);
      if (size > LARGE_FILE && !confirmed) {
        const pick = await vscode.window.showWarningMessage(`"${displayName(f.title)}" is ${formatSize(size)}. Open it in an editor anyway?`, { modal: true }, 'Open', 'Download Instead');
        if (pick === 'Download Instead') return vscode.commands.executeCommand('apiWorkbench.storage.download', e);
        if (pick !== 'Open') return;
      }
      await vscode.commands.executeCommand('vscode.open', vscode.Uri.from({ scheme: STORE_SCHEME, path: filePath(f.id, f.title) }));
    }),

    reg('openAsWorkspaceFolder', async (e: TreeEntry) => {
      const id = folderIdOf(e);
      if (!id) return;
      const label = e.type === 'root' ? 'My files' : e.type === 'drive' ? e.drive.name : fileOf(e)?.title;
      const uri = vscode.Uri.from({ scheme: STORE_SCHEME, path: folderPath(id) });
      vscode.workspace.updateWorkspaceFolders(vscode.workspace.workspaceFolders?.length ?? 0, 0, { uri, name: `${label ?? id} (storage)` });
    }),

    reg('newFolder', async (e: TreeEntry, name?: string) =>
      guarded(ctx, 'Creating the folder', async () => {
        const parent = folderIdOf(e) ?? 'root';
        const title = name ?? (await vscode.window.showInputBox({ prompt: 'Name of the new folder', value: 'New folder', validateInput: (v) => (v.trim() ? undefined : 'A name is required') }));
        if (!title) return;
        const client = await ctx.client();
        const made = await client.call<File>('files.insert', { supportsAllDrives: true }, { body: { title: title.trim(), mimeType: FOLDER_MIME, parents: [{ id: parent }] } });
        ctx.tree.refresh(e);
        return made;
      }),
    ),

    reg('upload', async (e: TreeEntry, paths?: string[]) => uploadInto(ctx, e, paths, false)),
    reg('uploadFolder', async (e: TreeEntry, paths?: string[]) => uploadInto(ctx, e, paths, true)),

    reg('download', async (e: TreeEntry, all?: TreeEntry[], targetDir?: string) =>
      guarded(ctx, 'Downloading', async () => {
        const files = selection(e, all);
        if (!files.length) return;
        const dir = targetDir ?? (await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, openLabel: 'Download here' }))?.[0]?.fsPath;
        if (!dir) return;
        const client = await ctx.client();
        const written: string[] = [];
        await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Downloading', cancellable: true }, async (progress, token) => {
          const abort = new AbortController();
          token.onCancellationRequested(() => abort.abort());
          for (const f of files) written.push(...(await downloadTree(client, f, dir, abort.signal, (m) => progress.report({ message: m }))));
        });
        void vscode.window.showInformationMessage(`Downloaded ${written.length} file(s) to ${dir}.`);
        return written;
      }),
    ),

    reg('export', async (e: TreeEntry, mimeType?: string, target?: string) =>
      guarded(ctx, 'Exporting', async () => {
        const f = fileOf(e);
        if (!f?.id || !isWorkspaceDocument(f)) return;
        const client = await ctx.client();
        const links = f.exportLinks ?? (await client.getFile(f.id, { fields: 'exportLinks' })).exportLinks ?? {};
        const choice = mimeType ?? (await vscode.window.showQuickPick(Object.keys(links).map((m) => ({ label: EXTENSION_OF[m] ? `.${EXTENSION_OF[m]}` : m, description: m })), { placeHolder: `Export "${displayName(f.title)}" as…` }))?.description;
        if (!choice) return;
        const file = target ?? (await vscode.window.showSaveDialog({ defaultUri: vscode.Uri.file(safeLocalName(f.title ?? 'export', EXTENSION_OF[choice])) }))?.fsPath;
        if (!file) return;
        await exportToFile(client, f.id, choice, file);
        return file;
      }),
    ),

    reg('copy', async (e: TreeEntry, title?: string) =>
      guarded(ctx, 'Copying', async () => {
        const f = fileOf(e);
        if (!f?.id) return;
        const name = title ?? (await vscode.window.showInputBox({ prompt: 'Title of the copy', value: `Copy of ${f.title ?? ''}` }));
        if (!name) return;
        const client = await ctx.client();
        const copy = await client.call<File>('files.copy', { fileId: f.id, supportsAllDrives: true }, { body: { title: name } });
        refreshAround(e);
        return copy;
      }),
    ),

    reg('rename', async (e: TreeEntry, title?: string) =>
      guarded(ctx, 'Renaming', async () => {
        const f = fileOf(e);
        const driveEntry = e?.type === 'drive' ? e.drive : undefined;
        const client = await ctx.client();
        if (driveEntry?.id) {
          const name = title ?? (await vscode.window.showInputBox({ prompt: 'New name of the shared drive', value: driveEntry.name }));
          if (!name) return;
          const d = await client.call<Drive>('drives.update', { driveId: driveEntry.id }, { body: { name } });
          ctx.tree.refresh(undefined);
          return d;
        }
        if (!f?.id) return;
        const name = title ?? (await vscode.window.showInputBox({ prompt: 'New title', value: f.title }));
        if (!name || name === f.title) return;
        const updated = await client.call<File>('files.patch', { fileId: f.id, supportsAllDrives: true }, { body: { title: name }, headers: f.etag ? { 'if-match': f.etag } : {} });
        refreshAround(e);
        return updated;
      }),
    ),

    reg('trash', async (e: TreeEntry, all?: TreeEntry[], confirmed?: boolean) =>
      guarded(ctx, 'Moving to the trash', async () => {
        const files = selection(e, all);
        if (!files.length) return;
        if (!confirmed) {
          const ok = await vscode.window.showWarningMessage(`Move ${names(files)} to the trash?`, { modal: true, detail: 'Folders go with everything in them. You can restore from Trash.' }, 'Move to Trash');
          if (ok !== 'Move to Trash') return;
        }
        const client = await ctx.client();
        for (const f of files) await client.call('files.trash', { fileId: f.id!, supportsAllDrives: true });
        ctx.tree.refresh(undefined);
        return files.length;
      }),
    ),

    reg('untrash', async (e: TreeEntry, all?: TreeEntry[]) =>
      guarded(ctx, 'Restoring', async () => {
        const client = await ctx.client();
        const files = selection(e, all);
        for (const f of files) await client.call('files.untrash', { fileId: f.id!, supportsAllDrives: true });
        ctx.tree.refresh(undefined);
        return files.length;
      }),
    ),

    reg('deletePermanently', async (e: TreeEntry, all?: TreeEntry[], confirmed?: boolean) =>
      guarded(ctx, 'Deleting', async () => {
        const files = selection(e, all);
        if (!files.length) return;
        if (!confirmed) {
          const ok = await vscode.window.showWarningMessage(`Delete ${names(files)} permanently?`, { modal: true, detail: 'This skips the trash and cannot be undone. Folders are deleted with everything you own in them.' }, 'Delete Permanently');
          if (ok !== 'Delete Permanently') return;
        }
        const client = await ctx.client();
        for (const f of files) await client.call('files.delete', { fileId: f.id!, supportsAllDrives: true });
        ctx.tree.refresh(undefined);
        return files.length;
      }),
    ),

    reg('emptyTrash', async (_e: TreeEntry, confirmed?: boolean) =>
      guarded(ctx, 'Emptying the trash', async () => {
        const client = await ctx.client();
        const trashed = (await client.listAllFiles({ q: "trashed = true and 'me' in owners", fields: 'nextPageToken,items(id,title,explicitlyTrashed)', maxResults: 1000 })).filter((f) => f.explicitlyTrashed);
        if (!trashed.length) {
          void vscode.window.showInformationMessage('The trash is already empty.');
          return 0;
        }
        if (!confirmed) {
          const ok = await vscode.window.showWarningMessage(`Permanently delete ${trashed.length} item(s) in the trash: ${names(trashed)}?`, { modal: true, detail: 'This cannot be undone.' }, 'Empty Trash');
          if (ok !== 'Empty Trash') return;
        }
        await client.call('files.emptyTrash', {});
        ctx.tree.refresh(undefined);
        return trashed.length;
      }),
    ),

    reg('touch', async (e: TreeEntry) =>
      guarded(ctx, 'Touching', async () => {
        const f = fileOf(e);
        if (!f?.id) return;
        const updated = await (await ctx.client()).call<File>('files.touch', { fileId: f.id, supportsAllDrives: true });
        refreshAround(e);
        return updated;
      }),
    ),

    reg('star', async (e: TreeEntry, all?: TreeEntry[]) => setStar(ctx, selection(e, all), true)),
    reg('unstar', async (e: TreeEntry, all?: TreeEntry[]) => setStar(ctx, selection(e, all), false)),

    reg('details', async (e: TreeEntry) =>
      guarded(ctx, 'Loading details', async () => {
        const f = fileOf(e);
        if (!f?.id) return;
        const full = await (await ctx.client()).getFile(f.id);
        await ctx.showJson(`${displayName(full.title)} — details`, full);
        return full;
      }),
    ),

    reg('labels', async (e: TreeEntry) =>
      guarded(ctx, 'Loading labels', async () => {
        const f = fileOf(e);
        if (!f?.id) return;
        const labels = await (await ctx.client()).call<LabelList>('files.listLabels', { fileId: f.id });
        await ctx.showJson(`${displayName(f.title)} — labels`, labels.items ?? []);
        return labels.items;
      }),
    ),

    reg('modifyLabel', async (e: TreeEntry, labelId?: string, fieldId?: string, value?: string) =>
      guarded(ctx, 'Changing the label', async () => {
        const f = fileOf(e);
        if (!f?.id) return;
        const id = labelId ?? (await vscode.window.showInputBox({ prompt: 'Label id' }));
        if (!id) return;
        const field = fieldId ?? (await vscode.window.showInputBox({ prompt: 'Field id (empty: remove the label)' }));
        if (field === undefined) return;
        const text = field ? value ?? (await vscode.window.showInputBox({ prompt: `Text value of ${field}` })) : undefined;
        const mod = field ? { labelId: id, fieldModifications: [{ fieldId: field, setTextValues: [text ?? ''] }] } : { labelId: id, removeLabel: true };
        return (await ctx.client()).call('files.modifyLabels', { fileId: f.id }, { body: { labelModifications: [mod] } });
      }),
    ),

    reg('properties', async (e: TreeEntry) => guarded(ctx, 'Editing properties', () => manageProperties(ctx, fileOf(e)))),
    reg('setProperty', async (e: TreeEntry, key: string, value: string, visibility: 'PUBLIC' | 'PRIVATE' = 'PRIVATE') =>
      guarded(ctx, 'Setting the property', async () => {
        const f = fileOf(e);
        if (!f?.id) return;
        return (await ctx.client()).call<Property>('properties.insert', { fileId: f.id }, { body: { key, value, visibility } });
      }),
    ),
    reg('deleteProperty', async (e: TreeEntry, key: string, visibility: 'PUBLIC' | 'PRIVATE' = 'PRIVATE') =>
      guarded(ctx, 'Deleting the property', async () => {
        const f = fileOf(e);
        if (!f?.id) return;
        await (await ctx.client()).call('properties.delete', { fileId: f.id, propertyKey: key, visibility: visibility.toLowerCase() });
        return true;
      }),
    ),

    reg('permissions', async (e: TreeEntry) => guarded(ctx, 'Sharing', () => managePermissions(ctx, e))),
    reg('share', async (e: TreeEntry, email: string, role: Permission['role'] = 'reader', type: Permission['type'] = 'user') =>
      guarded(ctx, 'Sharing', async () => {
        const id = fileOf(e)?.id ?? (e?.type === 'drive' ? e.drive.id : undefined);
        if (!id) return;
        const body: Permission = type === 'anyone' ? { type, role, withLink: true } : type === 'domain' ? { type, role, value: email } : { type, role, value: email };
        return (await ctx.client()).call<Permission>('permissions.insert', { fileId: id, supportsAllDrives: true, sendNotificationEmails: false }, { body });
      }),
    ),
    reg('unshare', async (e: TreeEntry, permissionId: string) =>
      guarded(ctx, 'Removing access', async () => {
        const id = fileOf(e)?.id ?? (e?.type === 'drive' ? e.drive.id : undefined);
        if (!id) return;
        await (await ctx.client()).call('permissions.delete', { fileId: id, permissionId, supportsAllDrives: true });
        return true;
      }),
    ),
    reg('permissionIdForEmail', async (email?: string) =>
      guarded(ctx, 'Looking up the permission id', async () => {
        const value = email ?? (await vscode.window.showInputBox({ prompt: 'E-mail address' }));
        if (!value) return;
        const r = await (await ctx.client()).call<{ id: string }>('permissions.getIdForEmail', { email: value });
        if (!email) void vscode.window.showInformationMessage(`Permission id of ${value}: ${r.id}`);
        return r.id;
      }),
    ),

    reg('revisions', async (e: TreeEntry) => guarded(ctx, 'Loading revisions', () => manageRevisions(ctx, fileOf(e)))),
    reg('compareRevision', async (e: TreeEntry, revisionId: string) => {
      const f = fileOf(e);
      if (!f?.id) return;
      const name = displayName(f.title);
      const left = vscode.Uri.from({ scheme: REVISION_SCHEME, path: `/${f.id}/${revisionId}/${name}` });
      const right = vscode.Uri.from({ scheme: STORE_SCHEME, path: filePath(f.id, f.title) });
      await vscode.commands.executeCommand('vscode.diff', left, right, `${name} (revision ${revisionId.slice(0, 8)}) ↔ current`);
    }),

    reg('createDrive', async (_e: TreeEntry, name?: string) =>
      guarded(ctx, 'Creating the shared drive', async () => {
        const value = name ?? (await vscode.window.showInputBox({ prompt: 'Name of the new shared drive' }));
        if (!value) return;
        const d = await (await ctx.client()).call<Drive>('drives.insert', { requestId: `aw-${Date.now()}-${Math.random().toString(36).slice(2)}` }, { body: { name: value } });
        ctx.tree.refresh(undefined);
        return d;
      }),
    ),
    reg('hideDrive', async (e: TreeEntry) => driveAction(ctx, e, 'drives.hide')),
    reg('unhideDrive', async (e: TreeEntry) => driveAction(ctx, e, 'drives.unhide')),
    reg('deleteDrive', async (e: TreeEntry, confirmed?: boolean) =>
      guarded(ctx, 'Deleting the shared drive', async () => {
        if (e?.type !== 'drive' || !e.drive.id) return;
        if (!confirmed) {
          const ok = await vscode.window.showWarningMessage(`Delete the shared drive "${e.drive.name}"?`, { modal: true, detail: 'Only empty shared drives can be deleted.' }, 'Delete Drive');
          if (ok !== 'Delete Drive') return;
        }
        await (await ctx.client()).call('drives.delete', { driveId: e.drive.id });
        ctx.tree.refresh(undefined);
        return true;
      }),
    ),

    reg('apps', async () =>
      guarded(ctx, 'Loading apps', async () => {
        const client = await ctx.client();
        const apps = await client.call<AppList>('apps.list', {});
        const pick = await vscode.window.showQuickPick((apps.items ?? []).map((a) => ({ label: a.name ?? a.id ?? '', description: a.shortDescription, app: a })), { placeHolder: 'Installed apps' });
        if (pick) await ctx.showJson(`${pick.app.name} — app`, await client.call<App>('apps.get', { appId: pick.app.id! }));
        return apps.items;
      }),
    ),

    reg('about', async () =>
      guarded(ctx, 'Loading account details', async () => {
        const about = await (await ctx.client()).about();
        void vscode.window.showInformationMessage(aboutLine(about));
        return about;
      }),
    ),
  ];
}

export function aboutLine(about: About): string {
  const used = Number(about.quotaBytesUsed ?? 0);
  const total = Number(about.quotaBytesTotal ?? 0);
  return `${about.user?.displayName ?? about.name ?? 'Unknown user'}${about.user?.emailAddress ? ` <${about.user.emailAddress}>` : ''} · ${formatSize(used)} of ${total ? formatSize(total) : 'unlimited'} used`;
}

async function setStar(ctx: CommandContext, files: File[], starred: boolean) {
  return guarded(ctx, starred ? 'Starring' : 'Unstarring', async () => {
    const client = await ctx.client();
    for (const f of files) await client.call('files.patch', { fileId: f.id!, supportsAllDrives: true }, { body: { labels: { starred } } });
    ctx.tree.refresh(undefined);
    return files.length;
  });
}

async function driveAction(ctx: CommandContext, e: TreeEntry, op: 'drives.hide' | 'drives.unhide') {
  return guarded(ctx, op === 'drives.hide' ? 'Hiding the drive' : 'Showing the drive', async () => {
    if (e?.type !== 'drive' || !e.drive.id) return;
    const d = await (await ctx.client()).call<Drive>(op, { driveId: e.drive.id });
    ctx.tree.refresh(undefined);
    return d;
  });
}

async function uploadInto(ctx: CommandContext, e: TreeEntry, paths: string[] | undefined, folders: boolean) {
  return guarded(ctx, 'Uploading', async () => {
    const parent = folderIdOf(e) ?? 'root';
    const chosen = paths ?? (await vscode.window.showOpenDialog({ canSelectMany: true, canSelectFiles: !folders, canSelectFolders: folders, openLabel: 'Upload' }))?.map((u) => u.fsPath);
    if (!chosen?.length) return;
    const client = await ctx.client();
    const made: File[] = [];
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Uploading', cancellable: true }, async (progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      for (const p of chosen) made.push(...(await uploadPath(client, p, parent, abort.signal, (m, inc) => progress.report({ message: m, increment: inc }))));
    });
    ctx.tree.refresh(e);
    return made;
  });
}

/** Uploads a file or a folder tree (folders are created, files streamed from disk). */
export async function uploadPath(client: StorageClient, local: string, parentId: string, signal: AbortSignal, report: (message: string, increment?: number) => void): Promise<File[]> {
  const fs = await import('node:fs');
  const st = fs.statSync(local);
  const title = path.basename(local);
  if (st.isDirectory()) {
    const folder = await client.call<File>('files.insert', { supportsAllDrives: true }, { body: { title, mimeType: FOLDER_MIME, parents: [{ id: parentId }] } });
    const out = [folder];
    for (const child of fs.readdirSync(local).sort()) out.push(...(await uploadPath(client, path.join(local, child), folder.id!, signal, report)));
    return out;
  }
  // Reserved ids make retried creates safe: a repeated request cannot make a second copy.
  const ids = await client.call<{ ids: string[] }>('files.generateIds', { maxResults: 1 });
  const f = await upload(client, fileSource(local), {
    metadata: { id: ids.ids[0], title, parents: [{ id: parentId }] },
    contentType: guessType(title),
    signal,
    query: { supportsAllDrives: true },
    onProgress: (n, total) => {
      const pct = total ? Math.floor((n / total) * 100) : 100;
      report(`${title} ${pct}%`);
    },
  });
  return [f];
}

/** Downloads a file (exporting workspace documents) or a folder tree into `dir` with safe, unique names. */
async function downloadTree(client: StorageClient, f: File, dir: string, signal: AbortSignal, report: (m: string) => void): Promise<string[]> {
  const fs = await import('node:fs');
  if (f.mimeType === FOLDER_MIME) {
    const target = uniqueLocalPath(dir, safeLocalName(f.title ?? 'folder'));
    fs.mkdirSync(target);
    const kids = await client.listFolder(f.id!, { fields: 'nextPageToken,items(id,title,mimeType,fileSize)' }, signal);
    const out: string[] = [];
    for (const k of kids) out.push(...(await downloadTree(client, k, target, signal, report)));
    return out;
  }
  if (isWorkspaceDocument(f)) {
    const fmt = DOWNLOAD_EXPORT[f.mimeType!];
    if (!fmt) return [];
    const target = uniqueLocalPath(dir, safeLocalName(f.title ?? 'document', fmt.ext));
    report(path.basename(target));
    await exportToFile(client, f.id!, fmt.mime, target, { signal });
    return [target];
  }
  const target = uniqueLocalPath(dir, safeLocalName(f.title ?? 'file'));
  report(`${path.basename(target)}${f.fileSize ? ` (${formatSize(Number(f.fileSize))})` : ''}`);
  await downloadToFile(client, f.id!, target, { signal });
  return [target];
}

async function manageProperties(ctx: CommandContext, f: File | undefined) {
  if (!f?.id) return;
  const client = await ctx.client();
  const list = await client.call<PropertyList>('properties.list', { fileId: f.id });
  const add = { label: '$(add) Add property…', property: undefined as Property | undefined };
  const pick = await vscode.window.showQuickPick([add, ...(list.items ?? []).map((p) => ({ label: `${p.key} = ${p.value}`, description: p.visibility, property: p as Property | undefined }))], { placeHolder: `Properties of "${displayName(f.title)}"` });
  if (!pick) return;
  if (!pick.property) {
    const key = await vscode.window.showInputBox({ prompt: 'Key' });
    if (!key) return;
    const value = await vscode.window.showInputBox({ prompt: `Value of ${key}` });
    if (value === undefined) return;
    const vis = await vscode.window.showQuickPick(['PRIVATE', 'PUBLIC'], { placeHolder: 'Visibility: PRIVATE (this app only) or PUBLIC (every app)' });
    if (!vis) return;
    return client.call('properties.insert', { fileId: f.id }, { body: { key, value, visibility: vis } });
  }
  const p = pick.property;
  const action = await vscode.window.showQuickPick(['Edit value', `Make ${p.visibility === 'PUBLIC' ? 'private' : 'public'}`, 'Delete'], { placeHolder: `${p.key} (${p.visibility})` });
  const params = { fileId: f.id, propertyKey: p.key, visibility: (p.visibility ?? 'PRIVATE').toLowerCase() };
  if (action === 'Edit value') {
    const value = await vscode.window.showInputBox({ prompt: `Value of ${p.key}`, value: p.value });
    if (value !== undefined) return client.call('properties.patch', params, { body: { value } });
  } else if (action === 'Delete') {
    const ok = await vscode.window.showWarningMessage(`Delete the property "${p.key}"?`, { modal: true }, 'Delete');
    if (ok === 'Delete') return client.call('properties.delete', params);
  } else if (action) {
    return client.call('properties.patch', params, { body: { visibility: p.visibility === 'PUBLIC' ? 'PRIVATE' : 'PUBLIC' } });
  }
  return undefined;
}

async function managePermissions(ctx: CommandContext, e: TreeEntry) {
  const id = fileOf(e)?.id ?? (e?.type === 'drive' ? e.drive.id : undefined);
  if (!id) return;
  const client = await ctx.client();
  const list = await client.call<PermissionList>('permissions.list', { fileId: id, supportsAllDrives: true });
  const add = { label: '$(person-add) Add people or a link…', permission: undefined as Permission | undefined };
  const pick = await vscode.window.showQuickPick(
    [add, ...(list.items ?? []).map((p) => ({ label: p.name ?? p.emailAddress ?? p.domain ?? p.type ?? '', description: `${p.role}${p.additionalRoles?.length ? ` + ${p.additionalRoles.join(', ')}` : ''}`, detail: p.emailAddress, permission: p as Permission | undefined }))],
    { placeHolder: 'Who has access' },
  );
  if (!pick) return;
  const roles: string[] = e?.type === 'drive' || fileOf(e)?.driveId ? ['organizer', 'fileOrganizer', 'writer', 'reader'] : ['writer', 'reader'];
  if (!pick.permission) {
    const type = (await vscode.window.showQuickPick(['user', 'group', 'domain', 'anyone'], { placeHolder: 'Share with' })) as Permission['type'] | undefined;
    if (!type) return;
    const value = type === 'anyone' ? '' : await vscode.window.showInputBox({ prompt: type === 'domain' ? 'Domain' : 'E-mail address' });
    if (value === undefined) return;
    const role = (await vscode.window.showQuickPick([...roles, 'commenter'], { placeHolder: 'Role' })) as string | undefined;
    if (!role) return;
    const body: Permission = { type, role: role === 'commenter' ? 'reader' : (role as Permission['role']), ...(role === 'commenter' ? { additionalRoles: ['commenter'] } : {}), ...(type === 'anyone' ? { withLink: true } : { value }) };
    return client.call('permissions.insert', { fileId: id, supportsAllDrives: true, sendNotificationEmails: false }, { body });
  }
  const p = pick.permission;
  const action = await vscode.window.showQuickPick(['Change role', 'Remove access'], { placeHolder: pick.label });
  if (action === 'Change role') {
    const role = (await vscode.window.showQuickPick(roles, { placeHolder: 'New role' })) as Permission['role'] | undefined;
    if (role) return client.call('permissions.patch', { fileId: id, permissionId: p.id!, supportsAllDrives: true }, { body: { role } });
  } else if (action === 'Remove access') {
    const ok = await vscode.window.showWarningMessage(`Remove the access of ${pick.label}?`, { modal: true }, 'Remove');
    if (ok === 'Remove') return client.call('permissions.delete', { fileId: id, permissionId: p.id!, supportsAllDrives: true });
  }
  return undefined;
}

async function manageRevisions(ctx: CommandContext, f: File | undefined) {
  if (!f?.id) return;
  const client = await ctx.client();
  const list = await client.call<RevisionList>('revisions.list', { fileId: f.id });
  const items = (list.items ?? []).slice().reverse();
  const pick = await vscode.window.showQuickPick(
    items.map((r, i) => ({ label: `${formatDate(r.modifiedDate ?? '')}${i === 0 ? ' (current)' : ''}`, description: [r.fileSize ? formatSize(Number(r.fileSize)) : '', r.lastModifyingUserName ?? '', r.pinned ? 'kept forever' : ''].filter(Boolean).join(' · '), revision: r })),
    { placeHolder: `Revisions of "${displayName(f.title)}"` },
  );
  if (!pick) return;
  const r: Revision = pick.revision;
  const doc = isWorkspaceDocument(f);
  const actions = ['Open', 'Compare with current', ...(doc ? [] : [r.pinned ? 'Stop keeping forever' : 'Keep forever', 'Delete'])];
  const action = await vscode.window.showQuickPick(actions, { placeHolder: pick.label });
  const name = displayName(f.title);
  if (action === 'Open') {
    await vscode.window.showTextDocument(vscode.Uri.from({ scheme: REVISION_SCHEME, path: `/${f.id}/${r.id}/${name}` }), { preview: true });
  } else if (action === 'Compare with current') {
    await vscode.commands.executeCommand('apiWorkbench.storage.compareRevision', { type: 'file', key: f.id, parentKey: '', file: f, folder: false }, r.id);
  } else if (action === 'Keep forever' || action === 'Stop keeping forever') {
    return client.call('revisions.patch', { fileId: f.id, revisionId: r.id! }, { body: { pinned: action === 'Keep forever' } });
  } else if (action === 'Delete') {
    const ok = await vscode.window.showWarningMessage(`Delete the revision of ${pick.label} permanently?`, { modal: true }, 'Delete');
    if (ok === 'Delete') return client.call('revisions.delete', { fileId: f.id, revisionId: r.id! });
  }
  return undefined;
}
