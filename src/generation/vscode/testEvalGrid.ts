// Internal, for host tests only (registered in ExtensionMode.Test and only where __TEST_SEAMS__): drive the
// focused results grid as its page would and read back what the page rendered.
import * as vscode from 'vscode';
import { registerCommand } from '../../platform/lazy/commandTable';
import type { RowFilter } from '../core/eval/grid';
import type { CellRef, GridRenderedAck } from '../evalGridProtocol';
import type { ChatEditors } from './chatEditors';
import type { EvalGrids } from './evalGrids';

/** What a test waits for the grid to show (each given field must match). */
interface Expected {
  cells?: number;
  /** At least this many cells (a live run's count moves on between two reports). */
  minCells?: number;
  worse?: number;
  better?: number;
  filter?: RowFilter;
  running?: boolean;
}

const matches = (a: GridRenderedAck, e: Expected) =>
  (e.cells === undefined || a.cells === e.cells) &&
  (e.minCells === undefined || a.cells >= e.minCells) &&
  (e.worse === undefined || a.worse.length === e.worse) &&
  (e.better === undefined || a.better.length === e.better) &&
  (e.filter === undefined || a.filter === e.filter) &&
  (e.running === undefined || a.running === e.running);

export function evalGridTestCommands(grids: EvalGrids, chats: ChatEditors): vscode.Disposable[] {
  const grid = () => {
    const g = grids.active;
    if (!g) throw new Error('no results grid is open');
    return g;
  };
  return [
    // Waits for the focused grid to show what is expected; a grid a run opens meanwhile takes over.
    registerCommand('apiWorkbench.generation._testGridWait', async (expected: Expected, timeoutMs?: number) => {
      const total = timeoutMs ?? 20_000;
      const deadline = Date.now() + total;
      for (;;) {
        const g = grids.active;
        try {
          if (g) return await g.waitForAck((a) => matches(a, expected), Math.min(500, total));
          if (Date.now() > deadline) throw new Error('no results grid is open');
          await new Promise((r) => setTimeout(r, 100));
        } catch (e) {
          if (Date.now() > deadline) throw e;
        }
      }
    }),
    // The next grid's page loads silently: the first `silentLoads` loads' `ready` go unheard, as when VS Code
    // leaves the frame blank, and the page watchdog waits `readyMs` of visible time before setting it again.
    registerCommand('apiWorkbench.generation._testGridSilentPage', (silentLoads: unknown, readyMs: unknown) => {
      if (typeof silentLoads !== 'number' || typeof readyMs !== 'number')
        throw new Error('_testGridSilentPage takes the number of silent loads and the wait in ms.');
      grids.nextPage = { silentLoads, readyMs };
    }),
    // The grid's Stop, as its button sends it.
    registerCommand('apiWorkbench.generation._testGridStop', () => grid().onStop?.()),
    registerCommand('apiWorkbench.generation._testGridDiff', (a: CellRef, b: CellRef) => grid().diff(a, b)),
    registerCommand('apiWorkbench.generation._testGridExport', (format: 'csv' | 'json', path: string) =>
      grid().export(format, vscode.Uri.file(path)),
    ),
    registerCommand('apiWorkbench.generation._testGridOpenInChat', async (cell: CellRef) => {
      const g = grid();
      const c = g.cells.get(`${cell.item}\u0000${cell.variant}`);
      if (!c) throw new Error('no such cell');
      await grids.actions.openInChat(g.meta, c, g.files.results);
      const turns = chats.active?.chat.current.conversation.turns ?? [];
      return turns.map((t) => ({ prompt: t.prompt, text: t.text, sent: t.sent, reply: t.reply, model: t.model }));
    }),
  ];
}
