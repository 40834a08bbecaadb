// Our description document of the generation API must be a sound discovery document, and it
// must describe what the emulator serves (paths and methods), checked here without the discovery feature.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseAs } from '../../support/typedJson';
import { startGenerationEmulator, type TestServer } from './emulatorServer';

interface Method {
  id: string;
  path: string;
  flatPath?: string;
  httpMethod: string;
  parameters?: Record<string, { location?: string; required?: boolean; pattern?: string }>;
  parameterOrder?: string[];
  request?: { $ref: string };
  response?: { $ref: string };
}
interface Resource {
  methods?: Record<string, Method>;
  resources?: Record<string, Resource>;
}

/** The parts of the description document these tests read. */
interface Description {
  kind: string;
  discoveryVersion: string;
  id: string;
  name: string;
  version: string;
  protocol: string;
  schemas: Record<string, { id: string }>;
  resources: Record<string, Resource>;
}

const doc = parseAs<Description>(
  readFileSync(path.resolve(__dirname, '../../../schemas/generation.v1beta.json'), 'utf8'),
);

function methods(): [string, Method][] {
  const out: [string, Method][] = [];
  const walk = (name: string, r: Resource) => {
    for (const [m, def] of Object.entries(r.methods ?? {})) out.push([`${name}.${m}`, def]);
    for (const [n, sub] of Object.entries(r.resources ?? {})) walk(`${name}.${n}`, sub);
  };
  for (const [n, r] of Object.entries(doc.resources)) walk(n, r);
  return out;
}

describe('generation discovery document', () => {
  it('has the required top-level fields', () => {
    assert.equal(doc.kind, 'discovery#restDescription');
    assert.equal(doc.discoveryVersion, 'v1');
    assert.equal(doc.id, `${doc.name}:${doc.version}`);
    assert.equal(doc.protocol, 'rest');
    assert.equal(doc.version, 'v1beta');
  });

  it('resolves every $ref and keeps schema ids equal to their keys', () => {
    const refs: string[] = [];
    const walk = (v: unknown) => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') {
        for (const [k, x] of Object.entries(v))
          if (k === '$ref') refs.push(x as string);
          else walk(x);
      }
    };
    walk(doc);
    assert.ok(refs.length > 50);
    for (const r of refs) assert.ok(doc.schemas[r], `$ref ${r} names no schema`);
    for (const [k, s] of Object.entries(doc.schemas)) assert.equal(s.id, k);
  });

  it('declares every path parameter, lists required ones in parameterOrder, and uses unique ids', () => {
    const ids = new Set<string>();
    for (const [name, m] of methods()) {
      assert.ok(!ids.has(m.id), `duplicate id ${m.id}`);
      ids.add(m.id);
      const inPath = [...m.path.matchAll(/\{\+?([^}]+)\}/g)].map((x) => x[1]);
      for (const p of inPath) {
        assert.equal(m.parameters?.[p]?.location, 'path', `${name}: {${p}} not declared as a path parameter`);
        assert.equal(m.parameters?.[p]?.required, true, `${name}: ${p} must be required`);
      }
      const required = Object.entries(m.parameters ?? {})
        .filter(([, p]) => p.required)
        .map(([k]) => k);
      assert.deepEqual([...(m.parameterOrder ?? [])].sort(), required.sort(), `${name}: parameterOrder`);
      for (const [k, p] of Object.entries(m.parameters ?? {})) {
        if (p.location === 'path') assert.ok(inPath.includes(k), `${name}: path parameter ${k} not in the path`);
      }
      assert.ok(['GET', 'POST', 'DELETE', 'PATCH', 'PUT'].includes(m.httpMethod));
    }
  });

  describe('matches the emulator', () => {
    let s: TestServer;
    before(async () => {
      s = await startGenerationEmulator();
    });
    after(async () => s.close());

    it('answers every described operation at its flat path (no 404 for a route it does not know)', async () => {
      const sample: Record<string, string> = {
        modelsId: 'gemini-2.5-flash',
        tunedModelsId: 'sandbox-support-bot',
        filesId: 'does-not-exist',
      };
      for (const [name, m] of methods()) {
        if (name === 'media.upload') continue;
        const p = (m.flatPath ?? m.path).replace(/\{([^}]+)\}/g, (_, k: string) => sample[k]);
        const body = m.request
          ? JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi [[fast]]' }] }] })
          : undefined;
        const r = await fetch(`${s.origin}/${p}${name.endsWith('streamGenerateContent') ? '?alt=sse' : ''}`, {
          method: m.httpMethod,
          headers: { 'x-goog-api-key': s.apiKey },
          body,
        });
        const text = await r.text();
        assert.ok(!/Method \w+ \S+ is not found/.test(text), `${name} → ${r.status} ${text.slice(0, 120)}`);
        if (!name.startsWith('files.')) assert.equal(r.status, 200, `${name}: ${text.slice(0, 200)}`);
      }
    });
  });
});
