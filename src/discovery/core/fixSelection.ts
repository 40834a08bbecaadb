// After a quick fix is applied, the editor shows what it inserted: the empty value to fill in
// (e.g. a new schema's "description": "") or else the inserted text itself.
import type { TextEdit } from './edits';

/** The span to select once `edits` are applied, in the edited text's offsets; undefined for a pure deletion. */
export function fixSelection(edits: readonly TextEdit[]): { offset: number; length: number } | undefined {
  const sorted = [...edits].sort((a, b) => a.offset - b.offset);
  let shift = 0;
  for (const e of sorted) {
    if (e.newText.length > 0) {
      const start = e.offset + shift;
      const empty = e.newText.indexOf('""');
      if (empty >= 0) return { offset: start + empty + 1, length: 0 };
      const lead = /^[\s,]*/.exec(e.newText)?.[0].length ?? 0;
      const trail = /[\s,]*$/.exec(e.newText.slice(lead))?.[0].length ?? 0;
      return { offset: start + lead, length: e.newText.length - lead - trail };
    }
    shift += e.newText.length - e.length;
  }
  return undefined;
}
