// Parse once per text: JSON.parse for values (native speed), our structural index for offsets,
// jsonc-parser only as the tolerant fallback for comments, trailing commas and broken text.
// The ESM build: the UMD entry's dynamic requires do not survive bundling with esbuild.
import { printParseErrorCode, visit, type ParseError, type ParseOptions } from 'jsonc-parser/lib/esm/main.js';
import { putOwn } from '../../shared/wire/ownKeys';
import type { Diagnostic } from './diagnostic';
import { buildJsonTree, type JsonTree } from './jsonTree';

export interface ParseLimits {
  /** Texts longer than this (UTF-16 units) are not analysed. Real documents stay under 5 MB. */
  maxLength?: number;
  /** Deeper nesting is not analysed; real documents nest under 40 levels. */
  maxDepth?: number;
}

export const DEFAULT_MAX_LENGTH = 24 * 1024 * 1024;
export const DEFAULT_MAX_DEPTH = 256;

export interface ParsedJson {
  readonly text: string;
  /** Undefined when the text was refused (too large / too deep). */
  readonly tree: JsonTree | undefined;
  /** Parsed value; for broken text, jsonc-parser's best-effort recovery. */
  readonly value: unknown;
  /** True when the text is strict JSON (JSON.parse accepted it). */
  readonly strict: boolean;
  /** Syntax errors and refusals, codes json-syntax / document-too-large / document-too-deep. */
  readonly problems: Diagnostic[];
}

/** Parses a text; `tree` reuses a structural index already built for this exact text. */
export function parseJson(text: string, limits: ParseLimits = {}, tree?: JsonTree): ParsedJson {
  const maxLength = limits.maxLength ?? DEFAULT_MAX_LENGTH;
  const maxDepth = limits.maxDepth ?? DEFAULT_MAX_DEPTH;
  if (text.length > maxLength) {
    return refuse(text, {
      code: 'document-too-large',
      severity: 'warning',
      offset: 0,
      length: 0,
      message: `Document is ${(text.length / 1048576).toFixed(1)} MB, over the ${(maxLength / 1048576).toFixed(0)} MB analysis limit; not checked.`,
    });
  }
  tree ??= buildJsonTree(text);
  if (tree.maxDepth > maxDepth) {
    return {
      text,
      tree: undefined,
      value: undefined,
      strict: false,
      problems: [
        {
          code: 'document-too-deep',
          severity: 'warning',
          offset: 0,
          length: 0,
          message: `Nesting is ${tree.maxDepth} levels deep, over the limit of ${maxDepth}; not checked.`,
        },
      ],
    };
  }
  try {
    return { text, tree, value: JSON.parse(text), strict: true, problems: [] };
  } catch {
    const errors: ParseError[] = [];
    const value: unknown = parseLenient(text, errors, {
      allowTrailingComma: true,
      disallowComments: false,
      allowEmptyContent: false,
    });
    const problems: Diagnostic[] = errors.map((e) => ({
      code: 'json-syntax',
      severity: 'error',
      offset: e.offset,
      length: Math.max(e.length, 1),
      message: `Invalid JSON: ${describe(printParseErrorCode(e.error))}.`,
    }));
    return { text, tree, value, strict: false, problems };
  }
}

/**
 * jsonc-parser's tolerant reading, with every member an own property: its `parse` assigns members, so a schema
 * or property named `__proto__` replaced the prototype of its map (and was missing from it) only when the text
 * had a comment or a trailing comma, where JSON.parse keeps it.
 */
function parseLenient(text: string, errors: ParseError[], options: ParseOptions): unknown {
  const root: unknown[] = [];
  let parent: unknown[] | Record<string, unknown> = root;
  let property: string | undefined;
  const parents: (unknown[] | Record<string, unknown>)[] = [];
  const add = (value: unknown) => {
    if (Array.isArray(parent)) parent.push(value);
    else if (property !== undefined) putOwn(parent, property, value);
  };
  const open = (container: unknown[] | Record<string, unknown>) => {
    add(container);
    parents.push(parent);
    parent = container;
    property = undefined;
  };
  const close = () => {
    parent = parents.pop() ?? root;
  };
  visit(
    text,
    {
      onObjectBegin: () => open({}),
      onObjectProperty: (name) => {
        property = name;
      },
      onObjectEnd: close,
      onArrayBegin: () => open([]),
      onArrayEnd: close,
      onLiteralValue: add,
      onError: (error, offset, length) => {
        errors.push({ error, offset, length });
      },
    },
    options,
  );
  return root[0];
}

function refuse(text: string, problem: Diagnostic): ParsedJson {
  return { text, tree: undefined, value: undefined, strict: false, problems: [problem] };
}

function describe(code: string): string {
  // printParseErrorCode yields identifiers such as "CommaExpected"; make them read as words.
  return code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}
