// The one reading of a query cell's lines. The parser (and so the diagnostics) and the position lookup of
// completion and hover (cursor.ts) both take from here which line is the request line, which lines start
// options (and where each option's name, `=` and value lie) and which lines continue the option above.
//   request line   the first line that is neither blank nor a comment: [GET] [base URL] /EntitySet [?a=1&b=2]
//   option line    starts with `$`, `%24`, `&` or `?`, or a bare option name and `=` (`top = 5`); an unindented
//                  lone lower-case word that begins an option name (`se`) is an option being typed
//   continuation   any other line after an option: it continues that option's value (wrapped filters, lists)
//   stray          such a line before any option
// Blank lines and comment lines (`#`, `//`) belong to nothing.
import { looksPercentEncoded, mapped, sliceMapped, trimMapped, type MappedText } from './mappedText';

export type LineRole = 'blank' | 'comment' | 'request' | 'option' | 'continuation' | 'stray';

export interface CellLine {
  text: string;
  start: number;
  role: LineRole;
  /** Starts with white space. */
  indented: boolean;
  /** For option and continuation lines: the index in `options` of the (last) option the line holds or continues. */
  option?: number;
}

export interface LaidOption {
  /** `name=value` or a bare name as written, trimmed, without a leading `&` or `?`. */
  piece: MappedText;
  /** Index of the line the option starts on. */
  line: number;
  /** Written `name=value&name=value` (the request line, or several options joined on one line). */
  joined: boolean;
  /** The option's text is percent-encoded. */
  encoded: boolean;
  /** The indexes of its continuation lines, in order. */
  more: number[];
}

export interface RequestLine {
  line: number;
  /** Source offset where the path starts (after `GET ` and a base URL). */
  pathStart: number;
  /** The line from the path on. */
  rest: string;
  /** Index of `?` in `rest`, or -1. */
  query: number;
}

export interface CellLayout {
  lines: CellLine[];
  request?: RequestLine;
  options: LaidOption[];
}

/** Bare option names the multi-line form accepts without `$` (the removed and forbidden ones too, to name them). */
export const BARE_NAMES = ['select', 'filter', 'top', 'skiptoken', 'count', 'orderby', 'skip', 'apikey', 'api_key'];
const TYPED_NAMES = ['select', 'filter', 'top', 'skiptoken', 'count'];

const OPTION_START = /^(\$|%24)?([A-Za-z_][A-Za-z0-9_]*)\s*=/i;
// `&` starts a new option when a name follows it (then `=`, another `&` or the end): in a quoted value it is data.
const SPLIT_BEFORE_OPTION = /&(?=\s*(?:(?:\$|%24)[A-Za-z0-9_]*|[A-Za-z_][A-Za-z0-9_]*)\s*(?:=|&|$))/gi;

function isComment(line: string): boolean {
  return /^\s*(#|\/\/)/.test(line);
}

function splitLines(text: string): CellLine[] {
  const out: CellLine[] = [];
  let start = 0;
  for (const part of text.split('\n')) {
    const line = part.endsWith('\r') ? part.slice(0, -1) : part;
    const role: LineRole = !/\S/.test(line) ? 'blank' : isComment(line) ? 'comment' : 'stray';
    out.push({ text: line, start, role, indented: line.length > 0 && /\s/.test(line[0]) });
    start += part.length + 1;
  }
  return out;
}

/** Whether a line after the request line starts an option (see the table at the top). */
function startsOption(line: string): boolean {
  if (/^\s*(&|\?|\$|%24)/.test(line)) return true;
  const body = line.trim();
  const m = OPTION_START.exec(body);
  if (m && BARE_NAMES.includes(m[2].toLowerCase())) return true;
  return !/^\s/.test(line) && /^[a-z]+$/.test(body) && TYPED_NAMES.some((n) => n.startsWith(body));
}

/** `text` cut before every `&` that starts an option; each piece trimmed. */
function splitOptions(m: MappedText): MappedText[] {
  const out: MappedText[] = [];
  let from = 0;
  SPLIT_BEFORE_OPTION.lastIndex = 0;
  for (const match of m.text.matchAll(SPLIT_BEFORE_OPTION)) {
    out.push(trimMapped(sliceMapped(m, from, match.index)));
    from = match.index + 1;
  }
  out.push(trimMapped(sliceMapped(m, from)));
  return out;
}

function readRequest(line: CellLine, index: number): RequestLine {
  const lead = /^\s*(GET\s+)?/i.exec(line.text)![0].length;
  let pathStart = line.start + lead;
  let rest = line.text.slice(lead);
  const url = /^https?:\/\/[^/?#\s]+/i.exec(rest);
  if (url) {
    const base = rest.indexOf('/odata/v4/');
    const cut = base >= 0 ? base + '/odata/v4'.length : url[0].length;
    pathStart += cut;
    rest = rest.slice(cut);
  }
  return { line: index, pathStart, rest, query: rest.indexOf('?') };
}

export function readLayout(text: string): CellLayout {
  const lines = splitLines(text);
  const options: LaidOption[] = [];
  const layout: CellLayout = { lines, options };
  for (const [i, line] of lines.entries()) {
    if (line.role === 'blank' || line.role === 'comment') continue;
    if (!layout.request) {
      line.role = 'request';
      const request = (layout.request = readRequest(line, i));
      if (request.query >= 0) {
        const queryText = request.rest.slice(request.query + 1);
        const encoded = looksPercentEncoded(queryText);
        for (const piece of splitOptions(mapped(queryText, request.pathStart + request.query + 1)))
          options.push({ piece, line: i, joined: true, encoded, more: [] });
        line.option = options.length - 1;
      }
      continue;
    }
    if (startsOption(line.text)) {
      let body = lineText(line);
      if (/^[&?]/.test(body.text)) body = trimMapped(sliceMapped(body, 1));
      const pieces = splitOptions(body);
      for (const piece of pieces)
        options.push({ piece, line: i, joined: pieces.length > 1, encoded: looksPercentEncoded(piece.text), more: [] });
      line.role = 'option';
      line.option = options.length - 1;
    } else if (options.length > 0) {
      line.role = 'continuation';
      line.option = options.length - 1;
      options[options.length - 1].more.push(i);
    }
  }
  return layout;
}

/** A line's text, trimmed, with its offsets (made when asked: a long wrapped filter has thousands of lines). */
export function lineText(line: CellLine): MappedText {
  return trimMapped(mapped(line.text, line.start));
}

/** The option lines written on their own use ` = ` (the default) or `=`: what a new option line should use. */
export function optionSpacing(layout: CellLayout): ' = ' | '=' {
  const own = layout.options.filter((o) => !o.joined && o.piece.text.includes('='));
  if (own.length === 0) return ' = ';
  return own.some((o) => /\s=|=\s/.test(o.piece.text)) ? ' = ' : '=';
}
