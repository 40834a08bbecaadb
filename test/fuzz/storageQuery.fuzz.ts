// Differential fuzz: the storage emulator's `q` parser gives the same tree, or the same error, as the parser
// it replaced (test/fuzz/queryReference.ts), in both dialects, for well-formed queries, token soup and
// byte-level damage of both.
import * as assert from 'node:assert/strict';
import { parseQuery, type QueryDialect } from '../../src/sandbox/storage/query';
import { referenceParseQuery } from './queryReference';
import { budget, fuzz, mutateBytes, type Random } from './fuzz';

const TERMS = ['title', 'fullText', 'mimeType', 'modifiedDate', 'trashed', 'starred', 'name', 'memberCount', 'nope'];
const OPS = ['contains', 'CONTAINS', '=', '!=', '<', '<=', '>', '>=', '==', 'has', 'in'];
const WORDS = ['and', 'AND', 'or', 'Or', 'not', 'NOT', 'in', 'parents', 'owners', 'readers', 'properties'];
const PUNCT = ['(', ')', '{', '}', '!', '\\', "'", '"', '-', '.', '日本', '🦀', '\u00a0', '\u2028', '\t'];
const SPACE = [' ', '  ', '\t', '\n', '\u00a0', '\u3000', '\ufeff'];

function str(r: Random): string {
  const q = r.chance(0.8) ? "'" : '"';
  const body = Array.from({ length: r.int(6) }, () =>
    r.pick(['x', "\\'", '\\"', '\\\\', '\\n', ' ', '2020-01-01T00:00:00Z', '日', 'r', q === "'" ? '"' : "'"]),
  ).join('');
  return `${q}${body}${q}`;
}

function value(r: Random): string {
  if (r.chance(0.3)) return `${r.chance(0.2) ? '-' : ''}${r.int(1000)}${r.chance(0.3) ? `.${r.int(100)}` : ''}`;
  if (r.chance(0.3)) return r.pick(['true', 'FALSE', 'True', 'yes']);
  return r.chance(0.5) ? `'${r.pick(['2020-01-01T00:00:00Z', '2020-13-01', 'x'])}'` : str(r);
}

function term(r: Random, d: QueryDialect): string {
  if (r.chance(0.15)) return `${r.pick(TERMS)} ${r.pick(OPS)} ${value(r)}`;
  if (r.chance(0.1)) return `${r.pick(WORDS.slice(4, 6))} ${term(r, d)}`;
  const date = () => `${r.pick(OPS.slice(2, 8))} '2020-01-0${r.int(9)}T00:00:00Z'`;
  const bool = () => `${r.pick(['=', '!='])} ${r.pick(['true', 'False'])}`;
  if (d === 'drives')
    return r.pick([
      () => `name ${r.pick(['contains', 'Contains', '=', '!='])} ${str(r)}`,
      () => `createdDate ${date()}`,
      () => `hidden ${bool()}`,
      () => `${r.pick(['memberCount', 'organizerCount'])} ${r.pick(OPS.slice(2, 8))} ${value(r)}`,
    ])();
  return r.pick([
    () => `${r.pick(['title', 'mimeType'])} ${r.pick(['contains', 'Contains', '=', '!='])} ${str(r)}`,
    () => `${r.pick(['modifiedDate', 'createdDate'])} ${date()}`,
    () => `${r.pick(['trashed', 'starred', 'hidden'])} ${bool()}`,
    () => `${str(r)} in ${r.pick(WORDS.slice(7))}`,
    () => `${r.pick(['properties', 'appProperties'])} has { key=${str(r)} and value = ${str(r)} }`,
  ])();
}

function query(r: Random, d: QueryDialect, depth = 0): string {
  const parts = Array.from({ length: 1 + r.int(4) }, () =>
    r.chance(0.3) && depth < 5 ? `(${query(r, d, depth + 1)})` : term(r, d),
  );
  return parts.reduce((acc, p) => `${acc}${r.pick(SPACE)}${r.pick(WORDS.slice(0, 4))} ${p}`);
}

function soup(r: Random): string {
  const kinds = [() => r.pick(TERMS), () => r.pick(OPS), () => r.pick(WORDS), () => r.pick(PUNCT), () => value(r)];
  return Array.from({ length: 1 + r.int(12) }, () => r.pick(kinds)() + r.pick(['', ...SPACE])).join('');
}

function input(r: Random, d: QueryDialect): string {
  const t = r.chance(0.7) ? query(r, d) : soup(r);
  if (r.chance(0.2)) return t.slice(0, r.int(t.length + 1));
  return r.chance(0.3) ? mutateBytes(r, Buffer.from(t)).toString('utf8') : t;
}

function outcome(parse: (q: string, d: QueryDialect) => unknown, q: string, d: QueryDialect): unknown {
  try {
    return { tree: parse(q, d) };
  } catch (e) {
    return { error: `${(e as Error).constructor.name}: ${(e as Error).message}` };
  }
}

describe('fuzz: storage emulator q parser against its reference', () => {
  it('the same tree or the same error for every input, in both dialects', () => {
    let trees = 0;
    const n = fuzz(46, budget({ iterations: 20000, seconds: 3 }), (r) => {
      const d: QueryDialect = r.chance(0.7) ? 'files' : 'drives';
      const q = input(r, d);
      const want = outcome(referenceParseQuery, q, d);
      assert.deepStrictEqual(outcome(parseQuery, q, d), want, `${d}: ${JSON.stringify(q)}`);
      if ((want as { tree?: unknown }).tree) trees++;
    });
    assert.ok(n > 0);
    // Both kinds of outcome were compared, not only errors.
    assert.ok(trees > n / 10, `only ${trees} of ${n} inputs parsed`);
  });
});
