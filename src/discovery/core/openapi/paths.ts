// Discovery path templates → OpenAPI path keys and their path parameters.
//
// Discovery paths are RFC 6570 templates relative to servicePath; `{+name}` is reserved expansion: the
// value keeps its slashes (`v1/{+name}` with name = projects/p/locations/l). OpenAPI path parameters
// cannot hold a slash, so a generated client would escape it. When a method has a `flatPath` (the
// same URL with each segment of the reserved value spelled out: `v1/projects/{projectsId}/...`), that
// is the key, which clients call correctly; without one, `{+name}` becomes `{name}` and the parameter
// carries `x-reservedExpansion: true` (the upload paths have no flat form).

const VARIABLE = /\{([+#./;?&]?)([^{}]*)\}/g;

export interface PathTemplate {
  /** The OpenAPI path key: starts with "/", variables written `{name}`. */
  key: string;
  /** Variable names, in order. */
  variables: string[];
  /** Variables written with reserved expansion (`{+name}`) in the source template. */
  reserved: Set<string>;
}

export function parsePathTemplate(template: string): PathTemplate {
  const variables: string[] = [];
  const reserved = new Set<string>();
  const body = template.replace(/^\/+/, '').replace(VARIABLE, (_all, op: string, spec: string) => {
    // A path variable list ("{a,b}") or modifier ("{a*}", "{a:3}") keeps its first bare name.
    const name = spec.split(',')[0].replace(/[*]|:\d+$/g, '');
    variables.push(name);
    if (op === '+' || op === '#') reserved.add(name);
    return `{${name}}`;
  });
  return { key: `/${body}`, variables, reserved };
}

/**
 * The template a method's operation is keyed by: its `flatPath` when its `path` uses reserved expansion
 * and a flat form exists (and itself has none), else its `path`.
 */
export function operationTemplate(path: string, flatPath: unknown): { template: PathTemplate; flat: boolean } {
  const main = parsePathTemplate(path);
  if (main.reserved.size > 0 && typeof flatPath === 'string' && flatPath) {
    const flat = parsePathTemplate(flatPath);
    if (flat.reserved.size === 0) return { template: flat, flat: true };
  }
  return { template: main, flat: false };
}

/** Two keys that differ only in variable names are the same path to OpenAPI. */
export function pathShape(key: string): string {
  return key.replace(/\{[^}]*\}/g, '{}');
}

/**
 * Every form of a method's URL an operation can be keyed by, preferred first: `operationTemplate`'s choice,
 * then the other of `path` and `flatPath` when it is another key (used when the first collides with another
 * method's operation on the same path and verb).
 */
export function operationTemplates(path: string, flatPath: unknown): { template: PathTemplate; flat: boolean }[] {
  const first = operationTemplate(path, flatPath);
  let other: { template: PathTemplate; flat: boolean } | undefined;
  if (first.flat) other = { template: parsePathTemplate(path), flat: false };
  else if (typeof flatPath === 'string' && flatPath) {
    const flat = parsePathTemplate(flatPath);
    if (flat.reserved.size === 0) other = { template: flat, flat: true };
  }
  return other && other.template.key !== first.template.key ? [first, other] : [first];
}
