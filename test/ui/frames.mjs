// Finding what a webview shows: webviews are iframes (nested two deep) laid over the workbench, not inside
// the part they appear in, so "the chat in the editor area" is the frame whose box lies in that part.

/** Finds the first frame in which `selector` is visible (and, given `within`, whose box lies in that part). */
export async function inAnyFrame(page, selector, { timeout = 30_000, minCount = 1, within } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const region = within ? await page.locator(within).first().boundingBox() : undefined;
    for (const frame of page.frames()) {
      try {
        const loc = frame.locator(selector);
        if ((await loc.count()) < minCount || !(await loc.first().isVisible())) continue;
        if (region && !inside(await (await frame.frameElement()).boundingBox(), region)) continue;
        return { frame, loc };
      } catch {
        /* frame detached while we looked */
      }
    }
    if (Date.now() > deadline)
      throw new Error(`nothing visible matches ${selector}${minCount > 1 ? ` (×${minCount})` : ''}`);
    await page.waitForTimeout(250);
  }
}

export function inside(box, region) {
  if (!box) return false;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  return x >= region.x && x <= region.x + region.width && y >= region.y && y <= region.y + region.height;
}
