// The input variables a template reads at its top level ({{city}}, {{#if days}}, {{json item}}), with their
// template lines, from Handlebars' syntax tree. Inside {{#each}} and {{#with}} the context is another value,
// so names there are not input variables; helpers and @data are not either.
import Handlebars from 'handlebars/dist/cjs/handlebars.js';

const HELPERS = new Set([
  'role',
  'media',
  'history',
  'section',
  'json',
  'ifEquals',
  'unlessEquals',
  'if',
  'unless',
  'each',
  'with',
  'lookup',
  'log',
]);
const CONTEXT_CHANGING = new Set(['each', 'with']);

export interface TemplateVariable {
  name: string;
  /** Template line (1-based, Handlebars') and column (0-based). */
  line: number;
  column: number;
}

type Call = hbs.AST.MustacheStatement | hbs.AST.BlockStatement | hbs.AST.SubExpression;

export function templateVariables(template: string): TemplateVariable[] {
  const found: TemplateVariable[] = [];
  let depth = 0;
  const path = (p: hbs.AST.Expression) => {
    if (p.type !== 'PathExpression' || depth > 0) return;
    const e = p as hbs.AST.PathExpression;
    if (e.data || e.original.startsWith('this') || e.original.startsWith('..') || !e.parts.length) return;
    found.push({ name: e.parts[0], line: e.loc.start.line, column: e.loc.start.column });
  };
  class Finder extends Handlebars.Visitor {
    private call(node: Call): void {
      const head = node.path as hbs.AST.PathExpression;
      const isHelper = node.params.length > 0 || !!node.hash || HELPERS.has(head.original);
      if (!isHelper) path(node.path);
      for (const p of node.params) this.accept(p);
      if (node.hash) for (const pair of node.hash.pairs) this.accept(pair.value);
    }
    override MustacheStatement(m: hbs.AST.MustacheStatement): void {
      this.call(m);
    }
    override SubExpression(s: hbs.AST.SubExpression): void {
      this.call(s);
    }
    override BlockStatement(b: hbs.AST.BlockStatement): void {
      this.call(b);
      const changes = CONTEXT_CHANGING.has(b.path.original);
      if (changes) depth++;
      if (b.program) this.accept(b.program);
      if (changes) depth--;
      if (b.inverse) this.accept(b.inverse);
    }
    // A partial's name is not a variable; its parameters and hash are.
    override PartialStatement(p: hbs.AST.PartialStatement): void {
      for (const x of p.params) this.accept(x);
      if (p.hash) for (const pair of p.hash.pairs) this.accept(pair.value);
    }
    override PartialBlockStatement(p: hbs.AST.PartialBlockStatement): void {
      for (const x of p.params) this.accept(x);
      if (p.hash) for (const pair of p.hash.pairs) this.accept(pair.value);
      this.accept(p.program);
    }
    override PathExpression(p: hbs.AST.PathExpression): void {
      path(p);
    }
  }
  new Finder().accept(Handlebars.parse(template));
  return found;
}
