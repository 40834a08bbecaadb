// Read-only file operations: files.list, files.get (metadata and alt=media), children.list,
// parents.list/get, children.get, about.get, generateIds.
import { FOLDER_MIME, isWorkspaceDocument } from '../../../shared/wire/storage';
import { ApiError, forbidden, notFound } from '../errors';
import { fileSize, renderChild, renderFile, renderParent, renderUser, apiUrl } from '../render';
import { exportTargets } from '../exports';
import { paginate } from '../paging';
import { boolParam, enumParam, intParam } from '../params';
import type { Reply, RequestContext, Router } from '../router';
import { etagOf } from '../model';
import { blobRefOf } from '../blobs';

const EMPTY = blobRefOf(new Uint8Array(0));
import type { StorageService } from '../service';

function listMax(ctx: RequestContext, fallback: number, max: number): number {
  const n = intParam(ctx.query, 'maxResults', fallback, 0, Number.MAX_SAFE_INTEGER);
  // 0 means "server default"; anything above the cap is clamped like the real service does.
  return n === 0 ? fallback : Math.min(n, max);
}

function nextLink(ctx: RequestContext, token: string | undefined): string | undefined {
  if (!token) return undefined;
  const u = new URL(ctx.url.href);
  u.searchParams.set('pageToken', token);
  return u.href;
}

export function filesList(ctx: RequestContext, svc: StorageService): Reply {
  const q = ctx.query;
  const qText = q.get('q') ?? '';
  const ast = svc.parseQ(qText);
  const orderText = q.get('orderBy') ?? '';
  const orderBy = svc.parseOrderBy(orderText);
  const corpora = enumParam(q, 'corpora', ['default', 'domain', 'drive', 'allDrives', 'user'] as const, 'default');
  const driveId = q.get('driveId') ?? q.get('teamDriveId') ?? undefined;
  const allDrives = boolParam(q, 'includeItemsFromAllDrives', false) || boolParam(q, 'includeTeamDriveItems', false);
  const supports = boolParam(q, 'supportsAllDrives', false) || boolParam(q, 'supportsTeamDrives', false);
  if (corpora === 'drive' && !driveId) {
    throw new ApiError(400, {
      domain: 'global',
      reason: 'invalid',
      message: 'The driveId parameter must be specified if and only if corpora is set to drive.',
      locationType: 'parameter',
      location: 'driveId',
    });
  }
  if (driveId && !svc.store.state.drives[driveId]) throw notFound('Shared drive', driveId);
  if ((corpora === 'drive' || corpora === 'allDrives') && !(allDrives && supports)) {
    throw new ApiError(403, {
      domain: 'global',
      reason: 'teamDrivesSupportRequired',
      message: 'The includeItemsFromAllDrives parameter must be set to true when corpora is drive or allDrives.',
    });
  }
  const corpus =
    corpora === 'drive' && driveId
      ? { driveId }
      : corpora === 'allDrives' || (allDrives && supports)
        ? ('all' as const)
        : ('user' as const);
  const spaces = (q.get('spaces') ?? 'drive')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const ids = svc.listIds({ q: ast, qText, orderBy, orderText, corpus, spaces });
  const max = listMax(ctx, 100, 1000);
  const page = paginate(
    ids,
    q.get('pageToken'),
    max,
    `files|${qText}|${orderText}|${JSON.stringify(corpus)}|${spaces.join(',')}`,
    svc.faults.shortPageBy,
  );
  const s = svc.store.state;
  return {
    status: 200,
    json: {
      kind: 'drive#fileList',
      etag: `"${svc.store.generation}"`,
      selfLink: ctx.url.href,
      incompleteSearch: false,
      ...(page.nextPageToken ? { nextPageToken: page.nextPageToken, nextLink: nextLink(ctx, page.nextPageToken) } : {}),
      items: page.items.map((id) => renderFile(svc.store, ctx.base, s.files[id], ctx.itemFields)),
    },
  };
}

export function childrenList(ctx: RequestContext, svc: StorageService): Reply {
  const folder = svc.visibleFile(ctx.params.folderId);
  const qText = ctx.query.get('q') ?? '';
  const ast = svc.parseQ(qText);
  const orderText = ctx.query.get('orderBy') ?? '';
  const orderBy = svc.parseOrderBy(orderText);
  const ids = svc.listIds({
    q: ast,
    qText,
    orderBy,
    orderText,
    corpus: 'all',
    spaces: ['drive', 'appDataFolder'],
    within: folder.id,
  });
  const max = listMax(ctx, 100, 1000);
  const page = paginate(
    ids,
    ctx.query.get('pageToken'),
    max,
    `children|${folder.id}|${qText}|${orderText}`,
    svc.faults.shortPageBy,
  );
  return {
    status: 200,
    json: {
      kind: 'drive#childList',
      etag: `"${svc.store.generation}"`,
      selfLink: ctx.url.href,
      ...(page.nextPageToken ? { nextPageToken: page.nextPageToken, nextLink: nextLink(ctx, page.nextPageToken) } : {}),
      items: page.items.map((id) => renderChild(ctx.base, folder.id, id)),
    },
  };
}

