// discovery.apis.list and apis.getRest, shaped like https://www.googleapis.com/discovery/v1/apis.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson, settleBodyAfterAnswer } from '../http';
import type { Emulator, EmulatorFactory, SandboxContext } from '../types';
import {
  DIRECTORY_PATH_PREFIX,
  type DirectoryError,
  type DirectoryItem,
  type DirectoryList,
} from '../../shared/wire/discovery';
import { CATALOG, type CatalogEntry } from './catalog';

function error(code: number, status: string, reason: string, message: string): DirectoryError {
  return { error: { code, message, errors: [{ domain: 'global', reason, message }], status } };
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function directoryItem(entry: CatalogEntry, origin: string): DirectoryItem {
  const d = entry.doc;
  const name = str(d.name) ?? '';
  const version = str(d.version) ?? '';
  const item: DirectoryItem = {
    kind: 'discovery#directoryItem',
    id: `${name}:${version}`,
    name,
    version,
    discoveryRestUrl: `${origin}${DIRECTORY_PATH_PREFIX}/apis/${encodeURIComponent(name)}/${encodeURIComponent(version)}/rest`,
    discoveryLink: `./apis/${name}/${version}/rest`,
    preferred: entry.preferred,
  };
  if (str(d.title)) item.title = str(d.title);
  if (str(d.description)) item.description = str(d.description);
  if (typeof d.icons === 'object' && d.icons) item.icons = d.icons;
  if (str(d.documentationLink)) item.documentationLink = str(d.documentationLink);
  if (Array.isArray(d.labels)) item.labels = d.labels.filter((l): l is string => typeof l === 'string');
  return item;
}

/** The served copy points clients at the sandbox rather than at the real service. */
export function servedDocument(entry: CatalogEntry, origin: string): Record<string, unknown> {
  const doc: Record<string, unknown> = { ...entry.doc, rootUrl: `${origin}/` };
  const servicePath = str(entry.doc.servicePath) ?? '';
  if ('baseUrl' in doc) doc.baseUrl = `${origin}/${servicePath}`;
  if ('mtlsRootUrl' in doc) doc.mtlsRootUrl = `${origin}/`;
  return doc;
}

export function createDirectoryEmulatorFrom(ctx: SandboxContext, catalog: () => readonly CatalogEntry[]): Emulator {
  let cached: readonly CatalogEntry[] | undefined;
  const entries = (): readonly CatalogEntry[] => (cached ??= catalog());

  const list = (res: ServerResponse, url: URL): void => {
    const name = url.searchParams.get('name');
    const preferredRaw = url.searchParams.get('preferred');
    let preferred = false;
    if (preferredRaw !== null) {
      if (preferredRaw !== 'true' && preferredRaw !== 'false') {
        sendJson(
          res,
          400,
          error(
            400,
            'INVALID_ARGUMENT',
            'invalidParameter',
            `Invalid value for: preferred is not a valid boolean: ${preferredRaw}`,
          ),
        );
        return;
      }
      preferred = preferredRaw === 'true';
    }
    const items = entries()
      .filter((e) => (name === null || e.doc.name === name) && (!preferred || e.preferred))
      .map((e) => directoryItem(e, ctx.origin()));
    const body: DirectoryList = { kind: 'discovery#directoryList', discoveryVersion: 'v1' };
    // The real service leaves `items` out when nothing matches.
    if (items.length) body.items = items;
    sendJson(res, 200, body);
  };

  const getRest = (res: ServerResponse, api: string, version: string): void => {
    const entry = entries().find((e) => e.doc.name === api && e.doc.version === version);
    if (!entry) {
      sendJson(res, 404, error(404, 'NOT_FOUND', 'notFound', `Requested entity was not found.`));
      return;
    }
    sendJson(res, 200, servedDocument(entry, ctx.origin()));
  };

  return {
    name: 'directory',
    prefixes: [DIRECTORY_PATH_PREFIX],
    handle(req: IncomingMessage, res: ServerResponse, url: URL) {
      settleBodyAfterAnswer(req, res);
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        sendJson(
          res,
          405,
          error(
            405,
            'METHOD_NOT_ALLOWED',
            'httpMethodNotAllowed',
            `Method ${req.method} is not allowed on ${url.pathname}.`,
          ),
          { allow: 'GET' },
        );
        return;
      }
      const rest = url.pathname.slice(DIRECTORY_PATH_PREFIX.length);
      if (rest === '/apis' || rest === '/apis/') return list(res, url);
      const m = /^\/apis\/([^/]+)\/([^/]+)\/rest\/?$/.exec(rest);
      if (m) {
        const [api, version] = [decodeSegment(m[1]), decodeSegment(m[2])];
        if (api === undefined || version === undefined) {
          sendJson(
            res,
            400,
            error(400, 'INVALID_ARGUMENT', 'badRequest', 'The request path has an invalid percent-encoded segment.'),
          );
          return;
        }
        return getRest(res, api, version);
      }
      sendJson(res, 404, error(404, 'NOT_FOUND', 'notFound', `No discovery endpoint at ${url.pathname}.`));
    },
  };
}

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

export const createDirectoryEmulator: EmulatorFactory = (ctx) => createDirectoryEmulatorFrom(ctx, () => CATALOG);
