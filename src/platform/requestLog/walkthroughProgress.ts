// The walkthrough's "send a prompt" and "run a query" steps complete when the request itself is seen: a
// generation call answered, a water-data query answered. Sending is a webview message and running a cell
// goes through several commands, so the request stream is the one place both are certain.
import * as vscode from 'vscode';
import type { RequestEvent } from '../../shared/http/observe';

export const PROMPT_SENT = 'apiWorkbench.walkthrough.promptSent';
export const QUERY_RUN = 'apiWorkbench.walkthrough.queryRun';
/**
 * The directory and request-log steps complete on what the user did, not on a command id: a tree item's
 * command with arguments reaches the workbench under VS Code's internal delegation id, so an `onCommand:`
 * event for it never fires.
 */
export const DOCUMENT_OPENED = 'apiWorkbench.walkthrough.documentOpened';
export const REQUEST_DETAILS_OPENED = 'apiWorkbench.walkthrough.requestDetailsOpened';

/** Sets a walkthrough context key (once per window is enough: VS Code keeps a completed step ticked). */
export function markWalkthroughStep(key: string): void {
  void vscode.commands.executeCommand('setContext', key, true);
}

export function walkthroughProgress(): (e: RequestEvent) => void {
  const done = new Set<string>();
  const mark = (key: string) => {
    if (done.has(key)) return;
    done.add(key);
    void vscode.commands.executeCommand('setContext', key, true);
  };
  return (e) => {
    if (e.phase === 'failed' || e.status === undefined || e.status >= 400) return;
    if (e.feature === 'generation' && e.method === 'POST' && /:(stream)?generateContent\b/i.test(e.url))
      mark(PROMPT_SENT);
    if (e.feature === 'waterData') mark(QUERY_RUN);
  };
}
