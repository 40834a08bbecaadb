// A compact structural index of a JSON(C) text: one pass, iterative (so 10,000-deep nesting
// cannot overflow the stack), typed arrays instead of one object per node. Values come from
// JSON.parse elsewhere; this index only answers "where is it" and "what is at this offset".

export const enum NodeKind {
  Object = 1,
  Array = 2,
  String = 3,
  Number = 4,
  Literal = 5,
}

export type JsonPath = ReadonlyArray<string | number>;

export interface DuplicateKey {
  /** Node index of the later property value. */
  node: number;
  /** Node index of the earlier property value with the same key. */
  first: number;
}

export interface JsonTree {
  readonly text: string;
  readonly count: number;
  readonly kind: Uint8Array;
  readonly start: Int32Array;
  /** Exclusive end offset. */
  readonly end: Int32Array;
  readonly parent: Int32Array;
  /** Offset of the opening quote of the property key owning this value, -1 for none. */
  readonly keyStart: Int32Array;
  /** Exclusive end of the key, including the closing quote. */
  readonly keyEnd: Int32Array;
  readonly firstChild: Int32Array;
  readonly nextSibling: Int32Array;
  readonly childCount: Int32Array;
  readonly maxDepth: number;
  readonly duplicates: DuplicateKey[];
}

const SMALL_OBJECT = 12;

/** The kind of a node (the index stores kinds as bytes). */
export function kindAt(tree: JsonTree, node: number): NodeKind {
  return tree.kind[node];
}

/**
 * The index under construction. A class rather than closures inside buildJsonTree: closures made anew
 * for every text gave the scan loop, compiled while the first text was read, a different call target
 * for each text, so the next two or three texts were read by unoptimised code while it recompiled.
 */
class Builder {
  cap: number;
  count = 0;
  kind: Uint8Array<ArrayBuffer>;
  start: Int32Array<ArrayBuffer>;
  end: Int32Array<ArrayBuffer>;
  parent: Int32Array<ArrayBuffer>;
  keyStart: Int32Array<ArrayBuffer>;
  keyEnd: Int32Array<ArrayBuffer>;
  firstChild: Int32Array<ArrayBuffer>;
  nextSibling: Int32Array<ArrayBuffer>;
  childCount: Int32Array<ArrayBuffer>;
  readonly stack: number[] = [];
  /** The last child of the innermost open container so far (-1: none yet), and each outer one's, saved while inside. */
  lastOpen = -1;
  readonly lastOfOuter: number[] = [];
  top = -1;
  pendingKeyStart = -1;
  pendingKeyEnd = -1;
  maxDepth = 0;
  readonly duplicates: DuplicateKey[] = [];

  constructor(readonly text: string) {
    // Pretty-printed documents hold about one value per 60 characters; grow by doubling past that.
    const cap = Math.max(64, (text.length / 48) | 0);
    this.cap = cap;
    // One zeroed allocation for the first arrays rather than one per array (they are most of the
    // index's allocation); arrays that outgrow it get their own.
    const first = new ArrayBuffer(cap * 33);
    this.start = new Int32Array(first, 0, cap);
    this.end = new Int32Array(first, cap * 4, cap);
    this.parent = new Int32Array(first, cap * 8, cap);
    this.keyStart = new Int32Array(first, cap * 12, cap);
    this.keyEnd = new Int32Array(first, cap * 16, cap);
    this.firstChild = new Int32Array(first, cap * 20, cap);
    this.nextSibling = new Int32Array(first, cap * 24, cap);
    this.childCount = new Int32Array(first, cap * 28, cap);
    this.kind = new Uint8Array(first, cap * 32, cap);
  }

