// Language features for description documents. Every provider asks the shared cache for the
// current version's analysis and answers nothing for JSON that is not a description document.
import * as vscode from 'vscode';
import {
  completionsAt,
  definitionAt,
  fixSelection,
  hoverAt,
  quickFixes,
  referencesAt,
  renameSchemaAt,
  schemaNameAt,
  type CompletionKind,
  type DocumentSymbol as CoreSymbol,
  type SymbolKind,
  type TextEdit,
} from '../core';
import { codeOf, DIAGNOSTIC_SOURCE } from './diagnostics';
import type { DiscoveryDocuments } from './documents';
import { DISCOVERY_SELECTOR as SELECTOR, registerLanguage } from './language';
import { registerCommand } from '../../platform/lazy/commandTable';

function range(doc: vscode.TextDocument, span: { offset: number; length: number }): vscode.Range {
  return new vscode.Range(doc.positionAt(span.offset), doc.positionAt(span.offset + span.length));
}

function workspaceEdit(doc: vscode.TextDocument, edits: readonly TextEdit[]): vscode.WorkspaceEdit {
  const we = new vscode.WorkspaceEdit();
  for (const e of edits) we.replace(doc.uri, range(doc, e), e.newText);
  return we;
}

const COMPLETION_KIND: Record<CompletionKind, vscode.CompletionItemKind> = {
  property: vscode.CompletionItemKind.Property,
  value: vscode.CompletionItemKind.EnumMember,
  reference: vscode.CompletionItemKind.Class,
  scope: vscode.CompletionItemKind.Constant,
  parameter: vscode.CompletionItemKind.Variable,
};

const SYMBOL_KIND: Record<SymbolKind, vscode.SymbolKind> = {
  section: vscode.SymbolKind.Namespace,
  resource: vscode.SymbolKind.Module,
  method: vscode.SymbolKind.Method,
  schema: vscode.SymbolKind.Class,
  property: vscode.SymbolKind.Field,
  parameter: vscode.SymbolKind.Variable,
  scope: vscode.SymbolKind.Key,
};

/** Run by a quick fix after its edit: reveals and selects what it inserted (the empty value to fill in). */
const REVEAL_FIX_COMMAND = 'apiWorkbench.discovery.revealFix';

async function revealFix(uri: vscode.Uri, offset: number, length: number): Promise<void> {
  const editor = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
  if (!editor) return;
  const doc = editor.document;
  const range = new vscode.Range(doc.positionAt(offset), doc.positionAt(offset + length));
  editor.selection = new vscode.Selection(range.start, range.end);
  editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  await vscode.window.showTextDocument(doc, { viewColumn: editor.viewColumn, preserveFocus: false });
}

