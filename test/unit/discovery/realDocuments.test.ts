import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { analyzeText } from '../../../src/discovery/core';
import { listAtLoad } from '../../support/sharedData';
import { realDocumentFiles } from './helpers';

describe('real discovery documents', function () {
  this.timeout(30000);
  const { files, failIfMissing } = listAtLoad(realDocumentFiles);

  it('are present in the shared data', () => {
    failIfMissing();
    assert.ok(files.length >= 30, `only ${files.length} documents`);
  });

  for (const file of files) {
    it(`${basename(file)}: detected, zero error-level diagnostics`, () => {
      const a = analyzeText(readFileSync(file, 'utf8'));
      assert.ok(a.model, 'detected as a description document');
      const errors = a.diagnostics.filter((d) => d.severity === 'error');
      assert.deepEqual(
        errors.map((d) => `${d.code}: ${d.message}`),
        [],
      );
    });
  }
});
