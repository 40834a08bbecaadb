// The emulator's `q` language read directly: long chains must parse and evaluate without recursing per term.
import * as assert from 'node:assert/strict';
import {
  evaluate,
  evaluateDrive,
  parseQuery,
  QuerySyntaxError,
  type QueryEnv,
} from '../../../src/sandbox/storage/query';
import type { StoredFile } from '../../../src/sandbox/storage/model';

const env: QueryEnv = { rootId: 'root', meId: 'me', emailOf: () => 'me@example.com', fullTextOf: (f) => f.title };
const file = (title: string) => ({ title, parents: [], permissions: [], properties: [] }) as unknown as StoredFile;

describe('storage emulator: q parser and evaluation', () => {
  it('a chain of 40 000 or-terms evaluates without a stack overflow (a batch part can carry a q of any length)', () => {
    // Before the chains became flat nodes, evaluate() recursed once per term and threw RangeError here.
    const ast = parseQuery(Array.from({ length: 40_000 }, (_, i) => `title = 'x${i}'`).join(' or '));
    assert.equal(evaluate(ast, file('x39999'), env), true);
    assert.equal(evaluate(ast, file('nope'), env), false);
    const and = parseQuery(Array.from({ length: 40_000 }, () => 'memberCount > 1').join(' and '), 'drives');
    const drive = { name: 'd', hidden: false, createdDate: '2020-01-01T00:00:00Z', organizerCount: 1 };
    assert.equal(evaluateDrive(and, { ...drive, memberCount: 2 }), true);
    assert.equal(evaluateDrive(and, { ...drive, memberCount: 1 }), false);
  });

  it('keeps and binding tighter than or, and reports where an unexpected token is', () => {
    const ast = parseQuery("title = 'a' or title = 'b' and starred = true");
    assert.equal(evaluate(ast, file('a'), env), true);
    assert.equal(evaluate(ast, { ...file('b'), starred: false }, env), false);
    assert.throws(
      () => parseQuery("title = 'a' )"),
      (e: Error) => e instanceof QuerySyntaxError && /at 12/.test(e.message),
    );
    assert.throws(() => parseQuery('   '), /empty query/);
    assert.throws(() => parseQuery("title = 'a' and"), /unexpected end of query/);
  });
});
