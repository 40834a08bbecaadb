// Tools the model may call: two built-in read-only workspace tools, plus declarations the user
// keeps in a workspace JSON file. Built-ins run here; declared tools get their result from the user.
import * as vscode from 'vscode';
import type { FunctionDeclaration, Tool } from '../../shared/wire/generation';

const MAX_READ_BYTES = 100_000;

export const BUILTIN_DECLARATIONS: FunctionDeclaration[] = [
  {
    name: 'read_workspace_file',
    description: 'Read a text file of the open workspace. Read-only.',
    parameters: {
      type: 'OBJECT',
      properties: { path: { type: 'STRING', description: 'Path relative to the workspace folder' } },
      required: ['path'],
    },
  },
  {
    name: 'list_workspace_files',
    description: 'List files of the open workspace matching a glob pattern. Read-only.',
    parameters: {
      type: 'OBJECT',
      properties: { glob: { type: 'STRING', description: 'Glob such as **/*.ts; default all files' } },
    },
  },
];

export function isBuiltin(name: string): boolean {
  return BUILTIN_DECLARATIONS.some((d) => d.name === name);
}

function insideWorkspace(rel: string): vscode.Uri | undefined {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) return undefined;
  const clean = rel.replace(/\\/g, '/').replace(/^\/+/, '');
  if (clean.split('/').some((seg) => seg === '..')) return undefined;
  return vscode.Uri.joinPath(folder.uri, clean);
}

export async function runBuiltin(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (name === 'read_workspace_file') {
    const uri = typeof args.path === 'string' ? insideWorkspace(args.path) : undefined;
    if (!uri) return { error: 'path must be a relative path inside the workspace' };
    try {
      const bytes = await vscode.workspace.fs.readFile(uri);
      const text = Buffer.from(bytes.subarray(0, MAX_READ_BYTES)).toString('utf8');
      return { path: args.path, content: text, truncated: bytes.length > MAX_READ_BYTES };
    } catch (e) {
      return { error: `cannot read ${String(args.path)}: ${(e as Error).message}` };
    }
  }
  if (name === 'list_workspace_files') {
    const glob = typeof args.glob === 'string' && args.glob ? args.glob : '**/*';
    const found = await vscode.workspace.findFiles(glob, '**/{node_modules,.git}/**', 200);
    return { files: found.map((u) => vscode.workspace.asRelativePath(u, false)).sort() };
  }
  return { error: `unknown tool ${name}` };
}

/** Declarations from the workspace file named by `apiWorkbench.generation.toolsFile`. */
export async function declaredTools(): Promise<{ tools: Tool[]; problem?: string }> {
  const rel = vscode.workspace.getConfiguration('apiWorkbench.generation').get<string>('toolsFile', '');
  if (!rel) return { tools: [] };
  const uri = insideWorkspace(rel);
  if (!uri) return { tools: [], problem: `apiWorkbench.generation.toolsFile "${rel}" is not inside the workspace.` };
  try {
    const parsed = JSON.parse(Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8')) as unknown;
    const list = Array.isArray(parsed) ? parsed : [parsed];
    const tools: Tool[] = list.map((t) =>
      Array.isArray((t as Tool).functionDeclarations)
        ? (t as Tool)
        : { functionDeclarations: [t as FunctionDeclaration] },
    );
    return { tools };
  } catch (e) {
    return { tools: [], problem: `Cannot read tool declarations from ${rel}: ${(e as Error).message}` };
  }
}
