// Runs one bench suite in this process and prints its results as one machine-readable line.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const mod = await import(pathToFileURL(resolve(process.argv[2])).href);
const suite = mod.default?.default ?? mod.default;
const results = await suite();
console.log('BENCH-RESULTS ' + JSON.stringify(results));
process.exit(0);
