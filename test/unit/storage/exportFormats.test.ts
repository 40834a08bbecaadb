import * as assert from 'node:assert/strict';
import { DOWNLOAD_EXPORT, exportChoices, extensionOf } from '../../../src/storage/core/exportFormats';

describe('storage core: export formats', () => {
  it('labels export choices by extension where known, by MIME type otherwise', () => {
    assert.deepEqual(exportChoices({ 'application/pdf': 'u1', 'application/x-unknown': 'u2' }), [
      { label: '.pdf', mimeType: 'application/pdf' },
      { label: 'application/x-unknown', mimeType: 'application/x-unknown' },
    ]);
  });

  it('knows no extension for names that are not export types (prototype keys included)', () => {
    assert.equal(extensionOf('text/csv'), 'csv');
    assert.equal(extensionOf('constructor'), undefined);
    assert.equal(extensionOf('__proto__'), undefined);
  });

  it('downloads each workspace type in a format whose extension matches its MIME type', () => {
    for (const [type, fmt] of Object.entries(DOWNLOAD_EXPORT)) assert.equal(extensionOf(fmt.mime), fmt.ext, type);
  });
});
