import * as vscode from 'vscode';
import { analyzeQuery } from '../core/validate';
import type { QueryDiagnostic } from '../core/query';
import { QUERY_LANGUAGE } from './constants';

const SEVERITY: Record<QueryDiagnostic['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

export function toDiagnostics(doc: vscode.TextDocument, found: readonly QueryDiagnostic[]): vscode.Diagnostic[] {
  return found.map((d) => {
    const range = new vscode.Range(doc.positionAt(d.start), doc.positionAt(Math.max(d.end, d.start)));
    const diag = new vscode.Diagnostic(range, d.message, SEVERITY[d.severity]);
    diag.source = 'water-query';
    return diag;
  });
}

/** Squiggles in query cells, refreshed as the user types. */
export function registerQueryDiagnostics(): vscode.Disposable[] {
  const collection = vscode.languages.createDiagnosticCollection('water-query');
  const refresh = (doc: vscode.TextDocument) => {
    if (doc.languageId !== QUERY_LANGUAGE) return;
    collection.set(doc.uri, toDiagnostics(doc, analyzeQuery(doc.getText()).diagnostics));
  };
  vscode.workspace.textDocuments.forEach(refresh);
  return [
    collection,
    vscode.workspace.onDidOpenTextDocument(refresh),
    vscode.workspace.onDidChangeTextDocument((e) => refresh(e.document)),
    vscode.workspace.onDidCloseTextDocument((doc) => collection.delete(doc.uri)),
  ];
}
