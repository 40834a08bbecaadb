// The one contract between the discovery reference preview's host side and its webview. Both
// import this file; nothing else crosses the boundary. Every message is discriminated by `type`.

import type { BodyCompletions, BodyProblem, TryForm, TryResponse } from './core/tryIt';

export const PREVIEW_VIEW_TYPE = 'apiWorkbench.discoveryPreview';

/** A path into the discovery document (object keys and array indexes). */
export type PreviewPath = (string | number)[];

/** What the page keeps in its webview state (VS Code hands it back when it restores the panel after a reload). */
export interface PreviewPageState {
  source?: string;
  tryIt?: unknown;
}

export type PreviewHostToWebview =
  /** The whole reference, rendered and escaped by the core (`renderPreviewBody`); scroll position and highlight survive it. */
  | {
      type: 'render';
      html: string;
      /** The document's URI: the page keeps it in its state, so a reloaded window can show the same document. */
      source: string;
    }
  /** Highlights the method or schema at the editor's cursor and scrolls it into view. */
  | { type: 'reveal'; anchor: string }
  /**
   * Try it: the form of the method at `path` (answer to `tryIt`), and again after each edit of the document for
   * every open panel, found by method id (its path may have changed); the page keeps what the user typed.
   */
  | { type: 'tryItForm'; path: PreviewPath; form: TryForm; credential: string | undefined }
  /** Try it: an open panel's method is no longer in the edited document (removed, or its id changed). */
  | { type: 'tryItGone'; methodId: string }
  /** Try it: completion items for the body editor (answer to `tryItCompleteBody` with the same `seq`). */
  | { type: 'tryItBodyCompletions'; path: PreviewPath; seq: number; completions: BodyCompletions }
  /** Try it: problems of the body typed, against the request schema (answer to `tryItCheckBody`). */
  | { type: 'tryItBodyProblems'; path: PreviewPath; problems: BodyProblem[] }
  /** Try it: the media file chosen for an upload (answer to `tryItPickMedia`). */
  | { type: 'tryItMedia'; path: PreviewPath; name: string | undefined }
  /** Try it: the request is under way, answered, or could not be made (bad input, network failure). */
  | { type: 'tryItSending'; path: PreviewPath }
  | { type: 'tryItResult'; path: PreviewPath; response?: TryResponse; failure?: string };

/** What the Try it form holds: values per parameter name (several for a repeated one) and the body text. */
export interface TryItFormValues {
  params: Record<string, string[]>;
  body?: string;
}

export type PreviewWebviewToHost =
  /** The page has loaded and listens: the host sends the current render. */
  | { type: 'ready' }
  /**
   * Show a method's or schema's source in the editor: a heading click moves there; a type link also
   * reveals its schema's source but leaves the focus in the preview (`preserveFocus`).
   */
  | { type: 'goto'; path: PreviewPath; preserveFocus?: boolean }
  /** Try it on the method at `path`: the host answers with its form. */
  | { type: 'tryIt'; path: PreviewPath }
  | { type: 'tryItCheckBody'; path: PreviewPath; body: string }
  /** What may go at `offset` of the body (`seq` tells a stale answer from the current one). */
  | { type: 'tryItCompleteBody'; path: PreviewPath; body: string; offset: number; seq: number }
  /** The user closed the panel of `methodId`: the host stops following it across edits. */
  | { type: 'tryItClose'; path: PreviewPath; methodId: string }
  | { type: 'tryItPickMedia'; path: PreviewPath }
  /** Send the request; the extension host makes the HTTP call, never the page. */
  | { type: 'tryItSend'; path: PreviewPath; values: TryItFormValues }
  | { type: 'tryItCopyCurl'; path: PreviewPath; values: TryItFormValues; reveal: boolean }
  /** Open the last response of the method at `path` in an editor. */
  | { type: 'tryItOpenResponse'; path: PreviewPath };

/** Data attribute holding a section's document path as JSON (set by the core renderer). */
export const PATH_ATTRIBUTE = 'data-path';
