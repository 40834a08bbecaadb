// Test seam (ExtensionMode.Test only): how long our hover and completion took in this extension host, from
// VS Code asking to the answer handed back. A round trip through the workbench (what the editor's commands
// time) also waits for the browser, which re-tokenises and re-measures a 5 MB document for seconds after it
// opens; this is the part that is ours, so the bench can report both.
import * as vscode from 'vscode';
import { registerCommand } from '../../platform/lazy/commandTable';

export interface AnswerTime {
  what: string;
  ms: number;
}

export class AnswerTimes {
  private times: AnswerTime[] = [];

  /** `provide`, timed from its call until the value it returns settles. */
  timed<A extends unknown[], R>(what: string, provide: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
    return async (...args) => {
      const start = performance.now();
      try {
        return await provide(...args);
      } finally {
        this.times.push({ what, ms: performance.now() - start });
      }
    };
  }

  /** The times recorded since the last call. */
  register(): vscode.Disposable {
    return registerCommand('apiWorkbench._testDiscoveryAnswerTimes', () => {
      const out = this.times;
      this.times = [];
      return out;
    });
  }
}
