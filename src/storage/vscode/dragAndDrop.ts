// Drag and drop in the storage tree: items dragged within the tree move (core/move), files and
// folders dropped from the OS or the Explorer are uploaded into the folder under the pointer.
import * as vscode from 'vscode';
import type { StorageClient } from '../core/client';
import { moveInto } from '../core/move';
import type { TreeEntry } from '../core/tree';
import { folderIdOf, uploadPaths } from './commands';
import type { StorageTreeProvider } from './treeProvider';

const TREE_MIME = 'application/vnd.code.tree.apiworkbench.storage';

/** Local paths among the `file:` URIs of a text/uri-list (comments and other schemes dropped). */
function localPaths(uriList: string | undefined): string[] {
  return (uriList ?? '')
    .split(/\r?\n/)
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => vscode.Uri.parse(l))
    .filter((u) => u.scheme === 'file')
    .map((u) => u.fsPath);
}

export function storageDragAndDrop(
  provider: StorageTreeProvider,
  client: () => Promise<StorageClient>,
): vscode.TreeDragAndDropController<TreeEntry> {
  return {
    dragMimeTypes: [TREE_MIME],
    dropMimeTypes: [TREE_MIME, 'text/uri-list'],
    handleDrag(source, data) {
      data.set(TREE_MIME, new vscode.DataTransferItem(source.filter((s) => s.type === 'file')));
    },
    async handleDrop(target, data, token) {
      const targetFolder =
        folderIdOf(target) ?? (target?.type === 'file' ? folderIdOf(provider.getParent(target)) : undefined);
      if (!targetFolder) return;
      const storage = await client();
      const internal = data.get(TREE_MIME)?.value as TreeEntry[] | undefined;
      if (internal?.length) {
        const items = internal.flatMap((e) =>
          e.type === 'file' ? [{ file: e.file, from: folderIdOf(provider.getParent(e)) }] : [],
        );
        for (const o of await moveInto(storage, items, targetFolder)) {
          if (o.status === 'failed')
            void vscode.window.showErrorMessage(
              vscode.l10n.t('Moving "{0}" failed: {1}', o.file.title ?? '', o.error.message),
            );
        }
        provider.refresh(undefined);
        return;
      }
      const paths = localPaths(await data.get('text/uri-list')?.asString());
      if (!paths.length) return;
      await uploadPaths(storage, paths, targetFolder, token);
      provider.refresh(target);
    },
  };
}
