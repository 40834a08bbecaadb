import type { SeveritySetting } from '../diagnostic';
import type { JsonPath } from '../jsonTree';
import type { DiscoveryModel } from '../model';

export interface Finding {
  path: JsonPath;
  /** Underline the property key rather than its value. */
  at?: 'key' | 'value';
  message: string;
  data?: Record<string, unknown>;
}

export type Report = (finding: Finding) => void;

export interface Rule {
  /** Stable code shown in diagnostics and used in settings. */
  readonly code: string;
  readonly defaultSeverity: SeveritySetting;
  /** One line for docs and settings. */
  readonly summary: string;
  check(model: DiscoveryModel, report: Report): void;
}
