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

  it('agrees with the exhaustive table comparison on generated templates (the linear matcher is exact)', () => {
    // The reference fills the whole (path units × flatPath units) table; the rule uses a wildcard
    // matcher that is linear on real paths. They must agree everywhere, surrogate pairs included.
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648) >>> 8) % n;
    const pathPieces = ['a', 'b', '/', ':', '{x}', '{+x}', '{/x*}', '{a,b}', '{', '}', '\u{1F600}', '{#x}'];
    const flatPieces = ['a', 'b', '/', ':', '{v}', '{w}', '{', '}', '\u{1F600}', '\ud83d'];
    const gen = (pieces: string[]) => Array.from({ length: rand(7) }, () => pieces[rand(pieces.length)]).join('');
    for (let i = 0; i < 20000; i++) {
      const path = gen(pathPieces);
      const flat = rand(3) === 0 ? path.replace(/\{[^{}]*\}/g, '{v}') : gen(flatPieces);
      assert.equal(flatPathFollowsPath(path, flat), exhaustive(path, flat), `path ${path} flat ${flat}`);
    }
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

/** Reference: p[i..] matches f[j..], over the full table (the rule's former implementation). */
function exhaustive(path: string, flat: string): boolean {
  const VAR = Symbol('var');
  const f: (string | symbol)[] = [];
  let last = 0;
  for (const m of flat.matchAll(/\{([^{}]*)\}/g)) {
    f.push(...flat.slice(last, m.index), VAR);
    last = m.index + m[0].length;
  }
  f.push(...flat.slice(last));
  const p: ({ ch: string } | 'one' | 'many')[] = [];
  last = 0;
  for (const m of path.matchAll(/\{([+#./;?&]?)([^{}]*)\}/g)) {
    p.push(...[...path.slice(last, m.index)].map((ch) => ({ ch })));
    p.push(m[1] === '' && !m[2].includes(',') && !m[2].endsWith('*') ? 'one' : 'many');
    last = m.index + m[0].length;
  }
  p.push(...[...path.slice(last)].map((ch) => ({ ch })));
  const memo = new Map<string, boolean>();
  const ok = (i: number, j: number): boolean => {
    const key = `${i},${j}`;
    if (memo.has(key)) return memo.get(key)!;
    let v: boolean;
    if (i === p.length) v = j === f.length;
    else if (j === f.length) v = false;
    else {
      const u = p[i];
      if (u === 'one') v = f[j] === VAR && ok(i + 1, j + 1);
      else if (u === 'many') v = ok(i + 1, j + 1) || ok(i, j + 1);
      else v = f[j] === u.ch && ok(i + 1, j + 1);
    }
    memo.set(key, v);
    return v;
  };
  return ok(0, 0);
}
