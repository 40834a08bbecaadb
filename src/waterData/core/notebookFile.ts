// The .wqnb file: JSON with a fixed key order, sources as line arrays and outputs capped in size, so
// files diff cleanly and stay small in version control.

export interface NotebookFileOutput {
  /** MIME type → value: JSON for JSON types, text otherwise. */
  items: { mime: string; value: unknown }[];
}

export interface NotebookFileCell {
  kind: 'markdown' | 'query';
  source: string;
  outputs?: NotebookFileOutput[];
}

export interface NotebookFile {
  /** 'sandbox' | 'production' | 'qa'. */
  environment?: string;
  cells: NotebookFileCell[];
}

export const NOTEBOOK_FORMAT_VERSION = 1;
export const DEFAULT_SAVED_OUTPUT_BYTES = 512 * 1024;

export function parseNotebookFile(text: string): NotebookFile {
  if (!text.trim()) return { cells: [] };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new Error(`Not a water-quality notebook (invalid JSON: ${(e as Error).message})`, { cause: e });
  }
  const obj = raw as { environment?: unknown; cells?: unknown };
  if (!obj || typeof obj !== 'object' || !Array.isArray(obj.cells))
    throw new Error('Not a water-quality notebook: no "cells" list');
  const cells: NotebookFileCell[] = [];
  for (const c of obj.cells as unknown[]) {
    const cell = c as { kind?: unknown; source?: unknown; outputs?: unknown };
    const source = Array.isArray(cell.source)
      ? cell.source.map(String).join('\n')
      : typeof cell.source === 'string'
        ? cell.source
        : '';
    const kind = cell.kind === 'markdown' ? 'markdown' : 'query';
    const out: NotebookFileCell = { kind, source };
    if (Array.isArray(cell.outputs)) {
      out.outputs = (cell.outputs as unknown[])
        .map((o) => (o as { items?: unknown }).items)
        .filter(Array.isArray)
        .map((items) => ({
          items: (items as { mime?: unknown; value?: unknown }[])
            .filter((i) => typeof i.mime === 'string')
            .map((i) => ({ mime: i.mime as string, value: i.value })),
        }));
    }
    cells.push(out);
  }
  return { environment: typeof obj.environment === 'string' ? obj.environment : undefined, cells };
}

/**
 * Serialises with outputs only while they fit the budget: a result too big to save keeps its first rows and
 * says how many were dropped; `rows` of WaterResult values are trimmed, never other fields.
 */
export function serializeNotebookFile(
  nb: NotebookFile,
  maxOutputBytes = DEFAULT_SAVED_OUTPUT_BYTES,
  resultMime?: string,
): string {
  let budget = maxOutputBytes;
  const cells = nb.cells.map((c) => {
    const cell: Record<string, unknown> = { kind: c.kind, source: c.source.split(/\r?\n/) };
    if (c.kind === 'query' && c.outputs?.length) {
      const outputs = c.outputs.map((o) => ({
        items: o.items.map((i) => {
          const fitted = fitValue(i.mime, i.value, budget, resultMime);
          budget -= savedSize(fitted);
          return { mime: i.mime, value: fitted };
        }),
      }));
      cell.outputs = outputs;
    }
    return cell;
  });
  const doc: Record<string, unknown> = { format: 'api-workbench.water-notebook', version: NOTEBOOK_FORMAT_VERSION };
  if (nb.environment) doc.environment = nb.environment;
  doc.cells = cells;
  return JSON.stringify(doc, null, 2) + '\n';
}

/** Bytes a value takes once pretty-printed at the depth where outputs sit in the file. */
function savedSize(value: unknown): number {
  const text = JSON.stringify(value ?? null, null, 2);
  let lines = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lines++;
  return text.length + lines * 12;
}

function fitValue(mime: string, value: unknown, budget: number, resultMime?: string): unknown {
  if (savedSize(value) <= budget) return value;
  if (mime === resultMime && value && typeof value === 'object' && Array.isArray((value as { rows?: unknown }).rows)) {
    const v = value as { rows: unknown[]; warnings?: string[] };
    const rows: unknown[] = [];
    let used = savedSize({ ...v, rows: [] }) + 300;
    for (const r of v.rows) {
      const s = savedSize(r) + 14;
      if (used + s > budget) break;
      rows.push(r);
      used += s;
    }
    return {
      ...v,
      rows,
      warnings: [
        ...(v.warnings ?? []),
        `${v.rows.length - rows.length} of ${v.rows.length} rows were not saved with the notebook (size cap); run the cell again to see them.`,
      ],
    };
  }
  if (typeof value === 'string') return value.slice(0, Math.max(0, budget)) + '\n… (truncated when saved)';
  return null;
}
