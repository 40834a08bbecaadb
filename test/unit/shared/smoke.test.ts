import * as assert from 'node:assert/strict';
import { parseTree } from 'jsonc-parser';
describe('toolchain', () => {
  it('runs TypeScript tests with bundled deps', () => {
    assert.equal(parseTree('{"a":1}')?.children?.length, 1);
  });
});
