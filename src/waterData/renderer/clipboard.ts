// Notebook webviews allow the async clipboard API when focused; the textarea + execCommand path
// covers webviews and test pages where it is refused.
export async function copyText(doc: Document, text: string): Promise<boolean> {
  const nav = doc.defaultView?.navigator;
  try {
    if (nav?.clipboard?.writeText) {
      await nav.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the legacy path
  }
  const area = doc.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  (doc.body ?? doc.documentElement).appendChild(area);
  area.select();
  let ok: boolean;
  try {
    ok = typeof doc.execCommand === 'function' && doc.execCommand('copy');
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}
