// Checks a request body the user typed against the method's request schema: the messages the Try it
// editor shows under the body before anything is sent.
import { isObj, type Obj } from '../model';
import { ownValue } from '../../../shared/wire/ownKeys';

export interface BodyProblem {
  /** JSON pointer of the value (RFC 6901), "" for the root. */
  pointer: string;
  message: string;
}

const MAX_PROBLEMS = 50;

function pointer(parts: (string | number)[]): string {
  return parts.map((p) => '/' + String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

function typeOf(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

/** Parses and checks `text`; a syntax error is the one problem when it is not JSON. */
export function checkBody(doc: Obj, schema: unknown, methodId: string, text: string): BodyProblem[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return [{ pointer: '', message: `Not JSON: ${(err as Error).message}` }];
  }
  const schemas = isObj(doc.schemas) ? doc.schemas : {};
  const out: BodyProblem[] = [];
  const report = (path: (string | number)[], message: string) => {
    if (out.length < MAX_PROBLEMS) out.push({ pointer: pointer(path), message });
  };
  const visit = (s0: unknown, v: unknown, path: (string | number)[], depth: number): void => {
    if (depth > 64 || out.length >= MAX_PROBLEMS) return;
    const s = isObj(s0) && typeof s0.$ref === 'string' ? ownValue(schemas, s0.$ref) : s0;
    if (!isObj(s) || s.type === 'any' || s.type === undefined) return;
    const t = typeOf(v);
    const want = s.type as string;
    const ok =
      want === t ||
      (want === 'integer' && t === 'number' && Number.isInteger(v)) ||
      (want === 'number' && t === 'number');
    if (!ok) {
      report(path, `Expected ${want}${typeof s.format === 'string' ? ` (${s.format})` : ''}, found ${t}.`);
      return;
    }
    if (want === 'string' && typeof v === 'string') {
      if ((s.format === 'int64' || s.format === 'uint64') && !/^-?\d+$/.test(v))
        report(path, `Expected a ${s.format} integer written as a string, found "${v.slice(0, 40)}".`);
      if (Array.isArray(s.enum) && !s.enum.includes(v))
        report(
          path,
          `"${v.slice(0, 40)}" is not one of ${s.enum.slice(0, 12).join(', ')}${s.enum.length > 12 ? '…' : ''}.`,
        );
    }
    if (want === 'array' && Array.isArray(v)) v.forEach((item, i) => visit(s.items, item, [...path, i], depth + 1));
    if (want === 'object' && isObj(v)) {
      const props = isObj(s.properties) ? s.properties : undefined;
      for (const [k, child] of Object.entries(v)) {
        const prop = props && ownValue(props, k);
        if (isObj(prop)) {
          if (prop.readOnly === true) report([...path, k], `"${k}" is output only: the server ignores it.`);
          visit(prop, child, [...path, k], depth + 1);
        } else if (isObj(s.additionalProperties)) visit(s.additionalProperties, child, [...path, k], depth + 1);
        else if (props)
          report([...path, k], `"${k}" is not a property of ${typeof s.id === 'string' ? s.id : 'this object'}.`);
      }
      for (const [k, p] of Object.entries(props ?? {})) {
        const req =
          (isObj(p) && p.required === true) ||
          (isObj(p) &&
            isObj(p.annotations) &&
            Array.isArray(p.annotations.required) &&
            p.annotations.required.includes(methodId));
        if (req && !Object.hasOwn(v, k)) report(path, `"${k}" is required for ${methodId}.`);
      }
    }
  };
  visit(schema, value, [], 0);
  return out;
}
