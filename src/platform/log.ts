import type * as vscode from 'vscode';
import { redactError, redactText } from '../shared/http/redact';

const WRITERS = new Set<PropertyKey>(['trace', 'debug', 'info', 'warn', 'error', 'append', 'appendLine', 'replace']);

/**
 * The output channel every feature logs to, with every line passed through the one redaction: a
 * message quoting a request URL or an auth header can never put a credential in the log.
 */
export function redactingLog(channel: vscode.LogOutputChannel): vscode.LogOutputChannel {
  return new Proxy(channel, {
    get(target, prop) {
      // Read from and call on the channel itself: its members may rely on `this` being the real object.
      const value: unknown = Reflect.get(target, prop);
      if (typeof value !== 'function') return value;
      if (!WRITERS.has(prop)) return (...args: unknown[]): unknown => Reflect.apply(value, target, args);
      return (...args: unknown[]): unknown =>
        Reflect.apply(
          value,
          target,
          args.map((a) => (typeof a === 'string' ? redactText(a) : a instanceof Error ? redactError(a) : a)),
        );
    },
  });
}
