import * as vscode from 'vscode';
import { WATER_RESULT_MIME } from '../protocol';
import { parseNotebookFile, serializeNotebookFile, type NotebookFileCell } from '../core/notebookFile';
import { QUERY_LANGUAGE } from './constants';

const decoder = new TextDecoder();
const encoder = new TextEncoder();

function isJsonMime(mime: string): boolean {
  return (
    mime === WATER_RESULT_MIME ||
    mime.endsWith('+json') ||
    mime === 'application/json' ||
    mime === 'application/vnd.code.notebook.error'
  );
}

export class WaterNotebookSerializer implements vscode.NotebookSerializer {
  deserializeNotebook(content: Uint8Array): vscode.NotebookData {
    const file = parseNotebookFile(decoder.decode(content));
    const cells = file.cells.map((c) => {
      const cell =
        c.kind === 'markdown'
          ? new vscode.NotebookCellData(vscode.NotebookCellKind.Markup, c.source, 'markdown')
          : new vscode.NotebookCellData(vscode.NotebookCellKind.Code, c.source, QUERY_LANGUAGE);
      if (c.outputs) {
        cell.outputs = c.outputs.map(
          (o) =>
            new vscode.NotebookCellOutput(
              o.items.map((i) =>
                isJsonMime(i.mime)
                  ? vscode.NotebookCellOutputItem.json(i.value, i.mime)
                  : vscode.NotebookCellOutputItem.text(outputText(i.value), i.mime),
              ),
            ),
        );
      }
      return cell;
    });
    const data = new vscode.NotebookData(cells);
    data.metadata = file.environment ? { environment: file.environment } : {};
    return data;
  }

  serializeNotebook(data: vscode.NotebookData): Uint8Array {
    const maxKb = vscode.workspace.getConfiguration('apiWorkbench.waterData').get<number>('maxSavedOutputKB', 512);
    const cells: NotebookFileCell[] = data.cells.map((c) => ({
      kind: c.kind === vscode.NotebookCellKind.Markup ? 'markdown' : 'query',
      source: c.value,
      outputs: c.outputs?.map((o) => ({
        items: o.items.map((i) => {
          const text = decoder.decode(i.data);
          let value: unknown = text;
          if (isJsonMime(i.mime)) {
            try {
              value = JSON.parse(text);
            } catch {
              value = text;
            }
          }
          return { mime: i.mime, value };
        }),
      })),
    }));
    const env = typeof data.metadata?.environment === 'string' ? data.metadata.environment : undefined;
    return encoder.encode(
      serializeNotebookFile({ environment: env, cells }, Math.max(0, maxKb) * 1024, WATER_RESULT_MIME),
    );
  }
}

/** A saved text output is a string; anything else a hand-edited file put there is kept as its JSON text. */
function outputText(value: unknown): string {
  if (typeof value === 'string') return value;
  return value === undefined || value === null ? '' : JSON.stringify(value);
}
