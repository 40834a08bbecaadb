import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { analyzeText } from '../../../src/discovery/core';
import { flatPathFollowsPath } from '../../../src/discovery/core/rules/flatPath';
import { listAtLoad } from '../../support/sharedData';
import { minimalDocument, realDocumentFiles } from './helpers';

describe('flat-path-inconsistent', () => {
  it('accepts expansions whose variable names differ from the path parameters', () => {
    assert.equal(
      flatPathFollowsPath('v1/{+name}:cancel', 'v1/projects/{projectsId}/operations/{operationsId}:cancel'),
      true,
    );
    assert.equal(flatPathFollowsPath('v1/{+parent}/items', 'v1/projects/{projectsId}/items'), true);
    assert.equal(flatPathFollowsPath('b/{bucket}/o/{object}', 'b/{b}/o/{o}'), true);
    assert.equal(flatPathFollowsPath('v1/items', 'v1/items'), true);
  });

  it('rejects literal disagreement, a {var} that is not one variable, and an empty {+var}', () => {
    assert.equal(flatPathFollowsPath('v1/items/{name}', 'v1/item/{itemsId}'), false);
    assert.equal(flatPathFollowsPath('v1/{+name}:cancel', 'v1/projects/{projectsId}:stop'), false);
    assert.equal(flatPathFollowsPath('v1/items/{name}', 'v1/items/fixed'), false);
    assert.equal(flatPathFollowsPath('v1/items/{name}', 'v1/items/{a}/{b}'), false);
    assert.equal(flatPathFollowsPath('v1/{+name}/x', 'v1//x'), false);
    assert.equal(flatPathFollowsPath('v1/items', 'v1/items/'), false);
  });

  it('reports reserved forms inside flatPath on the flatPath value', () => {
    const doc = minimalDocument();
    doc.resources.items.methods.get.flatPath = 'v1/{+name}';
    const hits = analyzeText(JSON.stringify(doc, null, 2)).diagnostics.filter(
      (d) => d.code === 'flat-path-inconsistent',
    );
    assert.equal(hits.length, 1);
    assert.match(hits[0].message, /\{\+name\}/);
  });

  it('stays silent on a consistent flatPath', () => {
    const doc = minimalDocument();
    doc.resources.items.methods.get.flatPath = 'v1/shelves/{shelvesId}/items/{itemsId}';
    assert.deepEqual(
      analyzeText(JSON.stringify(doc)).diagnostics.filter((d) => d.code === 'flat-path-inconsistent'),
      [],
    );
  });

  it('gives up quietly on absurdly long templates instead of stalling', () => {
    const long = 'a/'.repeat(2000);
    assert.equal(flatPathFollowsPath(`{+x}${long}{+y}`, `${long}${long}`), undefined);
  });

  describe('real documents', function () {
    this.timeout(30000);
    const { files, failIfMissing } = listAtLoad(realDocumentFiles);
    it('are present in the shared data', failIfMissing);
    for (const file of files) {
      it(`${basename(file)}: no findings`, () => {
        const found = analyzeText(readFileSync(file, 'utf8')).diagnostics.filter(
          (d) => d.code === 'flat-path-inconsistent',
        );
        assert.deepEqual(
          found.map((d) => d.message),
          [],
        );
      });
    }
  });
});
