// `api-workbench lint`: the editor's discovery rules over files, for CI and pre-commit hooks.
import { readFile } from 'node:fs/promises';
import {
  detectDiscoveryDocument,
  LineIndex,
  RULES,
  PARSE_CODES,
  type Diagnostic,
  type RuleSettings,
  type SeveritySetting,
} from '../discovery/core';
import { analyzeParsed } from '../discovery/core/analyze';
import { parseArgs, stringFlag, UsageError } from './args';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, type CliCommand } from './io';

export interface LintRecord {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: Diagnostic['severity'];
  code: string;
  message: string;
}

/** Some document was not checked (over the size or depth limit): a failure of its own, never a pass. */
export const EXIT_NOT_CHECKED = 3;
/** Codes that mean the analysis refused the document, so none of its rules ran. */
const NOT_CHECKED_CODES = new Set(['document-too-large', 'document-too-deep']);

const USAGE =
  'usage: api-workbench lint [--format text|json] [--rules settings.json] <file>...\n' +
  'exit: 0 no errors, 1 an error (or an unreadable file), 2 usage, 3 a document was not checked (over 24 MB or 256 levels deep)\n';
const SEVERITIES = new Set<SeveritySetting>(['error', 'warning', 'info', 'hint', 'off']);

/** Lints one text; `undefined` diagnostics means it is not a description document. */
export function lintText(file: string, text: string, rules: RuleSettings = {}): LintRecord[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const parsed = detectDiscoveryDocument(body);
  const diagnostics: Diagnostic[] = parsed
    ? analyzeParsed(parsed, { rules }).diagnostics
    : [
        {
          code: 'not-a-discovery-document',
          severity: 'error',
          offset: 0,
          length: 0,
          message: 'Not a discovery document: no top-level "kind": "discovery#restDescription".',
        },
      ];
  const lines = new LineIndex(body);
  return diagnostics.map((d) => {
    const start = lines.positionAt(d.offset);
    const end = lines.positionAt(d.offset + d.length);
    return {
      file,
      line: start.line,
      column: start.column,
      endLine: end.line,
      endColumn: end.column,
      severity: d.severity,
      code: d.code,
      message: d.message,
    };
  });
}

async function readRules(path: string): Promise<RuleSettings> {
  const raw = JSON.parse(await readFile(path, 'utf8')) as unknown;
  // Accept either the bare map or a VS Code settings file holding it.
  const map =
    typeof raw === 'object' && raw !== null && 'apiWorkbench.discovery.rules' in raw
      ? (raw as Record<string, unknown>)['apiWorkbench.discovery.rules']
      : raw;
  if (typeof map !== 'object' || map === null || Array.isArray(map))
    throw new UsageError(`${path}: expected an object mapping rule codes to severities`);
  const known = new Set([...RULES.map((r) => r.code), ...Object.keys(PARSE_CODES)]);
  const out: Record<string, SeveritySetting> = {};
  for (const [code, sev] of Object.entries(map)) {
    if (!known.has(code)) throw new UsageError(`${path}: unknown rule code "${code}"`);
    if (typeof sev !== 'string' || !SEVERITIES.has(sev as SeveritySetting))
      throw new UsageError(`${path}: severity of "${code}" must be error, warning, info, hint or off`);
    out[code] = sev as SeveritySetting;
  }
  return out;
}

export const lintCommand: CliCommand = async (args, io) => {
  let format: string;
  let files: string[];
  let rules: RuleSettings = {};
  try {
    const parsed = parseArgs(args, { values: ['format', 'rules'], booleans: ['help'] });
    if (parsed.flags.has('help')) {
      io.stdout.write(USAGE);
      return EXIT_OK;
    }
    format = stringFlag(parsed, 'format') ?? 'text';
    if (format !== 'text' && format !== 'json') throw new UsageError(`--format must be text or json, not "${format}"`);
    files = parsed.positionals;
    if (files.length === 0) throw new UsageError('no files given');
    const rulesFile = stringFlag(parsed, 'rules');
    if (rulesFile) {
      try {
        rules = await readRules(rulesFile);
      } catch (err) {
        if (err instanceof UsageError) throw err;
        throw new UsageError(`cannot read --rules ${rulesFile}: ${(err as Error).message}`);
      }
    }
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.stderr.write(`api-workbench lint: ${err.message}\n${USAGE}`);
    return EXIT_USAGE;
  }

  const records: LintRecord[] = [];
  let unreadable = 0;
  let notChecked = 0;
  for (const file of files) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      unreadable++;
      io.stderr.write(
        `api-workbench lint: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}\n`,
      );
      continue;
    }
    const found = lintText(file, text, rules);
    for (const r of found) records.push(r);
    const refusal = found.find((r) => NOT_CHECKED_CODES.has(r.code));
    if (refusal) {
      notChecked++;
      io.stderr.write(`api-workbench lint: ${file} was not checked: ${refusal.message}\n`);
    }
  }

  if (format === 'json') {
    io.stdout.write(JSON.stringify(records, null, 2) + '\n');
  } else {
    for (const r of records) io.stdout.write(`${r.file}:${r.line}:${r.column} ${r.severity} ${r.code} ${r.message}\n`);
    const count = (s: string) => records.filter((r) => r.severity === s).length;
    io.stderr.write(
      `${files.length - unreadable - notChecked} file(s) checked: ${count('error')} error(s), ${count('warning')} warning(s), ${count('info')} info, ${count('hint')} hint(s)\n`,
    );
  }
  if (notChecked > 0) {
    io.stderr.write(`api-workbench lint: ${notChecked} file(s) not checked: exit ${EXIT_NOT_CHECKED}\n`);
    return EXIT_NOT_CHECKED;
  }
  return unreadable > 0 || records.some((r) => r.severity === 'error') ? EXIT_FAILURE : EXIT_OK;
};
