/** One thing wrong with a .prompt file, at a line of the file itself (1-based; column 0-based when known). */
export interface PromptProblem {
  line: number;
  column?: number;
  severity: 'error' | 'warning';
  /** Stable kebab-case identifier (yaml, handlebars, unknown-key, config-range, …). */
  code: string;
  message: string;
}

/** `file:line: message`, the form the CLI prints and editors link. */
export function formatProblem(file: string, p: PromptProblem): string {
  return `${file}:${p.line}${p.column !== undefined ? `:${p.column + 1}` : ''}: ${p.severity}: ${p.message}`;
}
