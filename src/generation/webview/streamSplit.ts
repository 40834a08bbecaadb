// Where a streaming reply can be cut into a settled part (rendered once) and a tail (re-rendered).

/**
 * The end of the last complete Markdown block after `from`: a blank line outside any fenced code
 * block. Text before it will not change meaning when more text arrives (bar rare constructs such
 * as loose lists, which the final full render corrects).
 */
export function stableSplit(text: string, from: number): number {
  let split = from;
  let inFence = false;
  let fence = '';
  let lineStart = from;
  while (lineStart < text.length) {
    const nl = text.indexOf('\n', lineStart);
    if (nl === -1) break;
    const line = text.slice(lineStart, nl);
    const m = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (m) {
      if (!inFence) {
        inFence = true;
        fence = m[1];
      } else if (m[1][0] === fence[0] && m[1].length >= fence.length && line.trim() === m[1]) {
        inFence = false;
      }
    } else if (!inFence && line.trim() === '' && lineStart > from) {
      split = nl + 1;
    }
    lineStart = nl + 1;
  }
  return split;
}
