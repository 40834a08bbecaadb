// Entry of the sandbox bundle (dist/sandbox.js), which the extension loads the first time it starts or
// finds a sandbox: the emulators and the per-data-directory instance handling, none of it in the entry.
export { startSandbox } from './server';
export { openSandbox, processAlive, resetData } from './instance';
