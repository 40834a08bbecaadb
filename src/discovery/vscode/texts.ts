// The text of a description document's version, joined once: getText() joins every line anew (20–40 ms for
// 4 MB), and opening one asked for it three times (the language switch, the analysis, the index); every
// keystroke asked for it again to send it to the worker. A keystroke's text is now the previous one with
// the change applied (a rope, flattened once when read). Only documents the language detector took are
// kept, until they close.
import * as vscode from 'vscode';
import { applyChange } from '../core';

export class DocumentTexts implements vscode.Disposable {
  private readonly cache = new Map<string, { version: number; text: string }>();
  private readonly subscriptions = [
    vscode.workspace.onDidCloseTextDocument((d) => {
      // A language change closes and reopens the same, still open, document with the same text.
      if (d.isClosed) this.cache.delete(d.uri.toString());
    }),
    vscode.workspace.onDidChangeTextDocument((e) => this.carry(e)),
  ];

  /** One change to the version kept gives the next version's text; anything else is read anew when asked. */
  private carry(e: vscode.TextDocumentChangeEvent): void {
    const key = e.document.uri.toString();
    const kept = this.cache.get(key);
    if (!kept || kept.version === e.document.version) return;
    const c = e.contentChanges.length === 1 ? e.contentChanges[0] : undefined;
    if (c && kept.version === e.document.version - 1) {
      const text = applyChange(kept.text, { offset: c.rangeOffset, length: c.rangeLength, text: c.text });
      this.cache.set(key, { version: e.document.version, text });
    } else kept.version = -1;
  }

  /** Keeps `text`, which `doc.getText()` just gave, for the document's current version. */
  remember(doc: vscode.TextDocument, text: string): void {
    this.cache.set(doc.uri.toString(), { version: doc.version, text });
  }

  get(doc: vscode.TextDocument): string {
    const key = doc.uri.toString();
    const kept = this.cache.get(key);
    if (kept?.version === doc.version) return kept.text;
    const text = doc.getText();
    // A kept document keeps its newest version's text: one text per document at most.
    if (kept) this.cache.set(key, { version: doc.version, text });
    return text;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.cache.clear();
  }
}
