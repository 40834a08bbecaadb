// Revision diff figure (issue 14): `diffDiscovery` of the largest shared document against a seeded copy
// (a method removed, a parameter made required, an enum value dropped, a property retyped, a schema
// renamed with every $ref to it, a revision bump) vs JSON.parse of both texts, the least any comparison
// of two documents must do; goal <= 10. The issue names compute.beta, which the shared data does not
// hold; aiplatform.v1beta1 (4 MB) is the largest document there is. Each run times ours and the peer
// back to back; the figure is the median of the per-run ratios, and every run is in the detail.
// Run alone: BENCH=discovery-diff node test/bench/run.mjs (BENCH_SMOKE=1: one short iteration).
import { readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { loadavg } from 'node:os';
import { diffDiscovery } from '../../src/discovery/core/diff';
import { SMOKE } from './smoke';
import type { BenchSuite } from './types';

const DATA = process.env.API_WORKBENCH_DATA
  ? join(process.env.API_WORKBENCH_DATA, 'discovery')
  : resolve(__dirname, '../../../shared/data/discovery');
// BENCH_DISCOVERY_DOCUMENT=<path> measures another document, e.g. the compute.beta.json (5.4 MB) that
// google-api-python-client ships in its discovery cache (the Python peer tests' venv holds one).
const CHOSEN = process.env.BENCH_DISCOVERY_DOCUMENT;
const DOCUMENT = CHOSEN ? basename(CHOSEN) : SMOKE ? 'bigquery.v2.json' : 'aiplatform.v1beta1.json';
const RUNS = SMOKE ? 1 : 9;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function methods(root: Obj): Obj[] {
  const out: Obj[] = [];
  const walk = (res: unknown) => {
    if (!isObj(res)) return;
    for (const r of Object.values(res)) {
      if (!isObj(r)) continue;
      if (isObj(r.methods))
        for (const [k, m] of Object.entries(r.methods))
          if (isObj(m)) out.push(Object.assign(m, { __key: k, __in: r.methods }));
      walk(r.resources);
    }
  };
  walk(root.resources);
  return out;
}

function renameRefs(v: unknown, from: string, to: string): void {
  if (Array.isArray(v)) v.forEach((x) => renameRefs(x, from, to));
  else if (isObj(v))
    for (const k of Object.keys(v)) {
      if (k === '$ref' && v[k] === from) v[k] = to;
      else renameRefs(v[k], from, to);
    }
}

/** The seeded copy and how many changes went in. */
function seed(text: string): string {
  const doc = JSON.parse(text) as Obj;
  const all = methods(doc);
  const victim = all[0];
  delete (victim.__in as Obj)[victim.__key as string];
  for (const m of all) {
    delete m.__key;
    delete m.__in;
  }
  const withQuery = all
    .slice(1)
    .find((m) => isObj(m.parameters) && Object.values(m.parameters).some((p) => isObj(p) && p.location === 'query'));
  const q = Object.values(withQuery!.parameters as Record<string, Obj>).find((p) => p.location === 'query')!;
  q.required = true;
  const schemas = doc.schemas as Record<string, Obj>;
  const withEnum = Object.values(schemas).find((s) =>
    Object.values((s.properties ?? {}) as Record<string, Obj>).some((p) => Array.isArray(p.enum) && p.enum.length > 1),
  )!;
  const e = Object.values(withEnum.properties as Record<string, Obj>).find(
    (p) => Array.isArray(p.enum) && p.enum.length > 1,
  )!;
  (e.enum as unknown[]).pop();
  const withString = Object.values(schemas).find((s) =>
    Object.values((s.properties ?? {}) as Record<string, Obj>).some((p) => p.type === 'string'),
  )!;
  Object.values(withString.properties as Record<string, Obj>).find((p) => p.type === 'string')!.type = 'integer';
  // A schema some $ref names (an unreferenced one has no $ref to follow) that the other seeds left alone.
  const named = new Set([...text.matchAll(/"\$ref": "([^"]+)"/g)].map((m) => m[1]));
  const renamed = Object.keys(schemas).find(
    (k) => named.has(k) && k.length > 10 && schemas[k] !== withEnum && schemas[k] !== withString,
  )!;
  schemas[`${renamed}Renamed`] = { ...schemas[renamed], id: `${renamed}Renamed` };
  delete schemas[renamed];
  renameRefs(doc, renamed, `${renamed}Renamed`);
  doc.revision = '29991231';
  return JSON.stringify(doc, null, 2);
}

const round = (n: number) => Math.round(n * 100) / 100;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const suite: BenchSuite = () => {
  const oldText = readFileSync(CHOSEN ?? join(DATA, DOCUMENT), 'utf8');
  const newText = seed(oldText);
  const ours: number[] = [];
  const peer: number[] = [];
  let found = diffDiscovery(oldText, newText); // warm-up, and the changes the detail reports
  for (let i = 0; i < RUNS; i++) {
    let t0 = performance.now();
    found = diffDiscovery(oldText, newText);
    ours.push(performance.now() - t0);
    t0 = performance.now();
    JSON.parse(oldText);
    JSON.parse(newText);
    peer.push(performance.now() - t0);
  }
  const ratio = median(ours.map((o, i) => o / peer[i]));
  return Promise.resolve([
    {
      name: `discovery: diff ${DOCUMENT} vs a seeded copy, vs JSON.parse of both`,
      ratio: round(ratio),
      goal: '<= 10',
      met: ratio <= 10,
      detail: {
        loadAverage1m: loadavg()[0],
        runs: ours.map((o, i) => `${round(o / peer[i])} (${round(o)}/${round(peer[i])})`).join(' '),
        oursMs: Math.min(...ours),
        peerMs: Math.min(...peer),
        bytes: oldText.length + newText.length,
        changes: found.map((c) => c.code).join(','),
      },
    },
  ]);
};

export default suite;
