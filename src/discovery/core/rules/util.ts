import { isObj, type MethodEntry, type Obj } from '../model';

/** Variables of an RFC 6570 template as used by discovery paths: {var}, {+var}, {/var*}, {a,b}. */
export function templateVariables(template: string): { name: string; operator: string }[] {
  const out: { name: string; operator: string }[] = [];
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
    order.forEach((name, i) => visit(m, name, i, params));
  }
}
