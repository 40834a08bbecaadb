// The diff on awkward input: recursive schemas, renames inside cycles, global parameters, values of
// the wrong JSON type, inputs that are not description documents, and many retargets at once.
import * as assert from 'node:assert/strict';
import { diffDiscovery, DiffInputError } from '../../../../src/discovery/core/diff';
import { assertWellFormed, baseDocument, diffSeeded } from './fixture';

const text = (v: unknown) => JSON.stringify(v, null, 2);

describe('diff: awkward input', () => {
  it('ends on recursive schemas and treats a recursive schema renamed with its self-reference as a rename', () => {
    const before = baseDocument();
    Object.assign(before.schemas, {
      Node: { id: 'Node', type: 'object', properties: { child: { $ref: 'Node' }, name: { type: 'string' } } },
    });
    Object.assign(before.resources.items.methods.get, { response: { $ref: 'Node' } });
    const after = structuredClone(before) as typeof before & { schemas: Record<string, unknown> };
    after.schemas.Tree = {
      id: 'Tree',
      type: 'object',
      properties: { child: { $ref: 'Tree' }, name: { type: 'string' } },
    };
    delete after.schemas.Node;
    after.resources.items.methods.get.response = { $ref: 'Tree' };
    const changes = diffDiscovery(text(before), text(after));
    assert.deepEqual(
      changes.map((c) => c.code),
      ['schema-renamed'],
    );
    assertWellFormed(changes, text(before), text(after));
  });

  it('a rename into a recursive schema whose shape changed is breaking, with the first difference', () => {
    const before = baseDocument();
    Object.assign(before.schemas, {
      Node: { id: 'Node', type: 'object', properties: { child: { $ref: 'Node' }, name: { type: 'string' } } },
    });
    Object.assign(before.resources.items.methods.get, { response: { $ref: 'Node' } });
    const after = structuredClone(before) as typeof before & { schemas: Record<string, unknown> };
    after.schemas.Tree = { id: 'Tree', type: 'object', properties: { child: { $ref: 'Tree' } } };
    delete after.schemas.Node;
    after.resources.items.methods.get.response = { $ref: 'Tree' };
    const changes = diffDiscovery(text(before), text(after));
    assert.deepEqual(changes.map((c) => c.code).sort(), ['ref-retargeted', 'schema-added', 'schema-removed']);
    assert.match(changes[0].message, /not compatible: Property Tree\.name was removed/);
  });

  it('ends on a schema that is only a reference to itself, or a cycle of references, on either side', () => {
    const before = baseDocument() as ReturnType<typeof baseDocument> & { schemas: Record<string, unknown> };
    Object.assign(before.schemas, {
      A: { id: 'A', $ref: 'A' },
      X: { id: 'X', $ref: 'Y' },
      Y: { id: 'Y', $ref: 'X' },
    });
    Object.assign(before.resources.items.methods.get, { response: { $ref: 'A' } });
    Object.assign(before.resources.items.methods.insert, { response: { $ref: 'X' } });
    const inline = structuredClone(before);
    Object.assign(inline.resources.items.methods.get, { response: { type: 'object' } });
    Object.assign(inline.resources.items.methods.insert, { response: { type: 'string' } });
    const reshaped = structuredClone(before);
    reshaped.schemas.A = { id: 'A', type: 'object', properties: { a: { $ref: 'A' } } };
    reshaped.schemas.Y = { id: 'Y', type: 'string' };
    for (const [o, n] of [
      [before, inline],
      [inline, before],
      [before, reshaped],
      [reshaped, before],
      [before, before],
    ]) {
      const changes = diffDiscovery(text(o), text(n));
      assertWellFormed(changes, text(o), text(n));
      // A schema that is only a reference (to itself, or round a cycle) has no shape a client relies on.
      assert.deepEqual(
        changes.filter((c) => c.severity === 'breaking').map((c) => c.message),
        [],
      );
      if (o === n) assert.deepEqual(changes, []);
    }
  });

  it('a verdict that assumed a pair in a cycle compatible is dropped when that pair turns out not to be', () => {
    // P (next: P, name) was answered by get and by insert; now get answers Q (next: R, no name) and insert
    // answers R (next: Q, name). R looks like P until its next is followed: R.next is a Q, which has no name.
    const before = baseDocument() as ReturnType<typeof baseDocument> & { schemas: Record<string, unknown> };
    before.schemas.P = {
      id: 'P',
      type: 'object',
      properties: { next: { $ref: 'P' }, name: { type: 'string' } },
    };
    Object.assign(before.resources.items.methods.get, { response: { $ref: 'P' } });
    Object.assign(before.resources.items.methods.insert, { response: { $ref: 'P' } });
    const after = structuredClone(before);
    delete after.schemas.P;
    after.schemas.Q = { id: 'Q', type: 'object', properties: { next: { $ref: 'R' } } };
    after.schemas.R = { id: 'R', type: 'object', properties: { next: { $ref: 'Q' }, name: { type: 'string' } } };
    after.resources.items.methods.get.response = { $ref: 'Q' };
    after.resources.items.methods.insert.response = { $ref: 'R' };
    const changes = diffDiscovery(text(before), text(after));
    const retargets = changes.filter((c) => c.code.startsWith('ref-retargeted'));
    assert.deepEqual(
      retargets.map((c) => c.code),
      ['ref-retargeted', 'ref-retargeted'],
      retargets.map((c) => c.message).join('\n'),
    );
    assertWellFormed(changes, text(before), text(after));
  });

  it('compares the document-wide parameters like a method’s', () => {
    const { changes } = diffSeeded((d) => {
      Object.assign(d.parameters, { alt: { type: 'string', location: 'query', required: true } });
      d.parameters.key.location = 'path';
    });
    assert.deepEqual(changes.map((c) => c.code).sort(), ['parameter-location-changed', 'parameter-required-added']);
    assert.ok(changes.every((c) => c.message.includes('every method')));
  });

  it('never throws on values of the wrong JSON type anywhere', () => {
    const base = baseDocument();
    const paths: string[][] = [];
    const walk = (v: unknown, path: string[]) => {
      if (path.length) paths.push(path);
      if (typeof v === 'object' && v !== null) for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
    };
    walk(base, []);
    const odd: unknown[] = [null, 7, 'x', [], {}, [1, 'a', null], true];
    let compared = 0;
    paths.forEach((path, i) => {
      if (path[0] === 'kind') return;
      const copy = structuredClone(base) as Record<string, unknown>;
      let at: Record<string, unknown> = copy;
      for (const seg of path.slice(0, -1)) at = at[seg] as Record<string, unknown>;
      at[path[path.length - 1]] = odd[i % odd.length];
      const changes = diffDiscovery(text(base), text(copy));
      diffDiscovery(text(copy), text(base));
      assertWellFormed(changes, text(base), text(copy));
      compared++;
    });
    assert.ok(compared > 100);
  });

  it('refuses what is not a description document with a DiffInputError', () => {
    const good = text(baseDocument());
    for (const bad of ['', '[]', '{"kind": "other"}', 'not json', '{"kind": "discovery#restDescription", "a": ']) {
      assert.throws(() => diffDiscovery(good, bad), DiffInputError, bad);
      assert.throws(() => diffDiscovery(bad, good), DiffInputError, bad);
    }
  });

  it('stays bounded when every schema is retargeted to a look-alike', () => {
    // 300 schemas, each a chain to the next; every $ref renamed to a twin: the pairs are memoised.
    const before = baseDocument() as ReturnType<typeof baseDocument> & { schemas: Record<string, unknown> };
    const N = 300;
    for (let i = 0; i < N; i++)
      before.schemas[`S${i}`] = {
        id: `S${i}`,
        type: 'object',
        properties: { next: { $ref: `S${(i + 1) % N}` }, back: { $ref: `S${(i + N - 1) % N}` }, v: { type: 'string' } },
      };
    // And 40 diamonds: D(i) refers to D(i+1) twice, so there are 2^40 paths to the last one.
    const D = 40;
    for (let i = 0; i < D; i++)
      before.schemas[`D${i}`] = {
        id: `D${i}`,
        type: 'object',
        properties: i + 1 < D ? { a: { $ref: `D${i + 1}` }, b: { $ref: `D${i + 1}` } } : { v: { type: 'string' } },
      };
    Object.assign(before.resources.items.methods.get, { response: { $ref: 'S0' } });
    Object.assign(before.resources.items.methods.insert, { response: { $ref: 'D0' } });
    const after = JSON.parse(
      text(before)
        .replace(/"S(\d+)"/g, '"T$1"')
        .replace(/"D(\d+)"/g, '"E$1"'),
    ) as typeof before;
    const changes = diffDiscovery(text(before), text(after));
    // The work is bounded by a budget linear in the documents' size; a comparison past it is reported as not
    // compatible ("reached its work limit"). So the renames below are found only if the memo keeps the work
    // linear: without it the diamonds' pairs are compared again down every path and the budget runs out.
    assert.deepEqual(new Set(changes.map((c) => c.code)), new Set(['schema-renamed']));
    assert.equal(changes.length, N + D);
    assert.ok(changes.every((c) => !c.message.includes('work limit')));
  });
});
