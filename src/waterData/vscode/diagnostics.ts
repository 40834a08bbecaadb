import * as vscode from 'vscode';
import { queryFixes } from '../core/queryFixes';
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
    diag.source = SOURCE;
    return diag;
  });
}

const SOURCE = 'water-query';

/** The fixes the cell's diagnostics under the cursor describe (computed by the core, applied as edits). */
const fixes: vscode.CodeActionProvider = {
  provideCodeActions(doc, _range, ctx) {
    const ours = ctx.diagnostics.filter((d) => d.source === SOURCE);
    if (!ours.length) return undefined;
    const text = doc.getText();
    const out: vscode.CodeAction[] = [];
    for (const found of analyzeQuery(text).diagnostics) {
      const range = new vscode.Range(doc.positionAt(found.start), doc.positionAt(Math.max(found.end, found.start)));
      const vd = ours.find((d) => d.message === found.message && d.range.isEqual(range));
      if (!vd) continue;
      for (const fix of queryFixes(text, found)) {
        const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
        action.edit = new vscode.WorkspaceEdit();
        action.edit.replace(doc.uri, new vscode.Range(doc.positionAt(fix.start), doc.positionAt(fix.end)), fix.newText);
        action.diagnostics = [vd];
        action.isPreferred = true;
        out.push(action);
      }
    }
    return out;
  },
};

/** Squiggles in query cells, refreshed as the user types, with the quick fixes they describe. */
export function registerQueryDiagnostics(): vscode.Disposable[] {
  const collection = vscode.languages.createDiagnosticCollection('water-query');
  const refresh = (doc: vscode.TextDocument) => {
    if (doc.languageId !== QUERY_LANGUAGE) return;
    collection.set(doc.uri, toDiagnostics(doc, analyzeQuery(doc.getText()).diagnostics));
  };
  vscode.workspace.textDocuments.forEach(refresh);
  return [
    collection,
    vscode.languages.registerCodeActionsProvider({ language: QUERY_LANGUAGE }, fixes, {
      providedCodeActionKinds: [vscode.CodeActionKind.QuickFix],
    }),
    vscode.workspace.onDidOpenTextDocument(refresh),
    vscode.workspace.onDidChangeTextDocument((e) => refresh(e.document)),
    vscode.workspace.onDidCloseTextDocument((doc) => collection.delete(doc.uri)),
  ];
}
