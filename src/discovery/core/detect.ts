// Detection by content, never by file name: only a top-level "kind" of discovery#restDescription counts.
import { mayBeDiscoveryDocument, REST_DESCRIPTION_KIND } from './marker';
import { parseJson, type ParsedJson, type ParseLimits } from './parse';

export { mayBeDiscoveryDocument, REST_DESCRIPTION_KIND };

export function isRestDescriptionValue(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    (value as Record<string, unknown>).kind === REST_DESCRIPTION_KIND
  );
}

/** Parses the text when it may be a description document; undefined for anything else. */
export function detectDiscoveryDocument(text: string, limits?: ParseLimits): ParsedJson | undefined {
  if (!mayBeDiscoveryDocument(text)) return undefined;
  const parsed = parseJson(text, limits);
  if (parsed.value === undefined && parsed.problems.some((p) => p.code !== 'json-syntax')) {
    // Refused for size/depth: still ours if the marker sits at the top level near the start.
    return topLevelKindNearStart(text) ? parsed : undefined;
  }
  return isRestDescriptionValue(parsed.value) ? parsed : undefined;
}

/** Detection without a full parse: quick regex over the first 64 KB, for files too big to parse. */
export function isDiscoveryDocumentText(text: string): boolean {
  if (!mayBeDiscoveryDocument(text)) return false;
  if (topLevelKindNearStart(text)) return true;
  return detectDiscoveryDocument(text) !== undefined;
}

/** Whether the first 64 KB hold a top-level "kind" of discovery#restDescription (no full parse). */
export function topLevelKindNearStart(text: string): boolean {
  const head = text.slice(0, 65536);
  // Tokenise just enough to know the depth and the key/value pairing; strings and comments are skipped whole.
  const re = /"(?:[^"\\\n]|\\.)*"|[{}[\]:,]|\/\/[^\n]*|\/\*[\s\S]*?\*\//g;
  let depth = 0;
  let key: string | undefined;
  let afterColon = false;
  let m: RegExpExecArray | null;
  while ((m = re.exec(head))) {
    const t = m[0];
    if (t.startsWith('//') || t.startsWith('/*')) continue;
    if (t === '{' || t === '[') {
      depth++;
      afterColon = false;
      key = undefined;
      continue;
    }
    if (t === '}' || t === ']') {
      depth--;
      afterColon = false;
      continue;
    }
    if (t === ':') {
      afterColon = key !== undefined;
      continue;
    }
    if (t === ',') {
      key = undefined;
      afterColon = false;
      continue;
    }
    if (depth === 1 && afterColon && key === '"kind"') return t === `"${REST_DESCRIPTION_KIND}"`;
    key = depth === 1 && !afterColon ? t : undefined;
    afterColon = false;
  }
  return false;
}
