// Kept apart from detect.ts (which parses) so that the extension's entry can check documents with it
// without loading the discovery feature.
export const REST_DESCRIPTION_KIND = 'discovery#restDescription';

/** Cheap pre-check: a text that does not contain the marker cannot be a description document. */
export function mayBeDiscoveryDocument(text: string): boolean {
  return text.includes(REST_DESCRIPTION_KIND);
}
