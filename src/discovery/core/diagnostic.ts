// Editor-free diagnostics: the adapter maps them to vscode.Diagnostic, the CLI prints them.

export type Severity = 'error' | 'warning' | 'info' | 'hint';
export type SeveritySetting = Severity | 'off';

export interface Diagnostic {
  /** Stable rule code, e.g. "ref-unresolved". */
  code: string;
  severity: Severity;
  message: string;
  /** Offset into the text (UTF-16 code units). */
  offset: number;
  length: number;
  /** Rule-specific facts a quick fix needs (e.g. the missing name). */
  data?: Record<string, unknown>;
}
