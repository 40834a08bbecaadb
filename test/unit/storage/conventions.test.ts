import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { nameSelection } from '../../../src/storage/core/storePaths';

interface MenuItem {
  command: string;
  when?: string;
}
const menus = () =>
  (JSON.parse(readFileSync('src/storage/contributes.json', 'utf8')) as { menus: Record<string, MenuItem[]> }).menus;

describe('storage: VS Code conventions', () => {
  it('rename selects the name without its extension', () => {
    assert.deepEqual(nameSelection('report.final.pdf'), [0, 12]);
    assert.deepEqual(nameSelection('README'), [0, 6]);
    assert.deepEqual(nameSelection('.env'), [0, 4], 'a leading dot is part of the name');
    assert.deepEqual(nameSelection('photos.2024', true), [0, 11], 'a folder has no extension');
  });

  it('Sign In and Sign Out are never offered together (opposite when clauses on one context key)', () => {
    for (const menu of ['view/title', 'commandPalette']) {
      const when = (id: string) => menus()[menu].find((m) => m.command === `apiWorkbench.storage.${id}`)?.when ?? '';
      assert.match(when('signIn'), /!apiWorkbench\.storage\.signedIn\b/, menu);
      assert.match(when('signOut'), /(^|&& )apiWorkbench\.storage\.signedIn\b/, menu);
      assert.doesNotMatch(when('signOut'), /!apiWorkbench\.storage\.signedIn/, menu);
    }
  });
});
