// Offsets → line/column without touching the editor; the CLI and tests use 1-based positions,
// the adapter converts with the editor's own document instead.

export interface LineColumn {
  /** 1-based line. */
  line: number;
  /** 1-based column, in UTF-16 code units like editors count. */
  column: number;
}

export class LineIndex {
  private readonly starts: Int32Array;

  constructor(private readonly text: string) {
    const starts: number[] = [0];
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    this.starts = Int32Array.from(starts);
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** 1-based line/column of an offset (clamped to the text). */
  positionAt(offset: number): LineColumn {
    const o = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: o - this.starts[lo] + 1 };
  }

  /** Offset of a 1-based line/column (clamped). */
  offsetAt(pos: LineColumn): number {
    const line = Math.max(1, Math.min(pos.line, this.starts.length));
    const lineStart = this.starts[line - 1];
    const next = line < this.starts.length ? this.starts[line] : this.text.length + 1;
    return Math.min(lineStart + Math.max(0, pos.column - 1), next - 1);
  }
}