export function childrenGet(ctx: RequestContext, svc: StorageService): Reply {
  const { folder, child } = svc.visibleChild(ctx.params.folderId, ctx.params.childId);
  return { status: 200, json: renderChild(ctx.base, folder.id, child.id) };
}

export function parentsList(ctx: RequestContext, svc: StorageService): Reply {
  const f = svc.visibleFile(ctx.params.fileId);
  return {
    status: 200,
    json: {
      kind: 'drive#parentList',
      etag: `"${f.version}"`,
      selfLink: ctx.url.href,
      items: f.parents.map((p) => renderParent(svc.store, ctx.base, f.id, p)),
    },
  };
}

export function parentsGet(ctx: RequestContext, svc: StorageService): Reply {
  const f = svc.visibleFile(ctx.params.fileId);
  const pid = svc.store.resolveId(ctx.params.parentId);
  if (!f.parents.includes(pid)) throw notFound('Parent', ctx.params.parentId);
  return { status: 200, json: renderParent(svc.store, ctx.base, f.id, pid) };
}

export function filesGet(ctx: RequestContext, svc: StorageService): Reply {
  const f = svc.visibleFile(ctx.params.fileId);
  // Shared-drive items do not exist for callers that did not say they support shared drives.
  if (
    f.driveId &&
    f.id !== f.driveId &&
    !(boolParam(ctx.query, 'supportsAllDrives', false) || boolParam(ctx.query, 'supportsTeamDrives', false))
  )
    throw notFound('File', ctx.params.fileId);
  if (ctx.query.get('alt') === 'media') return download(ctx, svc);
  if (boolParam(ctx.query, 'updateViewedDate', false)) {
    f.lastViewedByMeDate = svc.store.nowIso();
    f.viewed = true;
    svc.store.touchFile(f);
  }
  // The file's etag doubles as the HTTP ETag, so a client can revalidate a cached resource with If-None-Match.
  const etag = etagOf('file', f.id, f.version);
  if (noneMatch(ctx.req.headers['if-none-match'], etag)) return { status: 304, empty: true, headers: { etag } };
  return {
    status: 200,
    json: renderFile(svc.store, ctx.base, f, ctx.fields ? new Set(ctx.fields.keys()) : undefined),
    headers: { etag },
  };
}

function noneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

/** alt=media: the bytes of the head (or a given) revision, honouring a single `Range`. */
function download(ctx: RequestContext, svc: StorageService): Reply {
  const f = svc.visibleFile(ctx.params.fileId);
  if (f.mimeType === FOLDER_MIME || isWorkspaceDocument(f) || fileSize(f) === undefined) {
    throw new ApiError(403, {
      domain: 'global',
      reason: 'fileNotDownloadable',
      message: 'Only files with binary content can be downloaded. Use Export with Docs Editors files.',
      locationType: 'parameter',
      location: 'alt',
    });
  }
  if (f.abusive && !boolParam(ctx.query, 'acknowledgeAbuse', false)) {
    throw forbidden(
      'cannotDownloadAbusiveFile',
      'This file has been identified as malware or spam and cannot be downloaded.',
    );
  }
  let content = f.content ?? EMPTY;
  let mime = f.mimeType;
  const revisionId = ctx.query.get('revisionId');
  if (revisionId) {
    const rev = f.revisions.find((r) => r.id === revisionId);
    if (!rev) throw notFound('Revision', revisionId);
    content = rev.content;
    mime = rev.mimeType;
  }
  const range = /^bytes=(\d*)-(\d*)$/.exec(String(ctx.req.headers.range ?? ''));
  if (range && (range[1] !== '' || range[2] !== '')) {
    const total = content.size;
    let start = range[1] === '' ? Math.max(0, total - Number(range[2])) : Number(range[1]);
    let end = range[1] === '' ? total - 1 : range[2] === '' ? total - 1 : Math.min(Number(range[2]), total - 1);
    if (start >= total || start > end) {
      return {
        status: 416,
        bytes: Buffer.alloc(0),
        contentType: mime,
        headers: { 'content-range': `bytes */${total}` },
      };
    }
    start = Math.max(0, start);
    end = Math.max(start, end);
    const blob = content;
    return {
      status: 206,
      stream: () => svc.store.blobs.open(blob, { start, end }),
      length: end - start + 1,
      contentType: mime,
      headers: { 'content-range': `bytes ${start}-${end}/${total}`, 'accept-ranges': 'bytes' },
    };
  }
  const blob = content;
  if (blob.size === 0)
    return {
      status: 200,
      bytes: Buffer.alloc(0),
      contentType: mime,
      headers: { 'accept-ranges': 'bytes', 'x-goog-hash': `md5=${Buffer.from(blob.md5, 'hex').toString('base64')}` },
    };
  return {
    status: 200,
    stream: () => svc.store.blobs.open(blob),
    length: blob.size,
    contentType: mime,
    headers: { 'accept-ranges': 'bytes', 'x-goog-hash': `md5=${Buffer.from(blob.md5, 'hex').toString('base64')}` },
  };
}

