import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const grammar = JSON.parse(readFileSync(join(root, 'syntaxes/water-query.tmLanguage.json'), 'utf8'));
const contributes = JSON.parse(readFileSync(join(root, 'src/waterData/contributes.json'), 'utf8'));

/** Oniguruma's inline case-insensitive groups become plain groups with the i flag, enough to compile in JS. */
function toJs(re: string): RegExp {
  return new RegExp(re.replace(/^\(\?i\)/, '').replace(/\(\?i:/g, '(?:'), 'i');
}

function matches(patterns: { match?: string; include?: string; patterns?: unknown[] }[]): RegExp[] {
  const out: RegExp[] = [];
  for (const p of patterns) {
    if (p.match) out.push(toJs(p.match));
    if (p.patterns) out.push(...matches(p.patterns as typeof patterns));
  }
  return out;
}

describe('waterData TextMate grammar', () => {
  it('is the grammar the contribution names, and every include resolves', () => {
    const g = contributes.grammars.find((x: { language: string }) => x.language === 'water-query');
    assert.equal(g.scopeName, grammar.scopeName);
    assert.equal(g.path, './syntaxes/water-query.tmLanguage.json');
    for (const p of grammar.patterns) if (p.include) assert.ok(grammar.repository[p.include.slice(1)], p.include);
  });

  it('its expressions compile and recognise the query pieces', () => {
    const all = [
      ...matches(grammar.patterns),
      ...Object.values(grammar.repository).flatMap((r) => matches([r as never])),
    ];
    assert.ok(all.length >= 12);
    const request = toJs(grammar.repository.request.match);
    assert.ok(request.test('/Observations?$top=5'));
    assert.ok(request.test('GET https://api.datastream.org/v1/odata/v4/Metadata'));
    const option = toJs(grammar.repository.option.match);
    assert.ok(option.test('&$filter='));
    assert.ok(option.test('$select = Id'));
    const ops = grammar.repository.expression.patterns.map((p: { match: string }) => toJs(p.match));
    assert.ok(ops.some((r: RegExp) => r.test(' gte ')));
    assert.ok(ops.some((r: RegExp) => r.test("'Temperature, water'")));
  });
});
