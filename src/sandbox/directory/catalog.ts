// The description documents the sandbox directory serves: the repository's own files in schemas/,
// written next to the storage and generation emulators and bundled into the sandbox at build time.
import store from '../../../schemas/store.v2.json';
import generation from '../../../schemas/generation.v1beta.json';
import discovery from '../../../schemas/discovery.v1.json';

export interface CatalogEntry {
  /** A discovery#restDescription document (never mutated: served copies are made per request). */
  doc: Readonly<Record<string, unknown>>;
  /** Whether this version is the preferred one of its API. */
  preferred: boolean;
}

export const CATALOG: readonly CatalogEntry[] = [
  { doc: store, preferred: true },
  { doc: generation, preferred: true },
  // The directory describes itself too, so clients can be generated for it like for any other API.
  { doc: discovery, preferred: true },
];
