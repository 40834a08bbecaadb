// Model output is untrusted: markdown-it with raw HTML disabled, then DOMPurify over the result,
// so neither `<script>`, event-handler attributes nor `javascript:` links survive.
import MarkdownIt from 'markdown-it';
import DOMPurify from 'dompurify';

const md = new MarkdownIt({ html: false, linkify: true, breaks: false, typographer: false });

const SAFE_LINK = /^(https?:|mailto:|#)/i;

// markdown-it closes a fence that never ends at the end of the text, so a reply cut (stopped for safety,
// by the user, or still streaming) right after "```js" rendered an empty code block, which then got its
// Copy / Insert / New file bar. A fence with nothing in it is not a code block: it renders as nothing.
const renderFence = md.renderer.rules.fence;
md.renderer.rules.fence = (tokens, idx, options, env, self) =>
  tokens[idx].content.trim() === '' ? '' : renderFence(tokens, idx, options, env, self);

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    const href = node.getAttribute('href') ?? '';
    if (!SAFE_LINK.test(href)) node.removeAttribute('href');
    node.setAttribute('rel', 'noopener noreferrer');
  }
  if (node.tagName === 'IMG') {
    // No remote fetches from model output (tracking pixels); data: images only.
    const src = node.getAttribute('src') ?? '';
    if (!/^data:image\//i.test(src)) node.removeAttribute('src');
  }
});

export function renderMarkdown(text: string): string {
  return DOMPurify.sanitize(md.render(text), {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'iframe', 'object', 'embed'],
    FORBID_ATTR: ['style'],
  });
}

/** Resolves Markdown backslash escapes and HTML entities the way the renderer does in text. */
export function decodeInline(text: string): string {
  return md.utils.unescapeAll(text);
}

/** The fence language of a rendered code block (`language-xyz` class), or ''. */
export function codeLanguage(code: Element): string {
  const cls = [...code.classList].find((c) => c.startsWith('language-'));
  return cls ? cls.slice('language-'.length) : '';
}

/** The text a Markdown passage renders to, with no markup: block by block, code kept as written. */
export function markdownText(src: string): string {
  const blocks: string[] = [];
  for (const t of md.parse(src, {})) {
    if (t.type === 'inline') {
      blocks.push(
        (t.children ?? [])
          .map((c) =>
            c.type === 'text' || c.type === 'code_inline' || c.type === 'image'
              ? c.content
              : c.type === 'softbreak' || c.type === 'hardbreak'
                ? '\n'
                : '',
          )
          .join(''),
      );
    } else if (t.type === 'fence' || t.type === 'code_block') blocks.push(t.content.replace(/\n$/, ''));
  }
  return blocks.join('\n');
}
