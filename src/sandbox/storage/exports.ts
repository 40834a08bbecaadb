// Export of workspace documents. A document's stored body is text (CSV for sheets, SVG for
// drawings); each target format is produced from it. about.exportFormats lists exactly these.
import { minimalPdf } from './seed';
import { storedZip } from './zip';
import { ownValue } from '../../shared/wire/ownKeys';

type Converter = (body: string, title: string) => Buffer;

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
const lines = (body: string) => body.replace(/\r\n/g, '\n').split('\n');

const asText: Converter = (b) => Buffer.from(b, 'utf8');
/** Drive's plain-text export of a document starts with a UTF-8 byte order mark. */
const asTextWithBom: Converter = (b) => Buffer.from('\uFEFF' + b, 'utf8');
const asHtml: Converter = (b, title) =>
  Buffer.from(
    `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${esc(title)}</title></head><body>${lines(b)
      .map((l) => `<p>${esc(l)}</p>`)
      .join('')}</body></html>\n`,
    'utf8',
  );
const asRtf: Converter = (b) =>
  Buffer.from(
    `{\\rtf1\\ansi\\deff0{\\fonttbl{\\f0 Arial;}}\\f0 ${lines(b)
      .map((l) => l.replace(/[\\{}]/g, (c) => '\\' + c).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0)}?`))
      .join('\\par\n')}}\n`,
    'latin1',
  );
const asPdf: Converter = (b, title) => minimalPdf(lines(b)[0] || title);
const asMarkdown: Converter = (b) => {
  const [first, ...rest] = lines(b);
  return Buffer.from(`# ${first}\n${rest.join('\n')}`, 'utf8');
};
const csvToTsv: Converter = (b) =>
  Buffer.from(
    parseCsv(b)
      .map((r) => r.map((c) => c.replace(/[\t\n]/g, ' ')).join('\t'))
      .join('\n') + '\n',
    'utf8',
  );

function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else if (c !== '\r') cell += c;
  }
  if (cell !== '' || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

const docx: Converter = (b) =>
  storedZip([
    [
      '[Content_Types].xml',
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ],
    [
      '_rels/.rels',
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ],
    [
      'word/document.xml',
      `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${lines(
        b,
      )
        .map((l) => `<w:p><w:r><w:t xml:space="preserve">${esc(l)}</w:t></w:r></w:p>`)
        .join('')}</w:body></w:document>`,
    ],
  ]);
const odt: Converter = (b) =>
  storedZip([
    ['mimetype', 'application/vnd.oasis.opendocument.text'],
    [
      'META-INF/manifest.xml',
      '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>',
    ],
    [
      'content.xml',
      `<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body><office:text>${lines(
        b,
      )
        .map((l) => `<text:p>${esc(l)}</text:p>`)
        .join('')}</office:text></office:body></office:document-content>`,
    ],
  ]);
const xlsx: Converter = (b) => {
  const rows = parseCsv(b);
  const col = (i: number) => String.fromCharCode(65 + (i % 26));
  const sheet = rows
    .map(
      (r, ri) =>
        `<row r="${ri + 1}">${r.map((c, ci) => `<c r="${col(ci)}${ri + 1}" t="inlineStr"><is><t>${esc(c)}</t></is></c>`).join('')}</row>`,
    )
    .join('');
  return storedZip([
    [
      '[Content_Types].xml',
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
    ],
    [
      '_rels/.rels',
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    ],
    [
      'xl/workbook.xml',
      '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>',
    ],
    [
      'xl/_rels/workbook.xml.rels',
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
    ],
    [
      'xl/worksheets/sheet1.xml',
      `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${sheet}</sheetData></worksheet>`,
    ],
  ]);
};
const zippedHtml: Converter = (b, title) =>
  storedZip([[`${title.replace(/[^\w.-]+/g, '_') || 'document'}.html`, asHtml(b, title).toString('utf8')]]);
const scriptJson: Converter = (b, title) =>
  Buffer.from(JSON.stringify({ files: [{ name: title, type: 'server_js', source: b }] }, null, 2), 'utf8');

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** source workspace MIME type → target MIME type → converter. */
export const EXPORTS: Record<string, Record<string, Converter>> = {
  'application/vnd.google-apps.document': {
    'text/plain': asTextWithBom,
    'text/markdown': asMarkdown,
    'text/html': asHtml,
    'application/rtf': asRtf,
    'application/pdf': asPdf,
    [DOCX]: docx,
    'application/vnd.oasis.opendocument.text': odt,
    'application/zip': zippedHtml,
  },
  'application/vnd.google-apps.spreadsheet': {
    'text/csv': asText,
    'text/tab-separated-values': csvToTsv,
    'application/pdf': asPdf,
    [XLSX]: xlsx,
  },
  'application/vnd.google-apps.presentation': {
    'text/plain': asText,
    'application/pdf': asPdf,
  },
  'application/vnd.google-apps.drawing': {
    'image/svg+xml': asText,
    'application/pdf': asPdf,
  },
  'application/vnd.google-apps.script': {
    'application/vnd.google-apps.script+json': scriptJson,
  },
};

/** The service refuses exports larger than this (403 exportSizeLimitExceeded). */
export const EXPORT_LIMIT_BYTES = 10 * 1024 * 1024;

export function exportTargets(mimeType: string): string[] {
  return Object.keys(ownValue(EXPORTS, mimeType) ?? {});
}

export function convert(mimeType: string, target: string, body: Buffer, title: string): Buffer | undefined {
  const table = ownValue(EXPORTS, mimeType);
  const c = table && ownValue(table, target);
  return c ? c(body.toString('utf8'), title) : undefined;
}
