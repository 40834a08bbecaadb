// What the discovery host suites share: waiting for our findings and the language switch, asking for
// quick fixes and reading hovers as the editor's commands return them.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

/** Resolves with the document's diagnostics from our source once `accept` holds for them. */
export function waitForDiagnostics(
  uri: vscode.Uri,
  accept: (d: vscode.Diagnostic[]) => boolean,
  timeoutMs = 15000,
): Promise<vscode.Diagnostic[]> {
  const ours = () => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'discovery');
  return new Promise((resolve, reject) => {
    const now = ours();
    if (accept(now)) return resolve(now);
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error(`timed out; last: ${JSON.stringify(ours().map((d) => d.message))}`));
    }, timeoutMs);
    const sub = vscode.languages.onDidChangeDiagnostics((e) => {
      if (!e.uris.some((u) => u.toString() === uri.toString())) return;
      const d = ours();
      if (accept(d)) {
        clearTimeout(timer);
        sub.dispose();
        resolve(d);
      }
    });
  });
}

/** Waits until the document's language is `language` (we switch description documents by content). */
export async function languageOf(doc: vscode.TextDocument, language: string, waitMs = 5000): Promise<string> {
  for (let i = 0; i < waitMs / 50 && doc.languageId !== language; i++) await new Promise((r) => setTimeout(r, 50));
  return doc.languageId;
}

export const codeValue = (d: vscode.Diagnostic) => (typeof d.code === 'object' ? d.code.value : d.code);

/**
 * The quick fixes at `range` once one titled `title` is among them, asked again until then. The workbench
 * answers a code-action request it cancelled midway (its getCodeActions cancels when the code-action providers
 * change while it runs, or the text does) with an empty list, the same as "no fix". Seen in one run in three
 * right after the previous test opened docs/rules.md: no actions while our diagnostic was there, and the fix on
 * the very next request. A product that offers no such fix still fails, after `timeoutMs`.
 */
export async function quickFixes(
  uri: vscode.Uri,
  range: vscode.Range,
  title: string,
  timeoutMs = 10_000,
): Promise<vscode.CodeAction[]> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      uri,
      range,
      vscode.CodeActionKind.QuickFix.value,
    );
    if (actions.some((a) => a.title === title) || Date.now() > end) return actions;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Position just inside the first occurrence of a marker (at or after `from`), plus a shift. */
export function pos(doc: vscode.TextDocument, marker: string, shift = 1, from = 0): vscode.Position {
  const i = doc.getText().indexOf(marker, from);
  assert.ok(i >= 0, `marker ${marker}`);
  return doc.positionAt(i + shift);
}

export function hoverText(hovers: vscode.Hover[]): string {
  return hovers
    .flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : (c as vscode.MarkdownString).value)))
    .join('\n');
}
