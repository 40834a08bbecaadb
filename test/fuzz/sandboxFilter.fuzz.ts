// Differential fuzz: the emulator's $filter parser gives the same tree, or the same error, as the parser it
// replaced (test/fuzz/filterReference.ts) for well-formed filters, token soup, numbers of every length and
// byte-level damage of both. Trees are compared strictly (-0 is not 0, a field's text is its exact text).
import * as assert from 'node:assert/strict';
import { parseExpr } from '../../src/sandbox/waterData/filter';
import { referenceParseExpr } from './filterReference';
import { budget, fuzz, mutateBytes, type Random } from './fuzz';

const FIELDS = ['LocationId', 'RegionId', 'CharacteristicName', 'ResultValue', 'Id', 'a', '_x.y9', 'Nope'];
const WORDS = ['and', 'AND', 'Or', 'or', 'in', 'IN', 'eq', 'EQ', 'ne', 'lt', 'gt', 'le', 'ge', 'lte', 'gte', 'Gte'];
const MORE = ['endswith', 'EndsWith', 'startswith', 'true', 'TRUE', 'false', 'null', 'Null', 'nul', 'constructor'];
const PUNCT = ['(', ')', ',', "'", "''", '-', '.', '@', '日本', '🦀', '\u0000'];
const SPACE = [' ', '  ', '\t', '\n', '\r\n', '\u00a0', ''];

function digits(r: Random, max: number): string {
  return Array.from({ length: 1 + r.int(max) }, () => (r.chance(0.2) ? '0' : String(r.int(10)))).join('');
}

function number(r: Random): string {
  const whole = digits(r, r.chance(0.2) ? 25 : 8);
  const frac = r.chance(0.5) ? `.${digits(r, r.chance(0.2) ? 30 : 6)}` : '';
  return `${r.chance(0.3) ? '-' : ''}${whole}${frac}`;
}

function text(r: Random): string {
  const body = Array.from({ length: r.int(6) }, () =>
    r.chance(0.02) ? "'''" : r.pick(["''", 'x', 'O', ' ', 'hub.r', '日', '🦀', 'and']),
  ).join('');
  return `'${body}'`;
}

function value(r: Random): string {
  if (r.chance(0.45)) return number(r);
  if (r.chance(0.8)) return text(r);
  return r.chance(0.9) ? r.pick(['true', 'TRUE', 'false', 'null', 'Null']) : r.pick(MORE);
}

function condition(r: Random): string {
  switch (r.int(5)) {
    case 0:
      return `${r.pick(FIELDS)} ${r.pick(['in', 'IN'])} (${Array.from({ length: 1 + r.int(4) }, () => value(r)).join(', ')})`;
    case 1:
      return `${r.pick(['endswith', 'EndsWith'])}(${r.pick(FIELDS)}, ${r.chance(0.9) ? text(r) : value(r)})`;
    default:
      return `${r.pick(FIELDS)} ${r.pick(WORDS.slice(6))} ${value(r)}`;
  }
}

function filter(r: Random, depth = 0): string {
  const n = 1 + r.int(depth > 2 ? 2 : 4);
  const parts = Array.from({ length: n }, () =>
    r.chance(0.3) && depth < 6 ? `(${filter(r, depth + 1)})` : condition(r),
  );
  return parts.reduce((acc, p) => `${acc}${r.pick(SPACE.slice(0, 5))}${r.pick(WORDS.slice(0, 4))} ${p}`);
}

function soup(r: Random): string {
  const kinds = [() => r.pick(FIELDS), () => r.pick(WORDS), () => r.pick(MORE), () => r.pick(PUNCT), () => value(r)];
  return Array.from({ length: 1 + r.int(12) }, () => r.pick(kinds)() + r.pick(SPACE)).join('');
}

function input(r: Random): string {
  const t = r.chance(0.7) ? filter(r) : soup(r);
  if (r.chance(0.2)) return t.slice(0, r.int(t.length + 1));
  return r.chance(0.3) ? mutateBytes(r, Buffer.from(t)).toString('utf8') : t;
}

function outcome(parse: (s: string) => unknown, s: string): unknown {
  try {
    return { tree: parse(s) };
  } catch (e) {
    return { error: `${(e as Error).constructor.name}: ${(e as Error).message}` };
  }
}

describe('fuzz: emulator $filter parser against its reference', () => {
  it('the same tree or the same error for every input', () => {
    let trees = 0;
    const n = fuzz(44, budget({ iterations: 20000, seconds: 3 }), (r) => {
      const s = input(r);
      const want = outcome(referenceParseExpr, s);
      assert.deepStrictEqual(outcome(parseExpr, s), want, JSON.stringify(s));
      if ((want as { tree?: unknown }).tree) trees++;
    });
    assert.ok(n > 0);
    // Both kinds of outcome were compared, not only errors.
    assert.ok(trees > n / 4, `only ${trees} of ${n} inputs parsed`);
  });

  it('numbers read as Number() reads them, at every length', () => {
    const n = fuzz(45, budget({ iterations: 20000, seconds: 2 }), (r) => {
      const t = number(r);
      const e = parseExpr(`Id eq ${t}`);
      assert.ok(e.kind === 'cmp');
      assert.ok(Object.is(e.value, Number(t)), `${t}: ${String(e.value)} vs ${Number(t)}`);
    });
    assert.ok(n > 0);
  });
});
