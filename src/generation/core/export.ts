// A conversation as a file: Markdown to read or paste, JSON to keep (every turn, with the exact
// contents sent and received, so it can be inspected or replayed).
import type { Conversation } from './conversation';

export type ExportFormat = 'markdown' | 'json';

/** A reply cut off inside a fenced block (stopped, failed) must not swallow the rest of the file. */
function closeOpenFence(text: string): string {
  let open: string | undefined;
  for (const line of text.split('\n')) {
    const m = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (!m) continue;
    if (!open) open = m[1];
    else if (m[1][0] === open[0] && m[1].length >= open.length && line.trim() === m[1]) open = undefined;
  }
  return open ? `${text.replace(/\n?$/, '\n')}${open}` : text;
}

export function toMarkdown(c: Conversation): string {
  const lines = [`# ${c.title}`, ''];
  for (const t of c.turns) {
    lines.push(
      t.kind === 'prompt' ? `## You` : '## Function result',
      '',
      t.prompt,
      '',
      `## Model (${t.model})`,
      '',
      t.text ? closeOpenFence(t.text) : '_(no text)_',
      '',
    );
    const s = t.summary;
    if (s.block) lines.push(`> ${s.block.label}: ${s.block.meaning}`, '');
    if (s.finish && s.finish.reason !== 'STOP') lines.push(`> ${s.finish.label}: ${s.finish.meaning}`, '');
    if (s.error) lines.push(`> Error ${s.error.code} ${s.error.status}: ${s.error.message}`, '');
    if (s.state === 'stopped') lines.push('> Stopped: the reply above is partial.', '');
    for (const f of s.functionCalls)
      lines.push(`> Function call \`${f.name}(${JSON.stringify(f.args)})\`${f.decision ? ` — ${f.decision}` : ''}`, '');
    for (const cit of s.citations)
      lines.push(`[${cit.n}] ${cit.uri ?? '(no link)'}${cit.license ? ` (${cit.license})` : ''}`);
    if (s.citations.length) lines.push('');
  }
  return lines.join('\n');
}

/** The JSON export: a versioned envelope around the stored conversation. */
export function toJson(c: Conversation, exportedAt: Date): string {
  const { id, title, turns } = c;
  return `${JSON.stringify(
    { format: 'api-workbench-chat', version: 1, id, title, exportedAt: exportedAt.toISOString(), turns },
    null,
    2,
  )}\n`;
}

/** A file name from the title: letters, digits and dashes only, never empty, never a path. */
export function exportFileName(title: string, format: ExportFormat): string {
  const stem =
    title
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60)
      .replace(/-+$/, '') || 'chat';
  return `${stem}.${format === 'markdown' ? 'md' : 'json'}`;
}

export function exportContent(c: Conversation, format: ExportFormat, now = new Date()): string {
  return format === 'markdown' ? toMarkdown(c) : toJson(c, now);
}
