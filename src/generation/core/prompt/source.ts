// Where the parts of a .prompt file are: the YAML frontmatter between two `---` lines and the Handlebars
// template after them. dotprompt splits a file with one regular expression and trims the template; its YAML
// and Handlebars errors count lines from the frontmatter or from the trimmed template. This file finds the
// same split (the same expression, with match indices) so that every error can name a line of the file.
import { isScalar, LineCounter, parseDocument, visit, type Document } from 'yaml';
import type { PromptProblem } from './problems';

/** dotprompt's own split (src/parse.ts of the package), kept identical so both agree on where the template starts. */
const FRONTMATTER_AND_BODY = /^---\s*(?:\r\n|\r|\n)([\s\S]*?)(?:\r\n|\r|\n)---\s*(?:\r\n|\r|\n)([\s\S]*)$/d;

export interface PromptSource {
  /** The text handed to dotprompt (the file, with a final newline added after a closing `---` that lacks one). */
  text: string;
  /** The frontmatter parsed by `yaml` (the package dotprompt uses), or undefined when the file has none. */
  yaml?: Document.Parsed;
  /** Offset → line and column within the frontmatter. */
  yamlLines?: LineCounter;
  /** 1-based file line of the frontmatter's first line. */
  frontmatterLine: number;
  /** 1-based file line and 0-based column where the (trimmed) template starts. */
  templateLine: number;
  templateColumn: number;
  /** The template as dotprompt sees it. */
  template: string;
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 10 || (ch === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start };
}

/** Splits a .prompt file; problems (a frontmatter that is not closed, YAML errors) have file lines. */
export function splitPromptSource(file: string): { source?: PromptSource; problems: PromptProblem[] } {
  const opensFrontmatter = /^---[ \t]*(?:\r\n|\r|\n|$)/.test(file);
  if (!opensFrontmatter) {
    // No frontmatter: dotprompt takes the whole file, untrimmed, as the template.
    return {
      source: { text: file, frontmatterLine: 0, templateLine: 1, templateColumn: 0, template: file },
      problems: [],
    };
  }
  let text = file;
  let m = FRONTMATTER_AND_BODY.exec(text);
  if (!m && !/[\r\n]$/.test(text)) {
    // `---` as the very last line is a closed frontmatter with an empty template.
    text += '\n';
    m = FRONTMATTER_AND_BODY.exec(text);
  }
  if (!m || !m.indices) {
    return {
      problems: [
        {
          line: 1,
          severity: 'error',
          code: 'frontmatter-not-closed',
          message: 'The frontmatter opened on line 1 is not closed: add a line with only --- after it.',
        },
      ],
    };
  }
  const [fmStart, fmEnd] = m.indices[1];
  const [bodyStart] = m.indices[2];
  const frontmatter = text.slice(fmStart, fmEnd);
  const frontmatterLine = lineAndColumn(text, fmStart).line;
  if (!frontmatter.trim()) {
    return {
      problems: [
        {
          line: 1,
          severity: 'error',
          code: 'frontmatter-empty',
          message:
            'The frontmatter is empty, and dotprompt would then read the --- lines as template text: add keys or remove both --- lines.',
        },
      ],
    };
  }
  const yamlLines = new LineCounter();
  const yaml = parseDocument(frontmatter, { lineCounter: yamlLines, prettyErrors: false });
  const problems: PromptProblem[] = [];
  for (const e of yaml.errors) {
    const pos = yamlLines.linePos(e.pos[0]);
    problems.push({
      line: frontmatterLine + pos.line - 1,
      column: pos.col - 1,
      severity: 'error',
      code: 'yaml',
      message: `YAML: ${e.message.split('\n')[0]}`,
    });
  }
  if (!problems.length) {
    // A mapping key that is itself a mapping or a list ({a: 1}: x) has no JSON form: yaml would warn and
    // stringify it; it is this file's error instead.
    visit(yaml, {
      Pair(_, pair) {
        if (pair.key !== null && !isScalar(pair.key)) {
          const range = (pair.key as { range?: number[] }).range;
          const pos = yamlLines.linePos(range?.[0] ?? 0);
          problems.push({
            line: frontmatterLine + pos.line - 1,
            column: pos.col - 1,
            severity: 'error',
            code: 'yaml',
            message: 'YAML: a key must be text, not a mapping or a list.',
          });
        }
      },
    });
  }
  if (!problems.length) {
    const value: unknown = yaml.toJS();
    if (value !== null && (typeof value !== 'object' || Array.isArray(value)))
      problems.push({
        line: frontmatterLine,
        severity: 'error',
        code: 'yaml',
        message: 'The frontmatter must be a YAML mapping of keys (model:, config:, input:, output:…).',
      });
  }
  if (problems.length) return { problems };
  const body = text.slice(bodyStart);
  const leading = body.length - body.trimStart().length;
  const at = lineAndColumn(text, bodyStart + leading);
  return {
    source: {
      text,
      yaml,
      yamlLines,
      frontmatterLine,
      templateLine: at.line,
      templateColumn: at.column,
      template: body.trim(),
    },
    problems: [],
  };
}

/** The file line of a YAML node's start, given its offset range in the frontmatter. */
export function yamlLine(source: PromptSource, range: readonly number[] | null | undefined): number {
  if (!range || !source.yamlLines) return source.frontmatterLine || 1;
  return source.frontmatterLine + source.yamlLines.linePos(range[0]).line - 1;
}
