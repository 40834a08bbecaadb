// Seeded changes on real documents: each kind, applied alone to a real document, is reported with its
// code and severity; an unchanged, key-reordered or re-indented copy reports nothing.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { diffDiscovery, DIFF_CODES, type DiffCode } from '../../../../src/discovery/core/diff';
import { listAtLoad, sharedData } from '../../../support/sharedData';
import { realDocumentFiles } from '../helpers';
import { assertWellFormed } from './fixture';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function methods(root: Obj): Obj[] {
  const out: Obj[] = [];
  const walk = (res: unknown) => {
    if (!isObj(res)) return;
    for (const r of Object.values(res)) {
      if (!isObj(r)) continue;
      if (isObj(r.methods)) for (const m of Object.values(r.methods)) if (isObj(m)) out.push(m);
      walk(r.resources);
    }
  };
  if (isObj(root.methods)) for (const m of Object.values(root.methods)) if (isObj(m)) out.push(m);
  walk(root.resources);
  return out;
}

const schemas = (root: Obj) => root.schemas as Record<string, Obj>;
const props = (s: Obj) => (isObj(s.properties) ? (s.properties as Record<string, Obj>) : {});
const params = (m: Obj) => (isObj(m.parameters) ? (m.parameters as Record<string, Obj>) : {});
const inOrder = (m: Obj, p: string) => Array.isArray(m.parameterOrder) && m.parameterOrder.includes(p);

/** The first (method, parameter) where `keep` holds, among parameters outside `parameterOrder`. */
function findParam(root: Obj, keep: (p: Obj, m: Obj) => boolean): [Obj, string] {
  for (const m of methods(root))
    for (const [name, p] of Object.entries(params(m))) if (!inOrder(m, name) && keep(p, m)) return [m, name];
  throw new Error('no such parameter in the document');
}

/** The request schema of the first method taking one whose direct properties satisfy `keep`. */
function findRequestProperty(root: Obj, keep: (p: Obj) => boolean): [Obj, string, Obj, string] {
  for (const m of methods(root)) {
    const ref = isObj(m.request) ? m.request.$ref : undefined;
    const s = typeof ref === 'string' ? schemas(root)[ref] : undefined;
    if (s) for (const [name, p] of Object.entries(props(s))) if (keep(p)) return [s, name, m, ref as string];
  }
  throw new Error('no such request property in the document');
}

function findResponseProperty(root: Obj, keep: (p: Obj) => boolean): [Obj, string] {
  for (const m of methods(root)) {
    const ref = isObj(m.response) ? m.response.$ref : undefined;
    const s = typeof ref === 'string' ? schemas(root)[ref] : undefined;
    if (s) for (const [name, p] of Object.entries(props(s))) if (keep(p)) return [s, name];
  }
  throw new Error('no such response property in the document');
}

/** Every `$ref` in the document naming `from` now names `to`. */
function renameRefs(v: unknown, from: string, to: string): void {
  if (Array.isArray(v)) v.forEach((x) => renameRefs(x, from, to));
  else if (isObj(v))
    for (const k of Object.keys(v)) {
      if (k === '$ref' && v[k] === from) v[k] = to;
      else renameRefs(v[k], from, to);
    }
}

const isEnum = (p: Obj) => Array.isArray(p.enum) && p.enum.length >= 2;
const methodWith = (root: Obj, keep: (m: Obj) => boolean) => {
  const m = methods(root).find(keep);
  if (!m) throw new Error('no such method in the document');
  return m;
};
const upload = (root: Obj) => methodWith(root, (m) => isObj(m.mediaUpload)).mediaUpload as Obj;

