// File names and fence labels from outside (a picked file, a model's code fence) mapped to the types
// the editor and the API use. Lookups read own members only: a fence labelled `constructor` is a language
// of that name, not Object's constructor.
import { ownValue } from '../../shared/wire/ownKeys';

const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
};

/** The extensions an image attachment may have (the open dialog's filter). */
export const IMAGE_EXTENSIONS = Object.keys(IMAGE_TYPES);

/** The MIME type of an image attachment by its file name's extension, or undefined when it is not one. */
export function imageMimeType(path: string): string | undefined {
  const dot = path.lastIndexOf('.');
  return dot < 0 ? undefined : ownValue(IMAGE_TYPES, path.slice(dot + 1).toLowerCase());
}

const LANGUAGE_ALIASES: Record<string, string> = {
  js: 'javascript',
  ts: 'typescript',
  py: 'python',
  sh: 'shellscript',
  bash: 'shellscript',
  yml: 'yaml',
  md: 'markdown',
};

/** A fence's info string as a VS Code language id. */
export function languageId(fence: string): string {
  const l = fence.toLowerCase();
  return ownValue(LANGUAGE_ALIASES, l) ?? (l || 'plaintext');
}
