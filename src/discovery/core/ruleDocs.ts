// Where each rule's section starts in docs/rules.md, so a Problems entry can link to it.

/** 1-based line of every `## <code>` heading in the rules document. */
export function ruleSectionLines(markdown: string): Map<string, number> {
  const out = new Map<string, number>();
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^## ([a-z0-9]+(?:-[a-z0-9]+)*)\s*$/.exec(lines[i]);
    if (m && !out.has(m[1])) out.set(m[1], i + 1);
  }
  return out;
}
