// Route table: `METHOD path-template` → handler. Templates use `{name}` segments; literal
// segments win over variables so `files/trash` and `changes/startPageToken` are not taken for ids.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { LinkBase } from './render';
import type { FieldTree } from './fields';

export interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  method: string;
  /** Path below the API prefix, without a leading slash (e.g. `files/abc/children`). */
  path: string;
  /** True on `/upload/...` (and the legacy `/resumable/upload/...`) paths. */
  upload: boolean;
  query: URLSearchParams;
  params: Record<string, string>;
  base: LinkBase;
  /** The access token the request was authorised with. */
  token: string;
  /** The parsed `fields` selection, when given. */
  fields?: FieldTree;
  /** Top-level keys kept inside `items(...)` of a list, when the selection names them. */
  itemFields?: ReadonlySet<string>;
}

/** What a handler answers: JSON (projected by `fields`), raw bytes, or nothing (204). */
export type Reply =
  | { status: number; json: unknown; headers?: Record<string, string> }
  | { status: number; bytes: Buffer; contentType: string; headers?: Record<string, string> }
  /**
   * Bytes streamed from the blob store: `stream` opens them (and may refuse, BlobUnreadableError) before the
   * status line is written; `length` bytes must follow it.
   */
  | {
      status: number;
      stream: () => Promise<Readable>;
      length: number;
      contentType: string;
      headers?: Record<string, string>;
    }
  | { status: number; empty: true; headers?: Record<string, string> }
  /** The handler wrote the response itself (streams). */
  | { handled: true };

export type Handler<S> = (ctx: RequestContext, svc: S) => Promise<Reply> | Reply;

interface Route<S> {
  method: string;
  segments: string[];
  handler: Handler<S>;
  /** Served on the upload prefix instead of the metadata prefix. */
  upload: boolean;
  literalCount: number;
}

export class Router<S> {
  private readonly routes: Route<S>[] = [];

  add(method: string, template: string, handler: Handler<S>, opts: { upload?: boolean } = {}): this {
    const segments = template.split('/');
    this.routes.push({
      method,
      segments,
      handler,
      upload: !!opts.upload,
      literalCount: segments.filter((s) => !s.startsWith('{')).length,
    });
    this.routes.sort((a, b) => b.literalCount - a.literalCount);
    return this;
  }

  /** `undefined`: no such path; `'method'`: the path exists under another HTTP method. */
  /** `'badEscape'`: a path segment is not valid percent-encoded UTF-8. */
  match(
    method: string,
    path: string,
    upload: boolean,
  ): { handler: Handler<S>; params: Record<string, string> } | 'method' | 'badEscape' | undefined {
    const parts = path.split('/');
    let pathMatched = false;
    for (const r of this.routes) {
      if (r.upload !== upload || r.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < parts.length && ok; i++) {
        const seg = r.segments[i];
        if (seg.startsWith('{')) {
          if (parts[i] === '') ok = false;
          else {
            const value = decodePathSegment(parts[i]);
            if (value === undefined) return 'badEscape';
            params[seg.slice(1, -1)] = value;
          }
        } else ok = seg === parts[i];
      }
      if (!ok) continue;
      if (r.method !== method) {
        pathMatched = true;
        continue;
      }
      return { handler: r.handler, params };
    }
    return pathMatched ? 'method' : undefined;
  }
}

function decodePathSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
