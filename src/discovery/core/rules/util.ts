import { isObj, type MethodEntry, type Obj } from '../model';

/** Variables of an RFC 6570 template as used by discovery paths: {var}, {+var}, {/var*}, {a,b}. */
export function templateVariables(template: string): readonly TemplateVariable[] {
  // Four rules read the variables of every method's path (and flatPath): parse each template once.
  let vars = parsedTemplates.get(template);
  if (!vars) {
    if (parsedTemplates.size >= MAX_PARSED_TEMPLATES) parsedTemplates.clear();
    vars = parseTemplate(template);
    parsedTemplates.set(template, vars);
  }
  return vars;
}

export interface TemplateVariable {
  readonly name: string;
  readonly operator: string;
}

const parsedTemplates = new Map<string, readonly TemplateVariable[]>();
const MAX_PARSED_TEMPLATES = 20_000;

function parseTemplate(template: string): readonly TemplateVariable[] {
  const out: TemplateVariable[] = [];
  const re = /\{([+#./;?&]?)([^{}]*)\}/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(template))) {
    for (const part of m[2].split(',')) {
      const name = part.replace(/\*$|:\d+$/, '').trim();
      if (name) out.push({ name, operator: m[1] });
    }
  }
  return out;
}

export function methodParameters(m: MethodEntry): Obj {
  return isObj(m.value.parameters) ? m.value.parameters : {};
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function describeMethod(m: MethodEntry): string {
  return m.id ?? [...m.resource, m.name].join('.');
}

/** Calls `visit` for every entry of every method's `parameterOrder` array, with the method's parameters. */
export function eachParameterOrderEntry(
  methods: readonly MethodEntry[],
  visit: (m: MethodEntry, name: unknown, index: number, params: Obj) => void,
): void {
  for (const m of methods) {
    const order = m.value.parameterOrder;
    if (!Array.isArray(order)) continue;
    const params = methodParameters(m);
    for (let i = 0; i < order.length; i++) visit(m, order[i], i, params);
  }
}

/**
 * Whether the value at an index repeats an earlier entry of a JSON array. Short arrays (nearly all
 * enums and parameterOrders) are searched in place, so no Set is built per array.
 */
export function repeats(list: readonly unknown[]): (value: unknown, index: number) => boolean {
  if (list.length <= 32) return (value, index) => list.indexOf(value) < index;
  const seen = new Set<unknown>();
  return (value) => {
    if (seen.has(value)) return true;
    seen.add(value);
    return false;
  };
}
