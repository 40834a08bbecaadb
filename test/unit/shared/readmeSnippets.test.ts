// The README's client-library snippets are the files the peer tier runs, byte for byte.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(__dirname, '..', '..', '..');

describe('README: official client library snippets', () => {
  const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
  for (const [file, fence] of [
    ['test/peer/snippets/genai-node.mjs', 'js'],
    ['test/peer/snippets/genai_python.py', 'python'],
    ['test/peer/snippets/drive_static_python.py', 'python'],
  ] as const) {
    it(`shows ${file} verbatim in a \`\`\`${fence} block`, () => {
      const code = readFileSync(resolve(root, file), 'utf8');
      assert.ok(readme.includes('```' + fence + '\n' + code + '```\n'), `README.md must show ${file} exactly`);
    });
  }
});
