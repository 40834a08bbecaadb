// The entry registers a stub for every contributed command of a feature (features.ts). When the feature
// loads, its handler for such a command is handed to the stub here instead of replacing it: unregistering
// a hundred stubs and registering a hundred commands was two hundred messages to the window, a sixth of
// what loading all four features cost. A command without a stub (an internal one) is registered as usual.
// The entry and each feature bundle carry their own copy of this module, so the table lives on a global symbol.
import * as vscode from 'vscode';

type Handler = (...args: unknown[]) => unknown;

interface Table {
  /** Ids the entry has registered a stub for. */
  stubbed: Set<string>;
  /** The loaded feature's handler of each stubbed id. */
  handlers: Map<string, Handler>;
}

const TABLE_KEY = Symbol.for('apiWorkbench.lazy.commandTable');
const table: Table = ((globalThis as Record<symbol, Table | undefined>)[TABLE_KEY] ??= {
  stubbed: new Set(),
  handlers: new Map(),
});

/** What features call instead of `vscode.commands.registerCommand`; same contract. */
export function registerCommand(
  id: string,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the same loose signature as vscode.commands.registerCommand
  handler: (...args: any[]) => unknown,
  thisArg?: unknown,
): vscode.Disposable {
  if (!table.stubbed.has(id)) return vscode.commands.registerCommand(id, handler, thisArg);
  if (table.handlers.has(id)) throw new Error(`command '${id}' already exists`);
  const bound: Handler = thisArg === undefined ? handler : handler.bind(thisArg);
  table.handlers.set(id, bound);
  return new vscode.Disposable(() => {
    if (table.handlers.get(id) === bound) table.handlers.delete(id);
  });
}

/**
 * Registers the stub of `id`: its first call runs `load` (which registers the handler), then every call runs
 * the handler. A command the loaded feature did not register fails as an unknown command would.
 */
export function registerStub(id: string, load: () => void): vscode.Disposable {
  table.stubbed.add(id);
  const registration = vscode.commands.registerCommand(id, (...args: unknown[]) => {
    let handler = table.handlers.get(id);
    if (!handler) {
      load();
      handler = table.handlers.get(id);
    }
    if (!handler) throw new Error(`command '${id}' not found`);
    return handler(...args);
  });
  return new vscode.Disposable(() => {
    registration.dispose();
    table.stubbed.delete(id);
    table.handlers.delete(id);
  });
}