  grow(): void {
    const cap = (this.cap *= 2);
    const g32 = (a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> => {
      const b = new Int32Array(cap);
      b.set(a);
      return b;
    };
    const kind = new Uint8Array(cap);
    kind.set(this.kind);
    this.kind = kind;
    this.start = g32(this.start);
    this.end = g32(this.end);
    this.parent = g32(this.parent);
    this.keyStart = g32(this.keyStart);
    this.keyEnd = g32(this.keyEnd);
    this.firstChild = g32(this.firstChild);
    this.nextSibling = g32(this.nextSibling);
    this.childCount = g32(this.childCount);
  }

  add(k: NodeKind, s: number, e: number): number {
    if (this.count === this.cap) this.grow();
    const n = this.count++;
    const top = this.top;
    this.kind[n] = k;
    this.start[n] = s;
    this.end[n] = e;
    this.parent[n] = top;
    this.keyStart[n] = this.pendingKeyStart;
    this.keyEnd[n] = this.pendingKeyEnd;
    this.firstChild[n] = -1;
    this.nextSibling[n] = -1;
    // childCount[n] is 0 already: every array is zeroed past `count`.
    this.pendingKeyStart = -1;
    this.pendingKeyEnd = -1;
    if (top >= 0) {
      if (this.lastOpen < 0) this.firstChild[top] = n;
      else this.nextSibling[this.lastOpen] = n;
      this.lastOpen = n;
      this.childCount[top]++;
    }
    return n;
  }

  sameKey(a: number, b: number): boolean {
    const text = this.text;
    const sa = this.keyStart[a];
    const sb = this.keyStart[b];
    const la = this.keyEnd[a] - sa;
    if (la !== this.keyEnd[b] - sb) return false;
    // Compare in place: most pairs differ in the first characters, so no substring is allocated.
    for (let i = 0; i < la; i++) if (text.charCodeAt(sa + i) !== text.charCodeAt(sb + i)) return false;
    return true;
  }

  checkDuplicates(obj: number): void {
    const n = this.childCount[obj];
    if (n < 2) return;
    const { text, keyStart, keyEnd, nextSibling, duplicates } = this;
    if (n <= SMALL_OBJECT) {
      // Every pair, but through a signature per key (length and first characters): nearly all pairs
      // differ there, so a pair costs one comparison rather than four index reads.
      let m = 0;
      for (let c = this.firstChild[obj]; c >= 0; c = nextSibling[c]) {
        const ks = keyStart[c];
        if (ks < 0) continue;
        smallNodes[m] = c;
        smallSigs[m++] = ((keyEnd[c] - ks) << 16) ^ (text.charCodeAt(ks + 1) << 8) ^ text.charCodeAt(keyEnd[c] - 2);
      }
      for (let a = 0; a < m; a++) {
        for (let b = a + 1; b < m; b++) {
          if (smallSigs[a] === smallSigs[b] && this.sameKey(smallNodes[a], smallNodes[b]))
            duplicates.push({ node: smallNodes[b], first: smallNodes[a] });
        }
      }
      return;
    }
    // Open addressing over the key text (node + 1 per slot, 0 free): no key string and no Map per
    // big object, which were most of the index's allocation and a tenth of its time.
    let size = 64;
    while (size < n * 2) size <<= 1;
    if (slots.length < size) slots = new Int32Array(size);
    else slots.fill(0, 0, size);
    const mask = size - 1;
    for (let c = this.firstChild[obj]; c >= 0; c = nextSibling[c]) {
      const ks = keyStart[c];
      if (ks < 0) continue;
      let h = 0x811c9dc5;
      for (let k = ks, ke = keyEnd[c]; k < ke; k++) h = Math.imul(h ^ text.charCodeAt(k), 0x01000193);
      for (let at = h & mask; ; at = (at + 1) & mask) {
        const e = slots[at];
        if (e === 0) {
          slots[at] = c + 1;
          break;
        }
        if (this.sameKey(e - 1, c)) {
          duplicates.push({ node: c, first: e - 1 });
          break;
        }
      }
    }
  }

  tree(): JsonTree {
    // Unclosed containers end at the end of the text (already set at creation).
    for (const n of this.stack) if ((this.kind[n] as NodeKind) === NodeKind.Object) this.checkDuplicates(n);
    return {
      text: this.text,
      count: this.count,
      kind: this.kind,
      start: this.start,
      end: this.end,
      parent: this.parent,
      keyStart: this.keyStart,
      keyEnd: this.keyEnd,
      firstChild: this.firstChild,
      nextSibling: this.nextSibling,
      childCount: this.childCount,
      maxDepth: this.maxDepth,
      duplicates: this.duplicates,
    };
  }
}

// Scratch for duplicate checks, shared by every build (a build runs to its end without yielding).
let slots = new Int32Array(64);
const smallNodes = new Int32Array(SMALL_OBJECT);
const smallSigs = new Int32Array(SMALL_OBJECT);

/** Builds the index. Tolerates any input: broken JSON yields a partial but consistent index. */
export function buildJsonTree(text: string): JsonTree {
  const b = new Builder(text);
  const stack = b.stack;
  const len = text.length;
  const words = asciiWords(text);
  let expectKey = false;
  let i = 0;
  while (i < len) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 10 || c === 13 || c === 9) {
      // Indentation is a third of a pretty-printed document: skip its spaces four at a time where the
      // text is ASCII, then one comparison each (charCodeAt past the end is NaN, so no bound check);
      // the main loop takes any other blank.
      i++;
      if (words !== undefined) while (i + 4 <= len && words.getUint32(i, true) === 0x20202020) i += 4;
      while (text.charCodeAt(i) === 32) i++;
      continue;
    }
    if (c === 34 /* " */) {
      let j = i + 1;
      let close = -1;
      for (;;) {
        const q = text.indexOf('"', j);
        if (q < 0) break;
        let bs = 0;
        for (let k = q - 1; k > i && text.charCodeAt(k) === 92; k--) bs++;
        if ((bs & 1) === 0) {
          close = q;
          break;
        }
        j = q + 1;
      }
      // An unterminated string runs to the end of its line, as editors show it.
      const e = close >= 0 ? close + 1 : lineEnd(text, i);
      if (b.top >= 0 && expectKey && (b.kind[b.top] as NodeKind) === NodeKind.Object) {
        b.pendingKeyStart = i;
        b.pendingKeyEnd = e;
        expectKey = false;
        // The colon after a key, and the space after that, as the colon's own turn would take them.
        if (text.charCodeAt(e) === 58) {
          i = text.charCodeAt(e + 1) === 32 ? e + 2 : e + 1;
          continue;
        }
      } else {
        b.add(NodeKind.String, i, e);
      }
      i = e;
      continue;
    }
    if (c === 123 /* { */ || c === 91 /* [ */) {
      const n = b.add(c === 123 ? NodeKind.Object : NodeKind.Array, i, len);
      stack.push(n);
      b.lastOfOuter.push(b.lastOpen);
      b.lastOpen = -1;
      b.top = n;
      if (stack.length > b.maxDepth) b.maxDepth = stack.length;
      expectKey = c === 123;
      i++;
      continue;
    }
    if (c === 125 /* } */ || c === 93 /* ] */) {
      const top = b.top;
      if (top >= 0) {
        b.end[top] = i + 1;
        if ((b.kind[top] as NodeKind) === NodeKind.Object) b.checkDuplicates(top);
        stack.pop();
        b.lastOpen = b.lastOfOuter.pop()!;
        b.top = stack.length ? stack[stack.length - 1] : -1;
      }
      b.pendingKeyStart = -1;
      expectKey = false;
      i++;
      continue;
    }
    if (c === 58 /* : */) {
      expectKey = false;
      // Pretty-printed JSON puts one space after every colon: step over it here, not in a turn of its own.
      i += text.charCodeAt(i + 1) === 32 ? 2 : 1;
      continue;
    }
    if (c === 44 /* , */) {
      expectKey = b.top >= 0 && (b.kind[b.top] as NodeKind) === NodeKind.Object;
      b.pendingKeyStart = -1;
      i++;
      continue;
    }
    if (c === 47 /* / */) {
      const n2 = text.charCodeAt(i + 1);
      if (n2 === 47) {
        i = lineEnd(text, i);
        continue;
      }
      if (n2 === 42) {
        const e = text.indexOf('*/', i + 2);
        i = e < 0 ? len : e + 2;
        continue;
      }
    }
    // number, true/false/null or garbage: up to the next delimiter
    let j = i + 1;
    while (j < len) {
      const d = text.charCodeAt(j);
      if (
        d === 44 ||
        d === 58 ||
        d === 93 ||
        d === 125 ||
        d === 32 ||
        d === 10 ||
        d === 13 ||
        d === 9 ||
        d === 34 ||
        d === 47 ||
        d === 91 ||
        d === 123
      )
        break;
      j++;
    }
    if (b.top >= 0 && expectKey) {
      // An unquoted key (invalid JSON, common while typing): index it as a key so positions stay aligned.
      b.pendingKeyStart = i;
      b.pendingKeyEnd = j;
      expectKey = false;
    } else {
      b.add(c === 45 || (c >= 48 && c <= 57) ? NodeKind.Number : NodeKind.Literal, i, j);
    }
    i = j;
  }
  return b.tree();
}

function lineEnd(text: string, from: number): number {
  const nl = text.indexOf('\n', from);
  return nl < 0 ? text.length : nl;
}

const encoder = new TextEncoder();

/** The text's bytes when it is ASCII (one byte per offset, as nearly every real document is), else undefined. */
function asciiWords(text: string): DataView | undefined {
  // One buffer for every text up to 8 MB (the scan reads only the first text.length bytes): a fresh
  // one per analysis was 13 MB of zeroed memory to allocate and collect per lint of the shared documents.
  let bytes = scratch;
  if (bytes.length < text.length) {
    bytes = new Uint8Array(Math.max(text.length, 64 * 1024));
    if (bytes.length <= MAX_SCRATCH) scratch = bytes;
  }
  const r = encoder.encodeInto(text, bytes);
  return r.read === text.length && r.written === text.length ? new DataView(bytes.buffer) : undefined;
}

const MAX_SCRATCH = 8 * 1024 * 1024;
let scratch = new Uint8Array(0);
