import * as vscode from 'vscode';
import type { WaterResult } from '../protocol';
import { toCsv } from '../core/csv';

/** Saves the rows already in a result, with the attributions alongside (JSON) or as a comment file (CSV). */
export async function exportResult(result: WaterResult, format: 'csv' | 'json'): Promise<vscode.Uri | undefined> {
  const target = await vscode.window.showSaveDialog({
    saveLabel: vscode.l10n.t('Export {0}', format.toUpperCase()),
    filters: format === 'csv' ? { CSV: ['csv'] } : { JSON: ['json'] },
    defaultUri: vscode.workspace.workspaceFolders?.[0]
      ? vscode.Uri.joinPath(vscode.workspace.workspaceFolders[0].uri, `${result.entitySet.toLowerCase()}.${format}`)
      : undefined,
  });
  if (!target) return undefined;
  const text =
    format === 'csv'
      ? toCsv(result.columns, result.rows)
      : JSON.stringify(
          {
            entitySet: result.entitySet,
            columns: result.columns,
            rows: result.rows,
            attributions: result.attributions,
          },
          null,
          2,
        );
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
  if (format === 'csv' && result.attributions.length) {
    const cite = result.attributions
      .map(
        (a) =>
          `${a.citation ?? a.doi}\nhttps://doi.org/${a.doi}\nLicence: ${a.licence ?? 'see DOI'}${a.disclaimer ? `\n${a.disclaimer}` : ''}`,
      )
      .join('\n\n');
    await vscode.workspace.fs.writeFile(
      target.with({ path: target.path.replace(/\.csv$/i, '') + '.CITATION.txt' }),
      new TextEncoder().encode(cite + '\n'),
    );
  }
  void vscode.window.showInformationMessage(
    vscode.l10n.t('Exported {0} rows to {1}.', result.rows.length, vscode.workspace.asRelativePath(target)),
  );
  return target;
}