export function aboutGet(ctx: RequestContext, svc: StorageService): Reply {
  const s = svc.store.state;
  let used = 0;
  let inTrash = 0;
  for (const f of Object.values(s.files)) {
    if (f.ownerId !== s.meId || f.driveId) continue;
    const size =
      (f.content?.size ?? 0) +
      f.revisions
        .slice(0, -1)
        .filter((r) => r.pinned)
        .reduce((n, r) => n + r.content.size, 0);
    used += size;
    if (f.trashed) inTrash += size;
  }
  const me = svc.store.me;
  const sources = [
    'application/vnd.google-apps.document',
    'application/vnd.google-apps.spreadsheet',
    'application/vnd.google-apps.presentation',
    'application/vnd.google-apps.drawing',
    'application/vnd.google-apps.script',
  ];
  const largest = s.nextChangeId - 1;
  return {
    status: 200,
    json: {
      kind: 'drive#about',
      etag: `"${svc.store.generation}"`,
      selfLink: apiUrl(ctx.base, 'about'),
      name: me.displayName,
      user: renderUser(svc.store, me.permissionId),
      permissionId: me.permissionId,
      rootFolderId: s.rootId,
      quotaType: 'LIMITED',
      quotaBytesTotal: String(s.quotaBytesTotal),
      quotaBytesUsed: String(used),
      quotaBytesUsedAggregate: String(used),
      quotaBytesUsedInTrash: String(inTrash),
      quotaBytesByService: [{ serviceName: 'DRIVE', bytesUsed: String(used) }],
      largestChangeId: String(largest),
      remainingChangeIds: '0',
      languageCode: 'en',
      isCurrentAppInstalled: false,
      canCreateDrives: true,
      canCreateTeamDrives: true,
      domainSharingPolicy: 'allowed',
      exportFormats: sources.map((source) => ({ source, targets: exportTargets(source) })),
      importFormats: [
        { source: 'text/plain', targets: ['application/vnd.google-apps.document'] },
        { source: 'text/markdown', targets: ['application/vnd.google-apps.document'] },
        { source: 'text/html', targets: ['application/vnd.google-apps.document'] },
        { source: 'text/csv', targets: ['application/vnd.google-apps.spreadsheet'] },
        { source: 'image/svg+xml', targets: ['application/vnd.google-apps.drawing'] },
      ],
      maxUploadSizes: [
        { type: 'application/vnd.google-apps.document', size: String(50 * 1024 * 1024) },
        { type: 'application/vnd.google-apps.spreadsheet', size: String(100 * 1024 * 1024) },
        { type: '*', size: '5497558138880' },
      ],
      features: [{ featureName: 'ocr' }, { featureName: 'translation', featureRate: 0.5 }],
      additionalRoleInfo: [{ type: '*', roleSets: [{ primaryRole: 'reader', additionalRoles: ['commenter'] }] }],
      folderColorPalette: [
        '#ac725e',
        '#d06b64',
        '#f83a22',
        '#fa573c',
        '#ff7537',
        '#ffad46',
        '#42d692',
        '#16a765',
        '#7bd148',
        '#b3dc6c',
        '#fbe983',
        '#fad165',
        '#92e1c0',
        '#9fe1e7',
        '#9fc6e7',
        '#4986e7',
        '#9a9cff',
        '#b99aff',
        '#c2c2c2',
        '#cabdbf',
        '#cca6ac',
        '#f691b2',
        '#cd74e6',
        '#a47ae2',
      ],
      driveThemes: [
        { id: 'abacus', backgroundImageLink: 'https://example.com/sandbox/themes/abacus.jpg', colorRgb: '#0f9d58' },
        {
          id: 'mountains',
          backgroundImageLink: 'https://example.com/sandbox/themes/mountains.jpg',
          colorRgb: '#4285f4',
        },
      ],
    },
  };
}

export function generateIds(ctx: RequestContext, svc: StorageService): Reply {
  const max = intParam(ctx.query, 'maxResults', 10, 1, 1000);
  const space = enumParam(ctx.query, 'space', ['drive', 'appDataFolder', 'photos'] as const, 'drive');
  enumParam(ctx.query, 'type', ['files', 'shortcuts'] as const, 'files');
  const ids: string[] = [];
  for (let i = 0; i < max; i++) ids.push(svc.store.newId());
  svc.store.reserveIds(ids);
  return { status: 200, json: { kind: 'drive#generatedIds', space, ids } };
}

export function registerReadRoutes(r: Router<StorageService>): void {
  r.add('GET', 'about', aboutGet);
  r.add('GET', 'files', filesList);
  r.add('GET', 'files/generateIds', generateIds);
  r.add('GET', 'files/{fileId}', filesGet);
  r.add('GET', 'files/{folderId}/children', childrenList);
  r.add('GET', 'files/{folderId}/children/{childId}', childrenGet);
  r.add('GET', 'files/{fileId}/parents', parentsList);
  r.add('GET', 'files/{fileId}/parents/{parentId}', parentsGet);
}
