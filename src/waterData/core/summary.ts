// The text/plain twin of a result: what a reader without our renderer (or a diff) sees.
import type { DatasetAttribution, WaterResult } from '../protocol';
import { scalarText } from './csv';
import { ownValue } from '../../shared/wire/ownKeys';

const MAX_ROWS = 20;
const MAX_WIDTH = 28;

function cell(v: unknown): string {
  const s = v === null || v === undefined ? '' : Array.isArray(v) ? v.join('; ') : scalarText(v);
  const flat = s.replace(/\s+/g, ' ');
  return flat.length > MAX_WIDTH ? flat.slice(0, MAX_WIDTH - 1) + '…' : flat;
}

export function licenceName(licence: string | undefined): string | undefined {
  if (!licence) return undefined;
  const l = licence.toLowerCase();
  if (l === 'odc-by' || l.includes('opendatacommons.org/licenses/by')) return 'Attribution Licence (ODC-By) v1.0';
  if (l === 'odc-pddl' || l.includes('opendatacommons.org/licenses/pddl'))
    return 'Public Domain Dedication and Licence (ODC-PDDL) v1.0';
  if (l === 'ogl' || l.includes('open-government-licence')) return 'Open Government Licence (OGL)';
  return licence;
}

/** The citation, with the DOI link the terms of use require appended unless the citation already has it. */
export function citationWithLink(a: DatasetAttribution): string {
  const link = `https://doi.org/${a.doi}`;
  const text = a.citation ?? a.datasetName ?? a.doi;
  return text.includes(link) ? text : `${text} ${link}`;
}

export function summarizeResult(r: WaterResult): string {
  const lines: string[] = [];
  if (r.count) {
    lines.push(
      `${r.entitySet}: ${r.count.estimate ? '≈ ' : ''}${r.count.value.toLocaleString('en')} rows${r.count.estimate ? ' (estimate)' : ''}`,
    );
  } else {
    lines.push(
      `${r.entitySet}: ${r.rows.length.toLocaleString('en')} row${r.rows.length === 1 ? '' : 's'} in ${r.pages} page${r.pages === 1 ? '' : 's'}${r.nextLink ? ' (more available)' : ''}`,
    );
    const cols = r.columns.slice(0, 6);
    if (cols.length && r.rows.length) {
      const table = [cols, ...r.rows.slice(0, MAX_ROWS).map((row) => cols.map((c) => cell(ownValue(row, c))))];
      const widths = cols.map((_, i) => Math.max(...table.map((t) => t[i].length)));
      for (const t of table)
        lines.push(
          t
            .map((v, i) => v.padEnd(widths[i]))
            .join('  ')
            .trimEnd(),
        );
      if (r.rows.length > MAX_ROWS) lines.push(`… ${r.rows.length - MAX_ROWS} more rows`);
      if (r.columns.length > cols.length) lines.push(`(${r.columns.length - cols.length} more columns)`);
    }
  }
  for (const w of r.warnings ?? []) lines.push(`Warning: ${w}`);
  if (r.attributions.length) {
    lines.push('', 'Data sources:');
    for (const a of r.attributions) {
      lines.push(`- ${citationWithLink(a)}${a.licence ? ` — licence: ${licenceName(a.licence)}` : ''}`);
      if (a.disclaimer) lines.push(`  ${a.disclaimer}`);
    }
  }
  return lines.join('\n');
}
