// "Open in Chat" of a grid cell: a conversation whose one exchange is the cell's request (the contents its
// rendered prompt sent) and its reply, so the chat's next prompt continues from there. The chat sends with its
// own settings: the prompt's system instruction and config are not carried over (they are not history).
import type { Content, GenerateContentRequest } from '../../../shared/wire/generation';
import { newConversation, type Conversation } from '../conversation';
import type { CellResult } from './runner';

function textOf(c: Content | undefined): string {
  return (c?.parts ?? [])
    .map((p) => p.text ?? '')
    .join('')
    .trim();
}

export function conversationFromCell(
  cell: CellResult,
  request: GenerateContentRequest,
  model: string,
  title: string,
  now = Date.now(),
): Conversation {
  const c = newConversation(now);
  const sent = request.contents ?? [];
  const lastUser = [...sent].reverse().find((x) => x.role !== 'model');
  c.title = title;
  c.renamed = true;
  c.turns.push({
    id: `t${now.toString(36)}e${cell.item}`,
    prompt: textOf(lastUser),
    kind: 'prompt',
    model: `models/${model}`,
    text: cell.output,
    thoughts: '',
    summary: {
      state: 'done',
      promptRatings: [],
      ratings: [],
      citations: [],
      incomplete: false,
      functionCalls: [],
      usage: {
        prompt: cell.usage.promptTokenCount,
        candidates: cell.usage.candidatesTokenCount,
        total: cell.usage.totalTokenCount,
      },
    },
    sent,
    reply: cell.output ? { role: 'model', parts: [{ text: cell.output }] } : null,
  });
  return c;
}
