// The .prompt TextMate grammar: it is the one the contribution names, its includes resolve, its expressions
// compile, and they take the pieces of a template they are meant for.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAs } from '../../support/typedJson';

interface Rule {
  match?: string;
  begin?: string;
  end?: string;
  include?: string;
  patterns?: Rule[];
}
interface Grammar {
  scopeName: string;
  patterns: Rule[];
  repository: Record<string, Rule>;
}
interface Contributes {
  languages: { id: string; extensions: string[]; configuration: string }[];
  grammars: { language: string; scopeName: string; path: string; embeddedLanguages?: Record<string, string> }[];
}

const root = join(__dirname, '..', '..', '..');
const grammar = parseAs<Grammar>(readFileSync(join(root, 'syntaxes/dotprompt.tmLanguage.json'), 'utf8'));
const contributes = parseAs<Contributes>(readFileSync(join(root, 'src/generation/contributes.json'), 'utf8'));

/** Oniguruma's \A and \G have no JavaScript form; ^ is close enough to compile and try them. */
const js = (re: string) => new RegExp(re.replace(/\\A|\\G/g, '^'), 'm');

function rules(list: Rule[]): Rule[] {
  return list.flatMap((r) => [r, ...rules(r.patterns ?? [])]);
}

describe('dotprompt TextMate grammar', () => {
  it('is contributed for .prompt files, with the frontmatter embedded as YAML', () => {
    const lang = contributes.languages.find((l) => l.id === 'dotprompt');
    assert.deepEqual(lang?.extensions, ['.prompt']);
    readFileSync(join(root, lang.configuration), 'utf8');
    const g = contributes.grammars.find((x) => x.language === 'dotprompt');
    assert.equal(g?.scopeName, grammar.scopeName);
    assert.equal(g.path, './syntaxes/dotprompt.tmLanguage.json');
    assert.deepEqual(Object.values(g.embeddedLanguages ?? {}), ['yaml']);
  });

  it('every include resolves and every expression compiles', () => {
    const all = rules([...grammar.patterns, ...Object.values(grammar.repository)]);
    for (const r of all) {
      if (r.include?.startsWith('#')) assert.ok(grammar.repository[r.include.slice(1)], r.include);
      for (const re of [r.match, r.begin, r.end]) if (re) js(re);
    }
  });

  it('takes the frontmatter fences, helpers, blocks, partials and comments', () => {
    const repo = grammar.repository;
    assert.ok(js(repo.frontmatter.begin!).test('---'));
    assert.ok(js(repo.partial.match!).test('{{> tone}}'));
    assert.ok(js(repo.block.begin!).test('{{#if days}}'));
    assert.ok(js(repo.block.begin!).test('{{else}}'));
    assert.ok(js(repo.comment.patterns![0].begin!).test('{{!-- note --}}'));
    const helper = repo.expression.patterns![0].match!;
    for (const h of ['role', 'media', 'history', 'section', 'json', 'ifEquals', 'unlessEquals'])
      assert.ok(js(helper).test(` ${h} "x"`), h);
    assert.ok(!js(helper).test(' city'));
  });
});
