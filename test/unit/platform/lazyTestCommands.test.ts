// A `_test` command that a feature registers but the entry does not stub is missing until that feature
// happens to be loaded: a host test calling it first fails with "command not found".
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FEATURES } from '../../../src/platform/lazy/chunks';
import { TEST_COMMANDS } from '../../../src/platform/lazy/testCommands';

function registeredTestCommands(dir: string): string[] {
  const ids: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile() || !e.name.endsWith('.ts')) continue;
    const text = readFileSync(join(e.parentPath, e.name), 'utf8');
    for (const m of text.matchAll(/'(apiWorkbench\.[\w.]*_test\w*)'/g)) ids.push(m[1]);
  }
  return [...new Set(ids)].sort();
}

describe('lazy loading: test command stubs', () => {
  for (const feature of FEATURES) {
    it(`every _test command of ${feature} is stubbed by the entry`, () => {
      const registered = registeredTestCommands(join('src', feature));
      assert.deepEqual([...TEST_COMMANDS[feature]].sort(), registered);
    });
  }

  it('the scan finds the test commands (a broken pattern would pass vacuously)', () => {
    assert.ok(registeredTestCommands(join('src', 'storage')).includes('apiWorkbench.storage._testConnectError'));
  });
});
