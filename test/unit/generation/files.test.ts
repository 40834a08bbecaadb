import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { candidateText, fileDataPart, generateContent, uploadFile, waitForActive } from '../../../src/generation/core';
import { startGenerationEmulator, type TestServer } from './emulatorServer';

describe('generation Files API', () => {
  let s: TestServer;
  before(async () => {
    s = await startGenerationEmulator();
  });
  after(async () => s.close());
  const conn = () => ({ baseUrl: s.origin, apiKey: s.apiKey });

  it('uploads in chunks with progress, polls PROCESSING → ACTIVE, then the file works as fileData', async () => {
    const data = Buffer.alloc(2500, 7);
    const progress: number[] = [];
    const up = await uploadFile({
      ...conn(),
      data,
      mimeType: 'image/png',
      displayName: 'pixel.png',
      chunkSize: 1000,
      onProgress: (n) => progress.push(n),
    });
    assert.equal(up.error, null);
    assert.deepEqual(progress, [0, 1000, 2000, 2500]);
    assert.equal(up.file!.state, 'PROCESSING');
    assert.equal(up.file!.sizeBytes, '2500');
    assert.equal(up.file!.sha256Hash, createHash('sha256').update(data).digest('base64'));

    const early = await generateContent({
      ...conn(),
      model: 'models/gemini-2.5-flash',
      request: { contents: [{ role: 'user', parts: [fileDataPart(up.file!), { text: 'describe' }] }] },
    });
    assert.equal(early.error?.status, 'FAILED_PRECONDITION', 'a PROCESSING file cannot be used yet');

    const states: string[] = [];
    const ready = await waitForActive({
      ...conn(),
      name: up.file!.name,
      intervalMs: 100,
      onState: (f) => states.push(f.state),
    });
    assert.equal(ready.error, null);
    assert.equal(ready.file!.state, 'ACTIVE');
    assert.ok(states[0] === 'PROCESSING' && states[states.length - 1] === 'ACTIVE');

    const used = await generateContent({
      ...conn(),
      model: 'models/gemini-2.5-flash',
      request: { contents: [{ role: 'user', parts: [fileDataPart(ready.file!), { text: 'describe the picture' }] }] },
    });
    assert.equal(used.error, null);
    assert.match(candidateText(used.response!.candidates![0]), /describe the picture/);
    assert.match(
      candidateText(used.response!.candidates![0]),
      new RegExp(`Attachments received: file ${ready.file!.name} \\(image/png\\)`),
    );
  });

  it('reports FAILED processing as an error', async () => {
    const up = await uploadFile({
      ...conn(),
      data: Buffer.from('not a video'),
      mimeType: 'video/mp4',
      displayName: 'broken [[fail]]',
    });
    const r = await waitForActive({ ...conn(), name: up.file!.name, intervalMs: 100 });
    assert.equal(r.file!.state, 'FAILED');
    assert.equal(r.error?.status, 'FAILED_PRECONDITION');
    assert.match(r.error.message, /failed/);
  });

  it('fails clearly when the start response has no upload URL, and on a wrong key', async () => {
    const noUrl = await uploadFile({
      ...conn(),
      data: Buffer.from('x'),
      mimeType: 'text/plain',
      fetch: () =>
        Promise.resolve({
          ok: true,
          status: 200,
          statusText: 'OK',
          headers: { get: () => null },
          body: null,
          text: () => Promise.resolve(''),
          arrayBuffer: () => Promise.resolve(new ArrayBuffer(0)),
        }),
    });
    assert.match(noUrl.error!.message, /x-goog-upload-url/);
    const bad = await uploadFile({ ...conn(), apiKey: 'nope', data: Buffer.from('x'), mimeType: 'text/plain' });
    assert.equal(bad.error?.reason, 'API_KEY_INVALID');
  });
});
