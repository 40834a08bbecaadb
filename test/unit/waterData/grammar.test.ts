import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAs } from '../../support/typedJson';

/** A TextMate rule, as far as these tests read one. */
interface GrammarRule {
  match?: string;
  include?: string;
  patterns?: GrammarRule[];
}
interface Grammar {
  scopeName: string;
  patterns: GrammarRule[];
  repository: Record<string, GrammarRule>;
}
interface Contributes {
  grammars: { language: string; scopeName: string; path: string }[];
}

const root = join(__dirname, '..', '..', '..');
const grammar = parseAs<Grammar>(readFileSync(join(root, 'syntaxes/water-query.tmLanguage.json'), 'utf8'));
const contributes = parseAs<Contributes>(readFileSync(join(root, 'src/waterData/contributes.json'), 'utf8'));

/** Oniguruma's inline case-insensitive groups become plain groups with the i flag, enough to compile in JS. */
function toJs(re: string): RegExp {
  return new RegExp(re.replace(/^\(\?i\)/, '').replace(/\(\?i:/g, '(?:'), 'i');
}

function matchOf(rule: GrammarRule | undefined): RegExp {
  assert.ok(rule?.match, 'a rule with a match expression');
  return toJs(rule.match);
}

function matches(patterns: GrammarRule[]): RegExp[] {
  const out: RegExp[] = [];
  for (const p of patterns) {
    if (p.match) out.push(toJs(p.match));
    if (p.patterns) out.push(...matches(p.patterns));
  }
  return out;
}

describe('waterData TextMate grammar', () => {
  it('is the grammar the contribution names, and every include resolves', () => {
    const g = contributes.grammars.find((x) => x.language === 'water-query');
    assert.ok(g, 'the water-query grammar contribution');
    assert.equal(g.scopeName, grammar.scopeName);
    assert.equal(g.path, './syntaxes/water-query.tmLanguage.json');
    for (const p of grammar.patterns) if (p.include) assert.ok(grammar.repository[p.include.slice(1)], p.include);
  });

  it('its expressions compile and recognise the query pieces', () => {
    const all = [...matches(grammar.patterns), ...Object.values(grammar.repository).flatMap((r) => matches([r]))];
    assert.ok(all.length >= 12);
    const request = matchOf(grammar.repository.request);
    assert.ok(request.test('/Observations?$top=5'));
    assert.ok(request.test('GET https://api.datastream.org/v1/odata/v4/Metadata'));
    const option = matchOf(grammar.repository.option);
    assert.ok(option.test('&$filter='));
    assert.ok(option.test('$select = Id'));
    const ops = (grammar.repository.expression.patterns ?? []).map(matchOf);
    assert.ok(ops.some((r) => r.test(' gte ')));
    assert.ok(ops.some((r) => r.test("'Temperature, water'")));
  });
});
