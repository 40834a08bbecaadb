// Every message the editor shows goes through vscode.l10n.t, so a translation bundle can replace it. This
// reads the adapters' sources with the TypeScript parser and lists each place that hands VS Code literal
// prose instead: show*Message texts and buttons, input-box and quick-pick prompts, progress titles.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const ROOT = join(__dirname, '..', '..', '..');

/** The adapters: every `vscode/` folder of a feature and the platform. */
function adapterFiles(dir = join(ROOT, 'src')): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...adapterFiles(p));
    else if (p.endsWith('.ts') && !p.endsWith('.d.ts')) {
      const rel = relative(join(ROOT, 'src'), p).split('\\').join('/');
      if (/(^|\/)vscode\//.test(rel) || rel.startsWith('platform/')) out.push(p);
    }
  }
  return out;
}

const MESSAGE_CALLS = /^(vscode\.)?window\.show(Information|Warning|Error)Message$/;
const OPTION_CALLS = /^(vscode\.)?window\.(showInputBox|showQuickPick|withProgress|showOpenDialog|showSaveDialog)$/;
/** Option fields people read. */
const PROSE_OPTIONS = new Set([
  'prompt',
  'placeHolder',
  'title',
  'detail',
  'openLabel',
  'saveLabel',
  'validationMessage',
]);

/** True when the expression is (or builds) text from a literal, outside any l10n.t call. */
function isLiteralProse(node: ts.Expression): boolean {
  if (ts.isParenthesizedExpression(node)) return isLiteralProse(node.expression);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return /[A-Za-z]{2}/.test(node.text);
  if (ts.isTemplateExpression(node))
    return /[A-Za-z]{2}/.test(node.head.text + node.templateSpans.map((s) => s.literal.text).join(''));
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken)
    return isLiteralProse(node.left) || isLiteralProse(node.right);
  if (ts.isConditionalExpression(node)) return isLiteralProse(node.whenTrue) || isLiteralProse(node.whenFalse);
  return false;
}

interface Finding {
  file: string;
  line: number;
  what: string;
  text: string;
}

const show = (f: Finding) => `${f.file}:${f.line}: ${f.what}: ${f.text}`;

/** Every literal message, button or prompt in `file`. */
function literalMessages(file: string, text = readFileSync(file, 'utf8')): Finding[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Finding[] = [];
  const report = (node: ts.Node, what: string) => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    found.push({ file: relative(ROOT, file), line: line + 1, what, text: node.getText(source).slice(0, 80) });
  };
  const checkOptions = (arg: ts.Expression, call: string) => {
    if (!ts.isObjectLiteralExpression(arg)) return;
    for (const p of arg.properties) {
      if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && PROSE_OPTIONS.has(p.name.text)) {
        if (isLiteralProse(p.initializer)) report(p.initializer, `${call} ${p.name.text}`);
      }
    }
  };
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression.getText(source);
      if (MESSAGE_CALLS.test(callee)) {
        node.arguments.forEach((arg, i) => {
          if (isLiteralProse(arg)) report(arg, i === 0 ? 'message' : 'button');
          else checkOptions(arg, 'message');
        });
      } else if (OPTION_CALLS.test(callee)) {
        for (const arg of node.arguments) checkOptions(arg, callee.replace(/^vscode\./, ''));
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('localisation: user-facing messages go through vscode.l10n.t', () => {
  it('the check finds literal messages, buttons and prompts, and accepts l10n.t', () => {
    const sample = [
      "void vscode.window.showInformationMessage('Copied.');",
      'void vscode.window.showErrorMessage(`Could not copy ${name}.`, "Retry");',
      "void vscode.window.showWarningMessage(vscode.l10n.t('Delete {0}?', n), { modal: true, detail: 'It is gone then.' }, vscode.l10n.t('Delete'));",
      "void vscode.window.showInputBox({ prompt: 'Name', placeHolder: vscode.l10n.t('e.g. notes.md') });",
      "void vscode.window.withProgress({ title: 'Uploading ' + n, location: 1 }, run);",
      'void vscode.window.showInformationMessage(message);',
      "void vscode.window.showInformationMessage(vscode.l10n.t('Done.'));",
    ].join('\n');
    assert.deepEqual(
      literalMessages(join(ROOT, 'sample.ts'), sample).map((f) => `${f.line}: ${f.what}`),
      [
        '1: message',
        '2: message',
        '2: button',
        '3: message detail',
        '4: window.showInputBox prompt',
        '5: window.withProgress title',
      ],
    );
  });

  it('no adapter shows a literal message (wrap it in vscode.l10n.t)', function () {
    this.timeout(60_000); // parses every adapter
    const files = adapterFiles();
    assert.ok(files.length > 20, `read ${files.length} adapter files`);
    const found = files.flatMap((f) => literalMessages(f).map(show));
    assert.equal(found.length, 0, `literal messages (wrap each in vscode.l10n.t):\n${found.join('\n')}`);
  });
});