const SEEDS: [DiffCode[], (d: Obj) => void][] = [
  [['method-removed'], (d) => delete methodsOf(d)[firstMethodName(d)]],
  [['method-path-changed'], (d) => (methods(d)[0].path = `${String(methods(d)[0].path)}/seeded`)],
  [
    ['method-flat-path-changed'],
    (d) => {
      const m = methodWith(d, (x) => typeof x.flatPath === 'string' && x.flatPath !== x.path);
      m.flatPath = `${String(m.flatPath)}/seeded`;
    },
  ],
  [['method-http-method-changed'], (d) => (methodWith(d, (m) => m.httpMethod === 'GET').httpMethod = 'POST')],
  [
    ['parameter-required-added'],
    (d) =>
      (params(methodWith(d, (m) => isObj(m.parameters))).seeded = {
        type: 'string',
        location: 'query',
        required: true,
      }),
  ],
  [
    ['parameter-removed'],
    (d) => {
      const [m, p] = findParam(d, (x) => x.location === 'query');
      delete params(m)[p];
    },
  ],
  [
    ['parameter-renamed'],
    (d) => {
      const [m, p] = findParam(d, (x) => x.location === 'query');
      params(m)[`${p}Seeded`] = params(m)[p];
      delete params(m)[p];
    },
  ],
  [
    ['parameter-made-required'],
    (d) => {
      const [m, p] = findParam(d, (x) => x.location === 'query' && x.required !== true);
      params(m)[p].required = true;
    },
  ],
  [
    ['parameter-location-changed'],
    (d) => {
      const [m, p] = findParam(d, (x) => x.location === 'query');
      params(m)[p].location = 'path';
    },
  ],
  [
    ['parameter-type-changed'],
    (d) => {
      const [m, p] = findParam(d, (x) => x.type === 'string');
      params(m)[p].type = 'integer';
    },
  ],
  [
    ['parameter-format-changed'],
    (d) => {
      const [m, p] = findParam(d, (x) => x.type === 'string' && x.format === undefined);
      params(m)[p].format = 'int64';
    },
  ],
  [
    ['parameter-repeated-changed'],
    (d) => {
      const [m, p] = findParam(d, (x) => x.location === 'query');
      params(m)[p].repeated = params(m)[p].repeated !== true;
    },
  ],
  [
    ['parameter-enum-value-removed'],
    (d) => {
      const [m, p] = findParam(d, isEnum);
      (params(m)[p].enum as unknown[]).pop();
    },
  ],
  [
    ['request-enum-value-removed'],
    (d) => {
      const [s, p] = findRequestProperty(d, isEnum);
      (props(s)[p].enum as unknown[]).pop();
    },
  ],
  [
    ['property-made-required'],
    (d) => {
      const [s, p, m] = findRequestProperty(d, (x) => x.annotations === undefined && x.readOnly !== true);
      props(s)[p].annotations = { required: [m.id] };
    },
  ],
  [
    ['property-removed'],
    (d) => {
      const [s, p] = findResponseProperty(d, () => true);
      delete props(s)[p];
    },
  ],
  [
    ['property-type-changed'],
    (d) => {
      const [s, p] = findResponseProperty(d, (x) => x.type === 'string');
      props(s)[p].type = 'boolean';
    },
  ],
  [
    ['property-format-changed'],
    (d) => {
      const [s, p] = findResponseProperty(d, (x) => x.type === 'string' && typeof x.format === 'string');
      props(s)[p].format = 'seeded';
    },
  ],
  [
    ['ref-retargeted', 'schema-added'],
    (d) => {
      const [s, p] = findResponseProperty(d, (x) => typeof x.$ref === 'string');
      schemas(d).SeededTarget = { id: 'SeededTarget', type: 'object', properties: { seeded: { type: 'string' } } };
      props(s)[p].$ref = 'SeededTarget';
    },
  ],
  [
    ['schema-renamed'],
    (d) => {
      const [, , , name] = findRequestProperty(d, () => true);
      schemas(d)[`${name}Seeded`] = { ...schemas(d)[name], id: `${name}Seeded` };
      delete schemas(d)[name];
      renameRefs(d, name, `${name}Seeded`);
    },
  ],
  [
    ['scope-removed'],
    (d) => {
      // Drop a scope that grants none of the method's other scopes (`…/drive` would grant `…/drive.file`).
      for (const m of methods(d)) {
        const scopes = Array.isArray(m.scopes) ? (m.scopes as string[]) : [];
        const i = scopes.findIndex((s) => !scopes.some((r) => r !== s && r.startsWith(`${s}.`)));
        if (i >= 0) return void scopes.splice(i, 1);
      }
      throw new Error('no such scope in the document');
    },
  ],
  [['root-url-changed'], (d) => (d.rootUrl = 'https://seeded.example.com/')],
  [['service-path-changed'], (d) => (d.servicePath = `${String(d.servicePath)}seeded/`)],
  [['batch-path-changed'], (d) => (d.batchPath = 'batch/seeded')],
  [['media-upload-max-size-lowered'], (d) => (upload(d).maxSize = '1MB')],
  [['media-upload-accept-removed'], (d) => (upload(d).accept = [])],
  // Not breaking
  [
    ['method-added'],
    (d) => (methodsOf(d).seededMethod = { id: `${String(d.name)}.seeded`, path: 'seeded', httpMethod: 'GET' }),
  ],
  [
    ['parameter-added'],
    (d) => (params(methodWith(d, (m) => isObj(m.parameters))).seeded = { type: 'string', location: 'query' }),
  ],
  [
    ['property-added'],
    (d) => {
      const [s] = findResponseProperty(d, () => true);
      props(s).seededProperty = { type: 'string' };
    },
  ],
  [
    ['parameter-enum-value-added'],
    (d) => {
      const [m, p] = findParam(d, isEnum);
      (params(m)[p].enum as unknown[]).push('SEEDED');
    },
  ],
  [
    ['response-enum-value-added'],
    (d) => {
      const [s, p] = findResponseProperty(d, isEnum);
      (props(s)[p].enum as unknown[]).push('SEEDED');
    },
  ],
  [['description-changed'], (d) => (methods(d)[0].description = 'Seeded description.')],
  [['revision-changed'], (d) => (d.revision = '29991231')],
  // Deprecations
  [['method-deprecated'], (d) => (methods(d)[0].deprecated = true)],
  [
    ['parameter-deprecated'],
    (d) => {
      const [m, p] = findParam(d, (x) => x.deprecated !== true);
      params(m)[p].deprecated = true;
    },
  ],
  [
    ['enum-value-deprecated'],
    (d) => {
      const [m, p] = findParam(d, (x) => isEnum(x) && !Array.isArray(x.enumDeprecated));
      params(m)[p].enumDeprecated = (params(m)[p].enum as unknown[]).map((_, i) => i === 0);
    },
  ],
];

