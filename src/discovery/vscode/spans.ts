// The editor's range of a core span (an offset and a length into the document's text).
import * as vscode from 'vscode';

export function spanRange(doc: vscode.TextDocument, span: { offset: number; length: number }): vscode.Range {
  return new vscode.Range(doc.positionAt(span.offset), doc.positionAt(span.offset + span.length));
}
