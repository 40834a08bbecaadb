import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PARSE_CODES, RULES } from '../../../src/discovery/core';
import { parseAs } from '../../support/typedJson';
import { REPO_ROOT } from './helpers';

/** The parts of the feature's contributes.json these tests read. */
interface Contributes {
  configuration: { properties: Record<string, { properties: Record<string, unknown> }> };
  commands: { command: string; category: string }[];
}

describe('docs/rules.md', () => {
  const text = readFileSync(join(REPO_ROOT, 'docs/rules.md'), 'utf8');
  it('has a section for every rule code with its default severity', () => {
    const codes: [string, string][] = [
      ...Object.entries(PARSE_CODES).map(([c, v]) => [c, v.severity] as [string, string]),
      ...RULES.map((r) => [r.code, r.defaultSeverity] as [string, string]),
    ];
    for (const [code, sev] of codes) {
      const at = text.indexOf(`\n## ${code}\n`);
      assert.ok(at >= 0, `section for ${code}`);
      assert.ok(text.slice(at, at + 200).includes(`Default severity: **${sev}**`), `severity of ${code}`);
    }
  });
});

describe('src/discovery/contributes.json', () => {
  const contributes = parseAs<Contributes>(readFileSync(join(REPO_ROOT, 'src/discovery/contributes.json'), 'utf8'));
  it('offers a severity setting for every rule code', () => {
    const props = contributes.configuration.properties['apiWorkbench.discovery.rules'].properties;
    for (const r of RULES) assert.ok(props[r.code], r.code);
    for (const code of Object.keys(PARSE_CODES).filter((c) => c !== 'not-a-discovery-document'))
      assert.ok(props[code], code);
  });
  it('declares every command the adapter registers, with the category', () => {
    const ids = contributes.commands.map((c) => {
      assert.equal(c.category, 'API Workbench');
      return c.command;
    });
    const adapter = ['preview.ts', 'directoryView.ts', 'compareWith.ts', 'exportOpenApi.ts']
      .map((f) => readFileSync(join(REPO_ROOT, 'src/discovery/vscode', f), 'utf8'))
      .join('\n');
    // Test seams are not contributed (they exist only in the test build under ExtensionMode.Test).
    const registered = [...adapter.matchAll(/registerCommand\(\s*'([^']+)'/g)]
      .map((m) => m[1])
      .filter((id) => !id.includes('._test'));
    assert.deepEqual([...registered].sort(), [...ids].sort());
  });
});
