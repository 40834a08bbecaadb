// Loads a feature when a document that is its business is open: a JSON document holding the discovery
// marker, a water query, or a .prompt file. The check is a substring test, so a plain JSON file costs one scan of its text.
import * as vscode from 'vscode';
import { mayBeDiscoveryDocument } from '../../discovery/core/marker';
import type { Feature } from './chunks';

interface Detector {
  feature: Feature;
  /** Whether the whole document is this feature's. */
  opened(doc: vscode.TextDocument): boolean;
  /** Whether an edit made it so (only the edited lines are read, so typing stays cheap in a large file). */
  changed(e: vscode.TextDocumentChangeEvent): boolean;
}

const isJson = (doc: vscode.TextDocument) => doc.languageId === 'json' || doc.languageId === 'jsonc';

/** The text of the lines an edit left, whole (a marker split across the edit's boundary is found too). */
export const editedLines = (e: vscode.TextDocumentChangeEvent) =>
  e.contentChanges.map((c) => {
    const first = c.range.start.line;
    const last = Math.min(first + c.text.split('\n').length - 1, e.document.lineCount - 1);
    return e.document.getText(new vscode.Range(first, 0, last, e.document.lineAt(last).text.length));
  });

export const DETECTORS: readonly Detector[] = [
  {
    feature: 'discovery',
    // A document already in our language (an association, or the user chose it) is the feature's outright.
    opened: (doc) => doc.languageId === 'discovery-json' || (isJson(doc) && mayBeDiscoveryDocument(doc.getText())),
    changed: (e) => isJson(e.document) && editedLines(e).some(mayBeDiscoveryDocument),
  },
  {
    feature: 'waterData',
    opened: (doc) => doc.languageId === 'water-query',
    changed: () => false,
  },
  {
    // A .prompt file (Dotprompt): the generation feature checks it.
    feature: 'generation',
    opened: (doc) => doc.languageId === 'dotprompt',
    changed: () => false,
  },
];

/** Watches documents until every detector's feature is loaded; `load` is called once per feature. */
export function watchDocuments(load: (feature: Feature) => void, isLoaded: (f: Feature) => boolean): vscode.Disposable {
  const pending = () => DETECTORS.filter((d) => !isLoaded(d.feature));
  const check = (doc: vscode.TextDocument) => {
    for (const d of pending()) if (d.opened(doc)) load(d.feature);
  };
  const subscriptions = [
    vscode.workspace.onDidOpenTextDocument(check),
    vscode.workspace.onDidChangeTextDocument((e) => {
      for (const d of pending()) if (d.changed(e)) load(d.feature);
    }),
  ];
  for (const doc of vscode.workspace.textDocuments) check(doc);
  return vscode.Disposable.from(...subscriptions);
}
