import * as assert from 'node:assert/strict';
import { redactError, redactHeaders, redactText, redactUrl } from '../../../../src/shared/http';

describe('shared http: redaction', () => {
  it('redacts every credential query parameter of a URL, keeping the rest', () => {
    assert.equal(redactUrl('https://x/y?a=1&key=abc&b=2'), 'https://x/y?a=1&key=REDACTED&b=2');
    assert.equal(
      redactUrl('http://h/upload?uploadType=resumable&upload_id=S3SS10N&access_token=t0k&API_KEY=k&token=z#f'),
      'http://h/upload?uploadType=resumable&upload_id=REDACTED&access_token=REDACTED&API_KEY=REDACTED&token=REDACTED#f',
    );
    assert.equal(redactUrl('https://user:pa55@h/p?monkey=1'), 'https://REDACTED@h/p?monkey=1');
  });

  it('finds URLs and bearer tokens inside free text (library error messages)', () => {
    const msg =
      'request to http://127.0.0.1:1/v1beta/m:stream?alt=sse&key=AIzaSECRET failed, reason: maximum redirect reached at: http://a/b?key=AIzaSECRET';
    const out = redactText(msg);
    assert.ok(!out.includes('AIzaSECRET'), out);
    assert.match(out, /alt=sse&key=REDACTED/);
    assert.equal(redactText('Authorization: Bearer ya29.a0AfH6SMBxyz'), 'Authorization: Bearer REDACTED');
    assert.equal(redactText('Basic usage, no secrets'), 'Basic usage, no secrets');
  });

  it('redacts credential headers whatever their case, and keeps the others', () => {
    assert.deepEqual(
      redactHeaders({
        Authorization: 'Bearer abcdefgh',
        'x-goog-api-key': 'k',
        'X-Api-Key': 'k',
        Cookie: 'a=b',
        accept: 'application/json',
      }),
      {
        Authorization: 'REDACTED',
        'x-goog-api-key': 'REDACTED',
        'X-Api-Key': 'REDACTED',
        Cookie: 'REDACTED',
        accept: 'application/json',
      },
    );
  });

  it('gives an error with the same name and code but no credential in message or stack', () => {
    const e = Object.assign(new Error('request to http://h/?key=SECRET123 failed'), {
      code: 'ECONNREFUSED',
      name: 'FetchError',
    });
    const clean = redactError(e);
    assert.equal(clean.name, 'FetchError');
    assert.equal((clean as Error & { code?: string }).code, 'ECONNREFUSED');
    assert.ok(!clean.message.includes('SECRET123') && !String(clean.stack).includes('SECRET123'));
  });
});
