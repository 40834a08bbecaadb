// Installs a happy-dom window as the global browser environment while the renderer suites run and
// removes it after, so other suites run in plain Node. The renderer is required only after installation
// because uPlot and virtual-core look at `window`/`document` when they load.
import Module from 'node:module';
import { readFileSync } from 'node:fs';
import { Window } from 'happy-dom';

const GLOBALS = [
  'window',
  'document',
  'navigator',
  'HTMLElement',
  'Element',
  'Node',
  'SVGElement',
  'ShadowRoot',
  'DocumentFragment',
  'getComputedStyle',
  'requestAnimationFrame',
  'cancelAnimationFrame',
  'ResizeObserver',
  'matchMedia',
  'devicePixelRatio',
  'Event',
  'MouseEvent',
  'KeyboardEvent',
  'CustomEvent',
  'Path2D',
] as const;

// esbuild bundles the uPlot stylesheet as text; seed the module cache with that text so the
// renderer's CSS import resolves the same way under tsx.
const cssPath = require.resolve('uplot/dist/uPlot.min.css');
if (!require.cache[cssPath]) {
  const m = new Module(cssPath);
  m.filename = cssPath;
  m.loaded = true;
  m.exports = readFileSync(cssPath, 'utf8');
  require.cache[cssPath] = m;
}

let shared: Window | undefined;
let users = 0;
let saved = new Map<string, PropertyDescriptor | undefined>();

/**
 * Makes the happy-dom window the global environment for one suite (call in `before`, undo with
 * `releaseDom` in `after`). The same window is reused by every suite: modules loaded under it keep
 * references to its `document`.
 */
export function useDom(): Window {
  shared ??= new Window({ url: 'http://localhost/', width: 1200, height: 800 });
  if (users++ === 0) {
    saved = new Map();
    for (const key of GLOBALS) {
      saved.set(key, Object.getOwnPropertyDescriptor(globalThis, key));
      const value = key === 'window' ? shared : (shared as unknown as Record<string, unknown>)[key];
      if (value === undefined) continue;
      Object.defineProperty(globalThis, key, {
        value:
          typeof value === 'function' && /^[a-z]/.test(key)
            ? (value as (...a: unknown[]) => unknown).bind(shared)
            : value,
        configurable: true,
        writable: true,
      });
    }
  }
  shared.document.body.replaceChildren();
  return shared;
}

export function releaseDom(): void {
  if (--users > 0) return;
  for (const [key, desc] of saved) {
    if (desc) Object.defineProperty(globalThis, key, desc);
    else delete (globalThis as Record<string, unknown>)[key];
  }
}

export type RendererModule = typeof import('../../../src/waterData/renderer/index');

/** The renderer entry, loaded once the DOM globals exist. */
export function loadRenderer(): RendererModule {
  // A synchronous require on purpose: the module must first evaluate after useDom() installed the DOM
  // globals it captures, and an `import()` here would make every before() hook async for no gain.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('../../../src/waterData/renderer/index') as RendererModule;
}
