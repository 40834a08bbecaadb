// Where a position of a query cell lies: on the entity set, on an option's name, or in an option's value, in
// any layout the cell may have (layout.ts reads the lines: one-line URL form, option lines, continuation lines,
// comments, blank lines). Completion and hover both start here; the diagnostics read the same layout.
import type { WaterEntitySet } from '../../shared/wire/waterData';
import { BARE_NAMES, optionSpacing, readLayout, type CellLayout, type LaidOption, type LineRole } from './layout';
import { looksPercentEncoded } from './mappedText';
import { entitySetOf } from './query';

export type QueryPlace =
  /** A comment, or nothing of the query. */
  | { kind: 'none' }
  /** The request line before its `?`: the path's word around the position is [start, end). */
  | { kind: 'entitySet'; start: number; end: number }
  /**
   * An option's name, or where a new option starts: the name written is [start, end) (empty on a new line).
   * `hasValue`: an `=` follows already. `spacing`: what the line's form puts between a new name and its value.
   */
  | { kind: 'optionName'; start: number; end: number; hasValue: boolean; spacing: ' = ' | '=' }
  /**
   * An option's value. `option` is the name as the service knows it (`$filter`); the value starts at
   * `valueStart`; `before` is the cell's text from there to the position, comment lines blanked out (so an
   * index into it plus `valueStart` is an offset of the cell).
   */
  | {
      kind: 'value';
      option: string;
      nameStart: number;
      nameEnd: number;
      valueStart: number;
      before: string;
      encoded: boolean;
    };

export interface QueryContext {
  place: QueryPlace;
  /** The role of the position's line. */
  line: LineRole;
  entitySet?: WaterEntitySet;
}

/** Options whose value may wrap onto indented lines. */
const WRAPPING = ['$filter', '$select'];

/** The option's name as the service knows it: `$` and lower case; `%24` decoded; a bare known name given `$`. */
export function canonicalName(written: string): string {
  const name = written.trim().replace(/^%24/i, '$');
  if (name.startsWith('$')) return `$${name.slice(1).toLowerCase()}`;
  return BARE_NAMES.includes(name.toLowerCase()) ? `$${name.toLowerCase()}` : name;
}

export function queryContextAt(text: string, offset: number): QueryContext {
  const layout = readLayout(text);
  const entitySet = entitySetOf(layout);
  const index = lineIndexAt(layout, offset);
  const line = layout.lines[index];
  const at = (place: QueryPlace): QueryContext => ({ place, line: line.role, entitySet });
  const request = layout.request;
  switch (line.role) {
    case 'comment':
      return at({ kind: 'none' });
    case 'request':
      if (request!.query < 0 || offset <= request!.pathStart + request!.query) return at(entitySetWord(text, offset));
      return at(inPieces(layout, text, index, offset));
    case 'option':
      return at(inPieces(layout, text, index, offset));
    case 'continuation':
      return at(inValue(layout, text, layout.options[line.option!], offset));
    case 'stray':
      return at(nameAt(layout, text, offset, false));
    case 'blank': {
      if (!request || request.line > index) return at(entitySetWord(text, offset));
      // A new line: indented under an option that wraps, it continues that option; otherwise a new option starts.
      const above = lastOf(layout.lines.slice(0, index), (l) => l.option !== undefined);
      const option = above ? layout.options[above.option!] : undefined;
      const indented = offset > line.start;
      if (option && indented && WRAPPING.includes(canonicalName(nameOf(option)))) {
        const place = inValue(layout, text, option, offset);
        if (place.kind === 'value') return at(place);
      }
      return at({ kind: 'optionName', start: offset, end: offset, hasValue: false, spacing: optionSpacing(layout) });
    }
  }
}

function lastOf<T>(list: readonly T[], test: (item: T) => boolean): T | undefined {
  for (let i = list.length - 1; i >= 0; i--) if (test(list[i])) return list[i];
  return undefined;
}

function lineIndexAt(layout: CellLayout, offset: number): number {
  const { lines } = layout;
  let lo = 0;
  let hi = lines.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lines[mid].start <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function entitySetWord(text: string, offset: number): QueryPlace {
  const start = offset - /[A-Za-z/]*$/.exec(text.slice(Math.max(0, offset - 200), offset))![0].length;
  const end = offset + /^[A-Za-z]*/.exec(text.slice(offset, offset + 200))![0].length;
  return { kind: 'entitySet', start, end };
}

function nameOf(option: LaidOption): string {
  const eq = option.piece.text.indexOf('=');
  return eq < 0 ? option.piece.text : option.piece.text.slice(0, eq);
}

/** The name at the position: the run of name characters around it. */
function nameAt(layout: CellLayout, text: string, offset: number, hasValue: boolean): QueryPlace {
  const start = offset - /[$%0-9A-Za-z_]*$/.exec(text.slice(Math.max(0, offset - 100), offset))![0].length;
  const end = offset + /^[$%0-9A-Za-z_]*/.exec(text.slice(offset, offset + 100))![0].length;
  return { kind: 'optionName', start, end, hasValue, spacing: optionSpacing(layout) };
}

/** The position on a line of options (`name=value`, several joined by `&`). */
function inPieces(layout: CellLayout, text: string, index: number, offset: number): QueryPlace {
  const pieces = layout.options.filter((o) => o.line === index);
  const option = lastOf(pieces, (o) => o.piece.offsets[0] <= offset);
  if (!option) return { kind: 'optionName', start: offset, end: offset, hasValue: false, spacing: '=' };
  const eq = option.piece.text.indexOf('=');
  if (eq < 0 || offset <= option.piece.offsets[eq]) {
    const place = nameAt(layout, text, offset, eq >= 0);
    // The request line and options joined by `&` keep the URL form.
    return option.joined && place.kind === 'optionName' ? { ...place, spacing: '=' } : place;
  }
  return inValue(layout, text, option, offset);
}

function inValue(layout: CellLayout, text: string, option: LaidOption, offset: number): QueryPlace {
  const eq = option.piece.text.indexOf('=');
  if (eq < 0) return { kind: 'none' };
  const nameStart = option.piece.offsets[0];
  const valueStart = option.piece.offsets[eq] + 1;
  const before = masked(layout, text, valueStart, offset);
  return {
    kind: 'value',
    option: canonicalName(nameOf(option)),
    nameStart,
    nameEnd: nameStart + nameOf(option).trimEnd().length,
    valueStart,
    before,
    encoded: option.encoded || looksPercentEncoded(before),
  };
}

/** text[from, to) with comment lines and carriage returns turned into spaces: the same length, offsets kept. */
function masked(layout: CellLayout, text: string, from: number, to: number): string {
  if (to <= from) return '';
  let out = '';
  for (const [i, line] of layout.lines.entries()) {
    const end = i + 1 < layout.lines.length ? layout.lines[i + 1].start : text.length;
    const a = Math.max(from, line.start);
    const b = Math.min(to, end);
    if (a >= b) continue;
    const part = text.slice(a, b);
    out += line.role === 'comment' ? part.replace(/[^\n]/g, ' ') : part.replace(/\r/g, ' ');
  }
  return out;
}
