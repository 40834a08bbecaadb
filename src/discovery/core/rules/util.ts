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

const OPERATORS = '+#./;?&';

// A scan rather than /\{([+#./;?&]?)([^{}]*)\}/g and a replace per name: the first analysis in a fresh
// worker runs these regular expressions interpreted, over every method's path.
function parseTemplate(template: string): readonly TemplateVariable[] {
  const out: TemplateVariable[] = [];
  for (let open = template.indexOf('{'); open >= 0;) {
    let close = -1;
    for (let j = open + 1; j < template.length; j++) {
      const c = template.charCodeAt(j);
      if (c === 125) {
        close = j;
        break;
      }
      if (c === 123) break;
    }
    if (close < 0) {
      // No `}` before the next `{`: the expression starts at that one, if anywhere.
      open = template.indexOf('{', open + 1);
      continue;
    }
    const operator = close > open + 1 && OPERATORS.includes(template[open + 1]) ? template[open + 1] : '';
    const body = template.slice(open + 1 + operator.length, close);
    for (const part of body.split(',')) {
      const name = withoutModifier(part).trim();
      if (name) out.push({ name, operator });
    }
    open = template.indexOf('{', close + 1);
  }
  return out;
}

/** The name without a trailing explode `*` or prefix `:digits` (only one of them, as RFC 6570 allows). */
function withoutModifier(part: string): string {
  const last = part.length - 1;
  if (part.charCodeAt(last) === 42) return part.slice(0, last);
  const colon = part.lastIndexOf(':');
  if (colon < 0 || colon === last) return part;
  for (let i = colon + 1; i <= last; i++) {
    const c = part.charCodeAt(i);
    if (c < 48 || c > 57) return part;
  }
  return part.slice(0, colon);
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
  for (let mi = 0; mi < methods.length; mi++) {
    const m = methods[mi];
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
