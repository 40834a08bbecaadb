// The one contract between the discovery reference preview's host side and its webview. Both
// import this file; nothing else crosses the boundary. Every message is discriminated by `type`.

export const PREVIEW_VIEW_TYPE = 'apiWorkbench.discoveryPreview';

/** A path into the discovery document (object keys and array indexes). */
export type PreviewPath = (string | number)[];

export type PreviewHostToWebview =
  /** The whole reference, rendered and escaped by the core (`renderPreviewBody`); scroll position and highlight survive it. */
  | { type: 'render'; html: string }
  /** Highlights the method or schema at the editor's cursor and scrolls it into view. */
  | { type: 'reveal'; anchor: string };

export type PreviewWebviewToHost =
  /** The page has loaded and listens: the host sends the current render. */
  | { type: 'ready' }
  /**
   * Show a method's or schema's source in the editor: a heading click moves there; a type link also
   * reveals its schema's source but leaves the focus in the preview (`preserveFocus`).
   */
  | { type: 'goto'; path: PreviewPath; preserveFocus?: boolean };

/** Data attribute holding a section's document path as JSON (set by the core renderer). */
export const PATH_ATTRIBUTE = 'data-path';
