import * as vscode from 'vscode';
import { hoverQuery } from '../core/hover';
import { QUERY_LANGUAGE } from './constants';

/** Hover in query cells: the entity set, options, fields, operators and values, explained by the core. */
export function registerQueryHover(): vscode.Disposable {
  return vscode.languages.registerHoverProvider(
    ['vscode-notebook-cell', 'file', 'untitled'].map((scheme) => ({ language: QUERY_LANGUAGE, scheme })),
    {
      provideHover(doc, position) {
        const found = hoverQuery(doc.getText(), doc.offsetAt(position));
        if (!found) return undefined;
        return new vscode.Hover(
          new vscode.MarkdownString(found.markdown),
          new vscode.Range(doc.positionAt(found.start), doc.positionAt(found.end)),
        );
      },
    },
  );
}
