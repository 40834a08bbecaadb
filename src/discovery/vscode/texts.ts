// The text of a description document's version, joined once: getText() joins every line anew (20–40 ms for
// 4 MB), and opening one asked for it three times (the language switch, the analysis, the index). Only
// documents the language detector took are kept, until they close.
import * as vscode from 'vscode';

export class DocumentTexts implements vscode.Disposable {
  private readonly cache = new Map<string, { version: number; text: string }>();
  private readonly subscription = vscode.workspace.onDidCloseTextDocument((d) => {
    // A language change closes and reopens the same, still open, document with the same text.
    if (d.isClosed) this.cache.delete(d.uri.toString());
  });

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
    this.subscription.dispose();
    this.cache.clear();
  }
}
