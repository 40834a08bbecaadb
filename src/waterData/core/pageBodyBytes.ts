// The bytes an OData page body is read by, where its list's rows end, and what is wrong with a body that is not a
// page (pageBody.ts reads the body).

export type PageBodyProblem = 'not-json' | 'no-value';

export class PageBodyError extends Error {
  constructor(readonly problem: PageBodyProblem) {
    super(problem === 'no-value' ? 'The response has no "value" list.' : 'The response is not JSON.');
    this.name = 'PageBodyError';
  }
}

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const COLON_BYTE = 0x3a;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
export const OPEN_LIST = 0x5b;
export const CLOSE_LIST = 0x5d;

export function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

export const BOM = [0xef, 0xbb, 0xbf];

/** Where the last row ending in b[from, to) is followed by a comma: the index of that comma, or -1. */
export function lastRowEnd(b: Buffer, from: number, to: number): number {
  for (let k = to - 1; k > from; k--) {
    k = b.lastIndexOf(COMMA, k);
    if (k <= from) return -1;
    let j = k - 1;
    while (j > from && isSpace(b[j])) j--;
    if (b[j] === CLOSE_OBJECT) return k;
  }
  return -1;
}
