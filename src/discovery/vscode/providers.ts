// Language features for description documents. Every provider asks the shared cache for the
// current version's analysis and answers nothing for JSON that is not a description document.
import * as vscode from 'vscode';
import { fixSelection, renameSchemaAt, schemaNameAt, type CompletionKind, type TextEdit } from '../core';
import type { Answers } from './answers';
import type { AnswerTimes } from './answerTimes';
import { codeOf, DIAGNOSTIC_SOURCE, type DiscoveryDiagnostics } from './diagnostics';
import { textLength, WORKER_THRESHOLD, type DiscoveryDocuments } from './documents';
import { DISCOVERY_SELECTOR as SELECTOR, registerLanguage } from './language';
import { OutlineSymbols } from './outline';
import { spanRange } from './spans';
import { registerCommand } from '../../platform/lazy/commandTable';

function workspaceEdit(doc: vscode.TextDocument, edits: readonly TextEdit[]): vscode.WorkspaceEdit {
  const we = new vscode.WorkspaceEdit();
  for (const e of edits) we.replace(doc.uri, spanRange(doc, e), e.newText);
  return we;
}

const COMPLETION_KIND: Record<CompletionKind, vscode.CompletionItemKind> = {
  property: vscode.CompletionItemKind.Property,
  value: vscode.CompletionItemKind.EnumMember,
  reference: vscode.CompletionItemKind.Class,
  scope: vscode.CompletionItemKind.Constant,
  parameter: vscode.CompletionItemKind.Variable,
};

/** Run by a quick fix after its edit: reveals and selects what it inserted (the empty value to fill in). */
const REVEAL_FIX_COMMAND = 'apiWorkbench.discovery.revealFix';

async function revealFix(uri: vscode.Uri, offset: number, length: number): Promise<void> {
  const editor = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
  if (!editor) return;
  const doc = editor.document;
  const range = spanRange(doc, { offset, length });
  editor.selection = new vscode.Selection(range.start, range.end);
  editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  await vscode.window.showTextDocument(doc, { viewColumn: editor.viewColumn, preserveFocus: false });
}

export function registerProviders(
  documents: DiscoveryDocuments,
  findings: DiscoveryDiagnostics,
  answers: Answers,
  times?: AnswerTimes,
): vscode.Disposable[] {
  const timed = <A extends unknown[], R>(what: string, provide: (...args: A) => Promise<R>) =>
    times ? times.timed(what, provide) : provide;
  const hover: vscode.HoverProvider = {
    provideHover: timed('hover', async (doc: vscode.TextDocument, pos: vscode.Position) => {
      const h = await answers.ask(doc, { what: 'hover', offset: doc.offsetAt(pos) });
      if (!h) return undefined;
      const md = new vscode.MarkdownString(h.markdown);
      md.supportHtml = false;
      md.isTrusted = false;
      return new vscode.Hover(md, spanRange(doc, h.span));
    }),
  };

  // Documentation is given when an item is focused, not with the list: VS Code reads every MarkdownString it
  // is handed for links, and a $ref list of 1,100 schemas in a 5 MB document spent most of its time on that.
  const documentation = new WeakMap<vscode.CompletionItem, string>();
  const completion: vscode.CompletionItemProvider = {
    resolveCompletionItem(item) {
      const text = documentation.get(item);
      if (text !== undefined && item.documentation === undefined) item.documentation = new vscode.MarkdownString(text);
      return item;
    },
    provideCompletionItems: timed('completion', async (doc: vscode.TextDocument, pos: vscode.Position) => {
      const found = await answers.ask(doc, { what: 'completion', offset: doc.offsetAt(pos) }, (d) =>
        documents.forTyping(d),
      );
      if (!found || doc.isClosed) return undefined;
      const { replace, items } = found;
      const r = spanRange(doc, replace);
      // The replaced text includes the quotes, so the filter has to as well.
      const quoted = doc.getText(r).startsWith('"');
      return items.map((p, i) => {
        const item = new vscode.CompletionItem(p.label, COMPLETION_KIND[p.kind]);
        item.insertText = p.snippet ? new vscode.SnippetString(p.insertText) : p.insertText;
        item.range = r;
        item.filterText = quoted ? JSON.stringify(p.label) : p.label;
        item.detail = p.detail;
        if (p.documentation) documentation.set(item, p.documentation);
        item.sortText = String(i).padStart(5, '0');
        return item;
      });
    }),
  };

  const definition: vscode.DefinitionProvider = {
    async provideDefinition(doc, pos) {
      const d = await answers.ask(doc, { what: 'definition', offset: doc.offsetAt(pos) });
      return d ? new vscode.Location(doc.uri, spanRange(doc, d)) : undefined;
    },
  };

  const references: vscode.ReferenceProvider = {
    async provideReferences(doc, pos, ctx) {
      const query = {
        what: 'references',
        offset: doc.offsetAt(pos),
        includeDeclaration: ctx.includeDeclaration,
      } as const;
      const spans = await answers.ask(doc, query);
      return spans?.map((s) => new vscode.Location(doc.uri, spanRange(doc, s)));
    },
  };

  const rename: vscode.RenameProvider = {
    prepareRename(doc, pos) {
      const a = documents.index(doc);
      const hit = a && schemaNameAt(a, doc.offsetAt(pos));
      if (!hit)
        throw new Error('Only schema names can be renamed: place the cursor on a schema key, its id or a $ref.');
      return { range: spanRange(doc, hit.span), placeholder: hit.name };
    },
    provideRenameEdits(doc, pos, newName) {
      const a = documents.index(doc);
      if (!a) return undefined;
      const r = renameSchemaAt(a, doc.offsetAt(pos), newName);
      if ('error' in r) throw new Error(r.error);
      return workspaceEdit(doc, r.edits);
    },
  };

  const outlines = new OutlineSymbols();
  const symbols: vscode.DocumentSymbolProvider = {
    async provideDocumentSymbols(doc) {
      await answers.structure(doc);
      const outline = documents.symbols(doc);
      const symbols = outline && (await outlines.of(doc, outline));
      await answers.questionsAnswered();
      return symbols;
    },
  };

  const actions: vscode.CodeActionProvider = {
    async provideCodeActions(doc, _range, ctx) {
      // Asked on every cursor move: only when one of our findings is under the cursor, and from the published
      // findings (with their rule data). A full analysis of a big document here blocked this thread for a second.
      const ours = ctx.diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE);
      if (ours.length === 0) return undefined;
      const small = textLength(doc) <= WORKER_THRESHOLD;
      const items = findings.current(doc) ?? (small ? documents.get(doc)?.diagnostics : undefined);
      if (!items) return undefined;
      const pairs = ours.flatMap((vd) => {
        const offset = doc.offsetAt(vd.range.start);
        const code = codeOf(vd);
        const core = items.find((d) => d.code === code && d.offset === offset);
        return core ? [{ vd, core }] : [];
      });
      if (pairs.length === 0) return undefined;
      // A big document's fixes come from the worker or an index already built: none is built here for them.
      const fixes = await answers.ask(doc, { what: 'fixes', findings: pairs.map((p) => p.core) }, (d) =>
        small ? documents.index(d) : undefined,
      );
      if (!fixes || doc.isClosed) return undefined;
      return pairs.flatMap(({ vd }, i) =>
        fixes[i].map((fix) => {
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
          return action;
        }),
      );
    },
  };

  return [
    ...registerLanguage(documents, answers),
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
