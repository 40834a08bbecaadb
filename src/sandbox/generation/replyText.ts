// The texts of the deterministic model's replies: a markdown answer derived from the prompt (so
// tests can check what arrived), the hostile-HTML reply, function results, and JSON-mode values.
import type { Content, GenerateContentRequest, Part, Schema } from '../../shared/wire/generation';
import { ownValue, putOwn } from '../../shared/wire/ownKeys';

export function words(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}

/** Media parts of the last user turn, described so tests can see that attachments arrived. */
export function mediaOf(req: GenerateContentRequest): string[] {
  const last = [...req.contents].reverse().find((c) => c.role === undefined || c.role === 'user');
  return (last?.parts ?? []).flatMap((p) => {
    if (p.inlineData)
      return [`inline ${p.inlineData.mimeType} (${Buffer.from(p.inlineData.data ?? '', 'base64').length} bytes)`];
    if (p.fileData)
      return [
        `file ${String(p.fileData.fileUri ?? '').replace(/^.*\/files\//, 'files/')} (${p.fileData.mimeType ?? 'unknown type'})`,
      ];
    return [];
  });
}

export function markdownReply(prompt: string, system: Content | undefined, media: string[] = []): string {
  const w = words(prompt);
  const quoted = prompt.replace(/\s+/g, ' ').slice(0, 300) || '(empty prompt)';
  const systemText = (system?.parts ?? [])
    .map((p) => p.text ?? '')
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  const lines = [
    `**Sandbox reply** — you wrote ${w.length} word${w.length === 1 ? '' : 's'} (${[...prompt].length} characters).`,
    '',
    `> ${quoted}`,
    '',
  ];
  if (systemText) lines.push(`_System instruction in effect:_ ${systemText.slice(0, 160)}`, '');
  if (media.length) lines.push(`Attachments received: ${media.join('; ')}.`, '');
  lines.push(
    `Words in reverse order: ${w.slice(-30).reverse().join(' ') || '—'}.`,
    '',
    '```js',
    '// Generated from your prompt',
    `const prompt = ${JSON.stringify(prompt.slice(0, 200))};`,
    `console.log(prompt.split(/\\s+/).length); // ${w.length}`,
    '```',
    '',
    'Déjà vu check: naïve café — ✓.',
    '',
  );
  return lines.join('\n');
}

export function xssReply(): string {
  return [
    'Here is some HTML the model produced:',
    '',
    '<script>window.__xss = 1</script>',
    '<img src="x" onerror="window.__xss = 2">',
    '',
    '[a link](javascript:window.__xss=3) and [a safe link](https://example.com/docs).',
    '',
  ].join('\n');
}

export function functionResultReply(parts: Part[]): string {
  const lines: string[] = [];
  for (const p of parts) {
    const fr = p.functionResponse!;
    const keys = Object.keys(fr.response ?? {});
    lines.push(
      `The function \`${fr.name}\` returned ${keys.length} field${keys.length === 1 ? '' : 's'}:`,
      '',
      '```json',
      JSON.stringify(fr.response, null, 2),
      '```',
      '',
    );
  }
  return lines.join('\n');
}

/** A value of the schema, derived from the prompt's words, so JSON mode is checkable. */
export function valueFor(schema: Schema, prompt: string, depth: number): unknown {
  const type = String(schema.type ?? (schema.properties ? 'object' : 'string')).toLowerCase();
  const w = words(prompt);
  if (schema.enum?.length) return schema.enum[0];
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const order = schema.propertyOrdering ?? Object.keys(schema.properties ?? {});
      for (const key of order) {
        const sub = schema.properties && ownValue(schema.properties, key);
        if (sub) putOwn(out, key, valueFor(sub, prompt, depth + 1));
      }
      return out;
    }
    case 'array': {
      const n = Math.max(Number(schema.minItems ?? 0), Math.min(2, Number(schema.maxItems ?? 2)));
      return Array.from({ length: n }, (_, i) =>
        valueFor(schema.items ?? { type: 'string' }, w.slice(i).join(' '), depth + 1),
      );
    }
    case 'integer':
      return within(schema, w.length);
    case 'number':
      return within(schema, w.length / 2);
    case 'boolean':
      return w.length % 2 === 0;
    default: {
      const word = w[depth % Math.max(1, w.length)] ?? 'sandbox';
      const min = Number(schema.minLength ?? 0);
      const max = schema.maxLength === undefined ? Infinity : Number(schema.maxLength);
      return [...word.padEnd(min, '.')].slice(0, max).join('');
    }
  }
}

/** A number inside the schema's minimum and maximum, so the reply conforms to it. */
function within(schema: Schema, n: number): number {
  const lo = typeof schema.minimum === 'number' ? schema.minimum : -Infinity;
  const hi = typeof schema.maximum === 'number' ? schema.maximum : Infinity;
  return Math.min(hi, Math.max(lo, n));
}
