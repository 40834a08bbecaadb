import * as assert from 'node:assert/strict';
import { allowOrigin, decideCredential, parseCredential, serializeCredential } from '../../../../src/shared/http';

describe('shared http: a credential goes only to the origin it was stored for', () => {
  const bound = { value: 'k-123', origins: ['https://generativelanguage.googleapis.com'] };

  it('sends to a bound origin, whatever the path', () => {
    assert.deepEqual(decideCredential(bound, 'https://generativelanguage.googleapis.com/v1beta', false), {
      kind: 'send',
      value: 'k-123',
    });
  });

  it('asks before sending to any other origin (host, port or scheme differ)', () => {
    for (const url of [
      'https://evil.example',
      'http://generativelanguage.googleapis.com',
      'https://generativelanguage.googleapis.com:8443',
    ]) {
      assert.deepEqual(decideCredential(bound, url, true), {
        kind: 'ask',
        value: 'k-123',
        origin: new URL(url).origin,
        boundTo: bound.origins,
      });
    }
  });

  it('has nothing to send when nothing is stored', () => {
    assert.deepEqual(decideCredential(undefined, 'https://x.test', true), { kind: 'none' });
  });

  it('binds a value stored before binding existed only when the user chose the endpoint; asks when a workspace did', () => {
    const legacy = parseCredential('plain-old-key')!;
    assert.deepEqual(legacy, { value: 'plain-old-key', origins: [] });
    assert.deepEqual(decideCredential(legacy, 'https://api.datastream.org/v1/odata/v4', true), {
      kind: 'bind',
      value: 'plain-old-key',
      origin: 'https://api.datastream.org',
    });
    assert.equal(decideCredential(legacy, 'https://api.datastream.org/v1/odata/v4', false).kind, 'ask');
  });

  it('round-trips the stored record, and "Always" adds the origin once', () => {
    const raw = serializeCredential(allowOrigin(allowOrigin(bound, 'https://b.test'), 'https://b.test'));
    assert.deepEqual(parseCredential(raw), {
      value: 'k-123',
      origins: ['https://generativelanguage.googleapis.com', 'https://b.test'],
    });
    assert.equal(parseCredential(undefined), undefined);
    assert.deepEqual(parseCredential('{not json'), { value: '{not json', origins: [] });
  });
});
