// Context-menu commands of the storage tree, one module per area. Each command takes the tree node
// it was invoked on, then optional values that skip the prompts (used by keybindings and host tests).
import type * as vscode from 'vscode';
import { registerAccountCommands } from './account';
import type { CommandContext } from './common';
import { registerDriveCommands } from './drives';
import { registerFileCommands } from './files';
import { registerMetadataCommands } from './metadata';
import { registerMoveCommands } from './move';
import { registerRevisionCommands } from './revisions';
import { registerSearchCommands } from './search';
import { registerSharingCommands } from './sharing';
import { registerTransferCommands } from './transfer';

export { aboutLine } from './account';
export { type CommandContext, folderIdOf } from './common';
export { uploadPaths } from './transfer';

export function registerCommands(ctx: CommandContext): vscode.Disposable[] {
  return [
    ...registerFileCommands(ctx),
    ...registerMoveCommands(ctx),
    ...registerTransferCommands(ctx),
    ...registerMetadataCommands(ctx),
    ...registerSharingCommands(ctx),
    ...registerRevisionCommands(ctx),
    ...registerDriveCommands(ctx),
    ...registerAccountCommands(ctx),
    ...registerSearchCommands(ctx),
  ];
}
