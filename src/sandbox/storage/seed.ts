// Deterministic sample data: the same ids, titles, dates and bytes on every start, so tests and
// screenshots can name things. Covers folders, a folder that needs paging, several MIME types,
// workspace documents, a file in two folders, trashed items, a shared drive, a file shared with me.
import { FOLDER_MIME, SHORTCUT_MIME } from '../../shared/wire/storage';
import { makeId, type StoreState, type StoredFile, type StoredUser } from './model';
import { driveRootRecord, newDriveRecord, newFileRecord, newRevision, userPermission } from './records';
import type { BlobStore } from './blobs';

export const SEED_PHOTO_COUNT = 230;

const T0 = Date.parse('2026-01-05T09:00:00.000Z');
const HOUR = 3_600_000;

// A 1×1 transparent PNG: real bytes so previews and checksums behave like the real thing.
const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

export function seedState(blobs: BlobStore): StoreState {
  const me: StoredUser = {
    permissionId: '01234567890123456789',
    displayName: 'Sandbox User',
    emailAddress: 'sandbox.user@example.com',
  };
  const partner: StoredUser = {
    permissionId: '09876543210987654321',
    displayName: 'Alex Partner',
    emailAddress: 'alex.partner@example.org',
  };
  const teammate: StoredUser = {
    permissionId: '05555555555555555555',
    displayName: 'Robin Teammate',
    emailAddress: 'robin.teammate@example.com',
  };
  let n = 0;
  const id = () => makeId('seed', ++n);
  const rootId = '0AAsandboxRootFolderUk9PVA';
  const files: Record<string, StoredFile> = {};
  let clock = 0;
  const nextDate = () => new Date(T0 + clock++ * HOUR).toISOString();

  const add = (title: string, mimeType: string, parents: string[], extra: Partial<StoredFile> = {}): StoredFile => {
    const date = nextDate();
    const f: StoredFile = {
      ...newFileRecord({
        id: extra.id ?? id(),
        title,
        mimeType,
        parents,
        date,
        owner: me,
        permissions: [userPermission(me, 'owner')],
        touchedByMe: true,
      }),
      ...extra,
    };
    if (f.content && !f.mimeType.startsWith('application/vnd.google-apps.')) {
      f.originalFilename ??= title;
      f.revisions.push(
        newRevision({
          id: makeId('rev', ++n, 24),
          mimeType,
          date,
          userId: f.lastModifyingUserId,
          originalFilename: f.originalFilename,
          content: f.content,
        }),
      );
    } else if (f.content) {
      f.revisions.push(
        newRevision({
          id: String(f.revisions.length + 1),
          mimeType,
          date,
          userId: f.lastModifyingUserId,
          content: f.content,
        }),
      );
    }
    files[f.id] = f;
    return f;
  };
  const text = (s: string) => blobs.putBytes(Buffer.from(s, 'utf8'));
  const bytes = (b: Buffer) => blobs.putBytes(b);

  files[rootId] = newFileRecord({
    id: rootId,
    title: 'My Drive',
    mimeType: FOLDER_MIME,
    parents: [],
    date: new Date(T0 - 24 * HOUR).toISOString(),
    owner: me,
    permissions: [userPermission(me, 'owner')],
    touchedByMe: false,
  });

  const projects = add('Projects', FOLDER_MIME, [rootId], { starred: true, folderColorRgb: '#4986e7' });
  const photos = add('Photos', FOLDER_MIME, [rootId]);
  const reports = add('Reports', FOLDER_MIME, [rootId]);
  const archive = add('Archive', FOLDER_MIME, [rootId]);
  add('README.txt', 'text/plain', [rootId], {
    content: text('Welcome to the API Workbench storage sandbox.\nEverything here is sample data.\n'),
  });
  const roadmap = add('Roadmap', 'application/vnd.google-apps.document', [projects.id], {
    content: text('Roadmap\n\n1. Ship the storage tree.\n2. Save back with If-Match.\n3. Resumable uploads.\n'),
    description: 'Plans for the next two quarters',
  });
  roadmap.comments.push({
    commentId: makeId('comment', 1, 20),
    createdDate: roadmap.createdDate,
    modifiedDate: roadmap.createdDate,
    authorId: partner.permissionId,
    content: 'Can we move resumable uploads earlier?',
    status: 'open',
    deleted: false,
    context: { type: 'text/html', value: 'Resumable uploads' },
    replies: [
      {
        replyId: makeId('reply', 1, 20),
        createdDate: roadmap.createdDate,
        modifiedDate: roadmap.createdDate,
        authorId: me.permissionId,
        content: 'Yes, right after save back.',
        deleted: false,
      },
    ],
  });
  roadmap.permissions.push(userPermission(partner, 'writer'));
  add('budget.csv', 'text/csv', [projects.id], { content: text('item,amount\nservers,1200\nlicences,300\n') });
  add('notes.md', 'text/markdown', [projects.id], {
    content: text('# Notes\n\n- storage emulator\n- tree view\n'),
    properties: [
      { key: 'reviewed', value: 'true', visibility: 'PUBLIC', version: 1 },
      { key: 'syncToken', value: 'a1b2', visibility: 'PRIVATE', version: 1 },
    ],
  });
  const design = add('Design', FOLDER_MIME, [projects.id]);
  add('logo.png', 'image/png', [design.id], { content: bytes(PNG_1PX) });
  add('mockup.svg', 'image/svg+xml', [design.id], {
    content: text(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#4986e7"/></svg>\n',
    ),
  });
  add('team-contacts.json', 'application/json', [projects.id, reports.id], {
    content: text('{"team":["Sandbox User","Robin Teammate"]}\n'),
  });
  add('Sales', 'application/vnd.google-apps.spreadsheet', [reports.id], {
    content: text('region,q1,q2\nnorth,10,12\nsouth,7,9\n'),
  });
  add('Quarterly deck', 'application/vnd.google-apps.presentation', [reports.id], {
    content: text('Quarterly review\nRevenue up\n'),
  });
  add('Q1 report.pdf', 'application/pdf', [reports.id], { content: bytes(minimalPdf('Q1 report')) });
  add('Architecture', 'application/vnd.google-apps.drawing', [reports.id], {
    content: text(
      '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#ccc"/></svg>\n',
    ),
  });
  add('Shortcut to Projects', SHORTCUT_MIME, [reports.id], { shortcutTargetId: projects.id });
  add('2025 taxes.zip', 'application/zip', [archive.id], { content: text('PK\u0005\u0006' + '\u0000'.repeat(18)) });
  const oldDraft = add('old-draft.txt', 'text/plain', [rootId], { content: text('an old draft\n') });
  oldDraft.trashed = true;
  oldDraft.explicitlyTrashed = true;
  oldDraft.trashedDate = oldDraft.modifiedDate;
  oldDraft.trashingUserId = me.permissionId;
  const oldFolder = add('Old stuff', FOLDER_MIME, [archive.id]);
  const oldChild = add('leftover.txt', 'text/plain', [oldFolder.id], { content: text('leftover\n') });
  for (const f of [oldFolder, oldChild]) {
    f.trashed = true;
    f.trashedDate = f.modifiedDate;
    f.trashingUserId = me.permissionId;
  }
  oldFolder.explicitlyTrashed = true;

  for (let i = 1; i <= SEED_PHOTO_COUNT; i++) {
    const name = `IMG_${String(i).padStart(4, '0')}.jpg`;
    add(name, 'image/jpeg', [photos.id], {
      content: bytes(
        Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from(name, 'utf8'), Buffer.from([0xff, 0xd9])]),
      ),
    });
  }

  // Owned by someone else and shared with me: reachable by id and by `sharedWithMe`, not under my root.
  add('Partner agreement.pdf', 'application/pdf', [], {
    content: bytes(minimalPdf('Partner agreement')),
    ownerId: partner.permissionId,
    lastModifyingUserId: partner.permissionId,
    sharingUserId: partner.permissionId,
    sharedWithMeDate: new Date(T0 + 2 * HOUR).toISOString(),
    modifiedByMeDate: undefined,
    permissions: [userPermission(partner, 'owner'), userPermission(me, 'reader', ['commenter'])],
  });

  const driveId = '0ABteamSpaceDriveUk9PVA';
  files[driveId] = driveRootRecord(driveId, 'Team Space', nextDate(), me);
  files[driveId].modifiedDate = nextDate();
  files[driveId].permissions.push(userPermission(teammate, 'writer'));
  add('Team charter', 'application/vnd.google-apps.document', [driveId], {
    driveId,
    content: text('Team charter\nWe ship small, tested slices.\n'),
  });
  add('on-call.csv', 'text/csv', [driveId], { driveId, content: text('week,person\n1,Robin\n2,Sandbox\n') });

  return {
    rootId,
    meId: me.permissionId,
    users: { [me.permissionId]: me, [partner.permissionId]: partner, [teammate.permissionId]: teammate },
    files,
    drives: {
      [driveId]: newDriveRecord({
        id: driveId,
        name: 'Team Space',
        colorRgb: '#0f9d58',
        themeId: 'abacus',
        createdDate: files[driveId].createdDate,
        organizer: me,
      }),
    },
    changes: [],
    nextChangeId: 1000,
    apps: [
      {
        id: '123456789012',
        name: 'Sandbox Text Editor',
        objectType: 'text file',
        shortDescription: 'Edits plain text and Markdown files.',
        longDescription: 'A sample app that opens text, Markdown and CSV files from the sandbox.',
        productUrl: 'https://example.com/text-editor',
        primaryMimeTypes: ['text/plain', 'text/markdown'],
        secondaryMimeTypes: ['text/csv', 'application/json'],
        primaryFileExtensions: ['txt', 'md'],
        secondaryFileExtensions: ['csv', 'json'],
        supportsCreate: true,
        supportsImport: false,
        supportsMultiOpen: false,
        useByDefault: true,
      },
      {
        id: '210987654321',
        name: 'Sandbox Image Viewer',
        objectType: 'image',
        shortDescription: 'Shows PNG, JPEG and SVG images.',
        longDescription: 'A sample viewer app for images stored in the sandbox.',
        productUrl: 'https://example.com/image-viewer',
        primaryMimeTypes: ['image/png', 'image/jpeg'],
        secondaryMimeTypes: ['image/svg+xml'],
        primaryFileExtensions: ['png', 'jpg'],
        secondaryFileExtensions: ['svg'],
        supportsCreate: false,
        supportsImport: false,
        supportsMultiOpen: true,
        useByDefault: false,
      },
    ],
    reservedIds: [],
    idCounter: 0,
    quotaBytesTotal: 15 * 1024 ** 3,
  };
}

/** A tiny but well-formed PDF whose only page shows `title`. */
export function minimalPdf(title: string): Buffer {
  const safe = title.replace(/[()\\]/g, (c) => '\\' + c);
  const stream = `BT /F1 18 Tf 40 100 Td (${safe}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 144] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(stream)} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) out += `${String(off).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