export function registerProviders(documents: DiscoveryDocuments): vscode.Disposable[] {
  const hover: vscode.HoverProvider = {
    provideHover(doc, pos) {
      const a = documents.index(doc);
      const h = a && hoverAt(a, doc.offsetAt(pos));
      if (!h) return undefined;
      const md = new vscode.MarkdownString(h.markdown);
      md.supportHtml = false;
      md.isTrusted = false;
      return new vscode.Hover(md, range(doc, h.span));
    },
  };

  const completion: vscode.CompletionItemProvider = {
    provideCompletionItems(doc, pos) {
      const a = documents.forTyping(doc);
      if (!a) return undefined;
      const { replace, items } = completionsAt(a, doc.offsetAt(pos));
      const r = range(doc, replace);
      // The replaced text includes the quotes, so the filter has to as well.
      const quoted = doc.getText(r).startsWith('"');
      return items.map((p, i) => {
        const item = new vscode.CompletionItem(p.label, COMPLETION_KIND[p.kind]);
        item.insertText = p.snippet ? new vscode.SnippetString(p.insertText) : p.insertText;
        item.range = r;
        item.filterText = quoted ? JSON.stringify(p.label) : p.label;
        item.detail = p.detail;
        if (p.documentation) item.documentation = new vscode.MarkdownString(p.documentation);
        item.sortText = String(i).padStart(5, '0');
        return item;
      });
    },
  };

  const definition: vscode.DefinitionProvider = {
    provideDefinition(doc, pos) {
      const a = documents.index(doc);
      const d = a && definitionAt(a, doc.offsetAt(pos));
      return d ? new vscode.Location(doc.uri, range(doc, d)) : undefined;
    },
  };

  const references: vscode.ReferenceProvider = {
    provideReferences(doc, pos, ctx) {
      const a = documents.index(doc);
      if (!a) return undefined;
      return referencesAt(a, doc.offsetAt(pos), ctx.includeDeclaration).map(
        (s) => new vscode.Location(doc.uri, range(doc, s)),
      );
    },
  };

  const rename: vscode.RenameProvider = {
    prepareRename(doc, pos) {
      const a = documents.index(doc);
      const hit = a && schemaNameAt(a, doc.offsetAt(pos));
      if (!hit)
        throw new Error('Only schema names can be renamed: place the cursor on a schema key, its id or a $ref.');
      return { range: range(doc, hit.span), placeholder: hit.name };
    },
    provideRenameEdits(doc, pos, newName) {
      const a = documents.index(doc);
      if (!a) return undefined;
      const r = renameSchemaAt(a, doc.offsetAt(pos), newName);
      if ('error' in r) throw new Error(r.error);
      return workspaceEdit(doc, r.edits);
    },
  };

  const toSymbol = (doc: vscode.TextDocument, s: CoreSymbol): vscode.DocumentSymbol => {
    const out = new vscode.DocumentSymbol(
      s.name.replace(/^"|"$/g, '') || '""',
      s.detail,
      SYMBOL_KIND[s.kind],
      range(doc, s.range),
      range(doc, s.selection),
    );
    out.children = s.children.map((c) => toSymbol(doc, c));
    return out;
  };
  const symbols: vscode.DocumentSymbolProvider = {
    provideDocumentSymbols(doc) {
      return documents.symbols(doc)?.map((s) => toSymbol(doc, s));
    },
  };

  const actions: vscode.CodeActionProvider = {
    provideCodeActions(doc, _range, ctx) {
      // Asked on every cursor move: only analyse when one of our diagnostics is under the cursor.
      if (!ctx.diagnostics.some((d) => d.source === DIAGNOSTIC_SOURCE)) return undefined;
      const a = documents.get(doc);
      if (!a) return undefined;
      const out: vscode.CodeAction[] = [];
      for (const vd of ctx.diagnostics) {
        if (vd.source !== DIAGNOSTIC_SOURCE) continue;
        const offset = doc.offsetAt(vd.range.start);
        const code = codeOf(vd);
        const core = a.diagnostics.find((d) => d.code === code && d.offset === offset);
        if (!core) continue;
        for (const fix of quickFixes(a, core)) {
          const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
          action.edit = workspaceEdit(doc, fix.edits);
          action.diagnostics = [vd];
          action.isPreferred = fix.preferred;
          const shown = fixSelection(fix.edits);
          if (shown)
            action.command = {
              command: REVEAL_FIX_COMMAND,
              title: 'Show the inserted text',
              arguments: [doc.uri, shown.offset, shown.length],
            };
          out.push(action);
        }
      }
      return out;
    },
  };

  return [
    ...registerLanguage(documents),
    registerCommand(REVEAL_FIX_COMMAND, revealFix),
    vscode.languages.registerHoverProvider(SELECTOR, hover),
    vscode.languages.registerCompletionItemProvider(SELECTOR, completion, '"', ':'),
    vscode.languages.registerDefinitionProvider(SELECTOR, definition),
    vscode.languages.registerReferenceProvider(SELECTOR, references),
    vscode.languages.registerRenameProvider(SELECTOR, rename),
    vscode.languages.registerDocumentSymbolProvider(SELECTOR, symbols, { label: 'Discovery document' }),
    vscode.languages.registerCodeActionsProvider(SELECTOR, actions, {
      providedCodeActionKinds: [vscode.CodeActionKind.QuickFix],
    }),
  ];
}
