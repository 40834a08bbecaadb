// A local folder read as path → md5 (folders as "dir"), without the sync's state folder: what the sync tests of
// every tier compare with the store's tree.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { STATE_DIR } from '../../src/storage/core/sync/state';

export type Tree = Record<string, string>;

export const md5 = (b: Buffer | string) => createHash('md5').update(b).digest('hex');

export function localTree(dir: string): Tree {
  const out = Object.create(null) as Tree; // a file may be called __proto__
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (!rel && e.name === STATE_DIR) continue;
      if (e.isDirectory()) {
        out[p] = 'dir';
        walk(p);
      } else out[p] = md5(fs.readFileSync(path.join(dir, p)));
    }
  };
  walk('');
  return { ...out }; // a plain object again (a spread keeps a key named __proto__ as a key)
}
