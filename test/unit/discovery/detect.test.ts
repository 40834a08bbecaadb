import * as assert from 'node:assert/strict';
import { detectDiscoveryDocument, isDiscoveryDocumentText, mayBeDiscoveryDocument } from '../../../src/discovery/core';

describe('discovery detection by content', () => {
  it('accepts a top-level kind whatever else the file holds', () => {
    assert.ok(detectDiscoveryDocument('{"name": "x", "kind": "discovery#restDescription"}'));
  });

  it('accepts comments and trailing commas', () => {
    const text = '// a description\n{\n  /* block */ "kind": "discovery#restDescription",\n  "schemas": {},\n}\n';
    assert.ok(detectDiscoveryDocument(text));
    assert.ok(isDiscoveryDocumentText(text));
  });

  it('ignores the marker when it is nested or a value of another key', () => {
    assert.equal(detectDiscoveryDocument('{"inner": {"kind": "discovery#restDescription"}}'), undefined);
    assert.equal(detectDiscoveryDocument('{"kind": "x", "note": "discovery#restDescription"}'), undefined);
    assert.equal(isDiscoveryDocumentText('{"inner": {"kind": "discovery#restDescription"}}'), false);
    assert.equal(detectDiscoveryDocument('["discovery#restDescription"]'), undefined);
  });

  it('ignores other JSON, directory lists and non-JSON', () => {
    assert.equal(detectDiscoveryDocument('{"kind": "discovery#directoryList", "items": []}'), undefined);
    assert.equal(detectDiscoveryDocument('{"compilerOptions": {}}'), undefined);
    assert.equal(mayBeDiscoveryDocument('{"compilerOptions": {}}'), false);
    assert.equal(detectDiscoveryDocument('\u0000\u0001\u0002 binary discovery#restDescription'), undefined);
  });

  it('still detects a truncated document so its syntax error is shown', () => {
    const parsed = detectDiscoveryDocument('{"kind": "discovery#restDescription", "schemas": {"A": {');
    assert.ok(parsed);
    assert.ok(parsed.problems.some((p) => p.code === 'json-syntax'));
  });

  it('detects a document refused for depth by its head', () => {
    const text = '{"kind": "discovery#restDescription", "x": ' + '['.repeat(10000) + ']'.repeat(10000) + '}';
    const parsed = detectDiscoveryDocument(text);
    assert.ok(parsed);
    assert.equal(parsed.problems[0].code, 'document-too-deep');
  });
});
