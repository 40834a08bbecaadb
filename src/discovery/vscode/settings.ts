import * as vscode from 'vscode';
import type { RuleSettings, SeveritySetting } from '../core';

const VALID = new Set<SeveritySetting>(['error', 'warning', 'info', 'hint', 'off']);

/** `apiWorkbench.discovery.rules`: rule code → severity; unknown values are ignored rather than trusted. */
export function readRuleSettings(): RuleSettings {
  const raw = vscode.workspace.getConfiguration('apiWorkbench.discovery').get<Record<string, unknown>>('rules') ?? {};
  const out: Record<string, SeveritySetting> = {};
  for (const [code, value] of Object.entries(raw)) {
    if (typeof value === 'string' && VALID.has(value as SeveritySetting)) out[code] = value as SeveritySetting;
  }
  return out;
}
