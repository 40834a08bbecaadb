// The Sources list under a reply: each citation's link, licence and the passage it covers. The
// passage is reply text in Markdown source form, so it is shown as the plain text it renders to.
import type { CitationView } from '../protocol';
import { button, el } from './dom';
import { markdownText } from './markdown';

const EXCERPT_CHARS = 240;

function excerpt(text: string): string {
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
}

export interface SourcesContext {
  idPrefix: string;
  hasPassage(n: number): boolean;
  showPassage(n: number): void;
  openLink(href: string): void;
}

export function sourcesList(citations: readonly CitationView[], ctx: SourcesContext): HTMLElement {
  const list = el('ol', { class: 'citations' });
  for (const c of citations) {
    const link =
      c.uri && /^https?:/i.test(c.uri)
        ? el('a', { href: c.uri, text: c.uri })
        : el('span', { text: c.uri ?? '(no link)' });
    const back = ctx.hasPassage(c.n)
      ? button('↑', () => ctx.showPassage(c.n), {
          class: 'icon-button show-passage',
          title: 'Show the cited passage in the reply',
          'aria-label': `Show passage ${c.n} in the reply`,
        })
      : '';
    list.append(
      el(
        'li',
        { id: `${ctx.idPrefix}${c.n}`, 'data-source': String(c.n), tabindex: '-1' },
        link,
        c.license ? el('span', { class: 'license', text: ` (${c.license})` }) : '',
        back,
        el('blockquote', {
          class: 'cited',
          text: excerpt(markdownText(c.text).trim()),
          title: 'The passage this source covers',
        }),
      ),
    );
  }
  list.addEventListener('click', (e) => {
    const a = (e.target as HTMLElement).closest('a');
    if (!a) return;
    e.preventDefault();
    ctx.openLink(a.getAttribute('href')!);
  });
  return el(
    'div',
    { class: 'sources', 'data-testid': 'citations' },
    el('strong', { text: `Sources (${citations.length})` }),
    list,
  );
}