/** The methods map of the first resource (at any depth) that has methods. */
function methodsOf(d: Obj): Record<string, Obj> {
  const find = (res: unknown): Record<string, Obj> | undefined => {
    if (!isObj(res)) return undefined;
    for (const r of Object.values(res)) {
      if (!isObj(r)) continue;
      if (isObj(r.methods)) return r.methods as Record<string, Obj>;
      const inner = find(r.resources);
      if (inner) return inner;
    }
    return undefined;
  };
  const found = find(d.resources);
  if (!found) throw new Error('no such resource in the document');
  return found;
}
const firstMethodName = (d: Obj) => Object.keys(methodsOf(d))[0];

function reorderKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reorderKeys);
  if (!isObj(v)) return v;
  return Object.fromEntries(
    Object.keys(v)
      .reverse()
      .map((k) => [k, reorderKeys(v[k])]),
  );
}

// Small to large: each seed goes into every one of these where it applies, and must apply to one.
const SEEDED_DOCS = ['drive.v2.json', 'bigquery.v2.json', 'dataplex.v1.json'];

describe('diff: seeded changes on real documents', function () {
  this.timeout(120000);
  const texts = new Map<string, string>();
  before(() => {
    for (const f of SEEDED_DOCS) texts.set(f, readFileSync(sharedData('discovery', f), 'utf8'));
  });

  it('applying no change reports nothing', () => {
    for (const text of texts.values()) assert.deepEqual(diffDiscovery(text, text), []);
  });

  for (const [codes, seed] of SEEDS) {
    it(`${codes[0]} (${DIFF_CODES[codes[0]].severity})`, () => {
      let applied = 0;
      for (const [file, text] of texts) {
        const doc = JSON.parse(text) as Obj;
        try {
          seed(doc);
        } catch (err) {
          if ((err as Error).message.startsWith('no such')) continue; // nothing of that kind in this document
          throw err;
        }
        applied++;
        const seeded = JSON.stringify(doc, null, 2);
        const changes = diffDiscovery(text, seeded);
        const what = `${file}: ${JSON.stringify(changes.slice(0, 3))}`;
        assert.deepEqual(changes.map((c) => c.code).sort(), [...codes].sort(), what);
        assert.equal(changes.find((c) => c.code === codes[0])!.severity, DIFF_CODES[codes[0]].severity);
        assertWellFormed(changes, text, seeded);
      }
      assert.ok(applied > 0, `the seed applies to none of ${SEEDED_DOCS.join(', ')}`);
    });
  }

  const all = listAtLoad(realDocumentFiles);
  it('finds the shared documents', () => {
    all.failIfMissing();
    assert.ok(all.files.length >= 30);
  });
  for (const file of all.files) {
    it(`${basename(file)}: a key-reordered, a re-indented and a minified copy report nothing`, () => {
      const text = readFileSync(file, 'utf8');
      const value = JSON.parse(text) as unknown;
      for (const copy of [
        JSON.stringify(reorderKeys(value), null, 2),
        JSON.stringify(value, null, '\t'),
        JSON.stringify(value),
      ])
        assert.deepEqual(diffDiscovery(text, copy), []);
    });
  }
});
