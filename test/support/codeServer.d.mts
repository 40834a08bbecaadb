// Types of the parts of codeServer.mjs that TypeScript callers (the activation benchmark) use.
export function ensureCodeServer(): void;
export function installExtension(vsix: string, extensionsDir: string): void;
