// API Workbench: Export as OpenAPI… — the editor side of src/discovery/core/openapi: ask for the version
// and where to save, write the document, and open it beside its source.
import * as vscode from 'vscode';
import { NotDiscoveryDocumentError, toOpenApi, type OpenApiVersion } from '../core/openapi';
import { parseJson } from '../core';
import { registerCommand } from '../../platform/lazy/commandTable';

function defaultTarget(source: vscode.Uri): vscode.Uri {
  const name = source.path.split('/').pop() ?? 'api.json';
  const base = name.replace(/\.json$/i, '');
  return source.scheme === 'file'
    ? vscode.Uri.joinPath(source, '..', `${base}.openapi.json`)
    : vscode.Uri.joinPath(vscode.workspace.workspaceFolders?.[0]?.uri ?? source, `${base}.openapi.json`);
}

async function pickVersion(): Promise<OpenApiVersion | undefined> {
  const picked = await vscode.window.showQuickPick(
    [
      {
        label: 'OpenAPI 3.1',
        description: vscode.l10n.t('JSON Schema 2020-12; current tools'),
        version: '3.1' as const,
      },
      {
        label: 'OpenAPI 3.0',
        description: vscode.l10n.t('for tools that do not read 3.1 yet'),
        version: '3.0' as const,
      },
    ],
    { title: vscode.l10n.t('Export as OpenAPI'), placeHolder: vscode.l10n.t('OpenAPI version') },
  );
  return picked?.version;
}

/**
 * Exports `doc`; `target` and `version` skip the questions (the host test passes them). Returns the
 * written file, or undefined when the user cancelled or the document could not be converted.
 */
export async function exportOpenApi(
  doc: vscode.TextDocument,
  target?: vscode.Uri,
  version?: OpenApiVersion,
): Promise<vscode.Uri | undefined> {
  const parsed = parseJson(doc.getText());
  let result;
  try {
    result = toOpenApi(parsed.value, version ?? '3.1');
  } catch (err) {
    if (!(err instanceof NotDiscoveryDocumentError)) throw err;
    void vscode.window.showErrorMessage(
      vscode.l10n.t(
        '{0} is not a discovery document: it has no top-level "kind": "discovery#restDescription".',
        doc.uri.path.split('/').pop() ?? '',
      ),
    );
    return undefined;
  }
  const chosenVersion = version ?? (await pickVersion());
  if (!chosenVersion) return undefined;
  if (chosenVersion !== '3.1') result = toOpenApi(parsed.value, chosenVersion);
  const where =
    target ??
    (await vscode.window.showSaveDialog({
      defaultUri: defaultTarget(doc.uri),
      filters: { 'OpenAPI (JSON)': ['json'] },
      title: vscode.l10n.t('Export as OpenAPI'),
    }));
  if (!where) return undefined;
  await vscode.workspace.fs.writeFile(where, new TextEncoder().encode(JSON.stringify(result.document, null, 2) + '\n'));
  await vscode.window.showTextDocument(where, { viewColumn: vscode.ViewColumn.Beside, preview: false });
  if (result.warnings.length)
    void vscode.window.showWarningMessage(
      vscode.l10n.t(
        'Exported, but {0} method(s) could not become operations: {1}',
        result.warnings.length,
        result.warnings.join(' '),
      ),
    );
  return where;
}

export function registerExportOpenApi(): vscode.Disposable[] {
  return [
    registerCommand(
      'apiWorkbench.discovery.exportOpenApi',
      async (uri?: unknown, target?: unknown, version?: unknown) => {
        const doc =
          uri instanceof vscode.Uri
            ? await vscode.workspace.openTextDocument(uri)
            : vscode.window.activeTextEditor?.document;
        if (!doc) {
          void vscode.window.showInformationMessage(vscode.l10n.t('Open a discovery document first.'));
          return undefined;
        }
        return exportOpenApi(
          doc,
          target instanceof vscode.Uri ? target : undefined,
          version === '3.0' || version === '3.1' ? version : undefined,
        );
      },
    ),
  ];
}
