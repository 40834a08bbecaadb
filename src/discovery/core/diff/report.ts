// What the comparison produces: changes found against paths, then placed in both texts as RFC 6901
// pointers and 1-based lines (the shape `api-workbench diff --format json` prints).
import type { JsonPath, JsonTree } from '../jsonTree';
import { nodeAt } from '../jsonTreeLookup';
import { LineIndex } from '../lineIndex';
import { DIFF_CODES, type DiffCode, type DiffSeverity } from './codes';

export interface DiffPlace {
  /** RFC 6901 pointer into the document. */
  pointer: string;
  /** 1-based line of the place (of its key, for a property). */
  line: number;
}

export interface DiffChange {
  code: DiffCode;
  severity: DiffSeverity;
  message: string;
  old: DiffPlace | null;
  new: DiffPlace | null;
}

/** A change as the comparison finds it: paths in each document, undefined where the thing does not exist. */
export interface FoundChange {
  code: DiffCode;
  message: string;
  old: JsonPath | undefined;
  new: JsonPath | undefined;
}

/** Collects changes; `quiet` sub-comparisons (is this retargeted schema compatible?) only count breaks. */
export class ChangeSink {
  readonly found: FoundChange[] = [];
  breaking = 0;
  constructor(readonly quiet = false) {}

  add(code: DiffCode, message: string, oldPath: JsonPath | undefined, newPath: JsonPath | undefined): void {
    const breaking = DIFF_CODES[code].severity === 'breaking';
    if (breaking) this.breaking++;
    // A quiet sink keeps only its first break, to explain an incompatible retarget in one line.
    if (!this.quiet || (breaking && this.breaking === 1))
      this.found.push({ code, message, old: oldPath, new: newPath });
  }
}

/** RFC 6901: `~` → `~0`, `/` → `~1`. */
export function toPointer(path: JsonPath): string {
  return path.map((s) => '/' + String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

export class DocumentPlaces {
  private lines: LineIndex | undefined;
  constructor(private readonly tree: JsonTree) {}

  place(path: JsonPath | undefined): DiffPlace | null {
    if (!path) return null;
    // The deepest existing node on the path (a change to a missing key sits on its holder), so the
    // pointer always resolves in this document.
    let node = -1;
    let depth = path.length;
    for (; depth >= 0; depth--) {
      node = nodeAt(this.tree, path.slice(0, depth));
      if (node >= 0) break;
    }
    const offset = node < 0 ? 0 : this.tree.keyStart[node] >= 0 ? this.tree.keyStart[node] : this.tree.start[node];
    this.lines ??= new LineIndex(this.tree.text);
    return { pointer: toPointer(path.slice(0, Math.max(depth, 0))), line: this.lines.positionAt(offset).line };
  }
}

const RANK: Record<DiffSeverity, number> = { breaking: 0, warning: 1, info: 2 };

/** Breaking first, then warnings, then info; within each, in the order of the new document (then the old). */
export function sortChanges(changes: DiffChange[]): DiffChange[] {
  const line = (c: DiffChange) => c.new?.line ?? c.old?.line ?? 0;
  return changes
    .map((c, i) => ({ c, i }))
    .sort((a, b) => RANK[a.c.severity] - RANK[b.c.severity] || line(a.c) - line(b.c) || a.i - b.i)
    .map((x) => x.c);
}
