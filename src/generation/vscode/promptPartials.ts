// Partials of a .prompt file are `_name.prompt` beside it: an open editor's text as it is (unsaved edits
// included), else the file on disk; null when there is none. Diagnostics, the preview and Run read them alike.
import * as vscode from 'vscode';

export async function readPartial(doc: vscode.TextDocument, name: string): Promise<string | null> {
  const uri = vscode.Uri.joinPath(doc.uri, '..', `_${name}.prompt`);
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open.getText();
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return null;
  }
}
