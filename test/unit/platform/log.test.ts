import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { redactingLog } from '../../../src/platform/log';

class FakeChannel {
  readonly lines: string[] = [];
  #disposed = false;
  get name(): string {
    return 'fake';
  }
  info(message: string): void {
    this.lines.push(message);
  }
  error(message: string | Error): void {
    this.lines.push(typeof message === 'string' ? message : message.message);
  }
  appendLine(value: string): void {
    this.lines.push(value);
  }
  dispose(): void {
    this.#disposed = true;
  }
  get disposed(): boolean {
    return this.#disposed;
  }
}

describe('platform: the log redacts every line', () => {
  it('removes keys, tokens and session ids from strings and errors, and keeps the channel working', () => {
    const fake = new FakeChannel();
    const log = redactingLog(fake as unknown as vscode.LogOutputChannel);
    log.info('GET https://h/v1beta/models?key=AIzaSECRET123 failed');
    log.error(new Error('request to http://h/upload?upload_id=SESSION123 failed'));
    log.appendLine('Authorization: Bearer ya29.SECRET-token');
    assert.ok(!fake.lines.join('\n').match(/AIzaSECRET123|SESSION123|ya29\.SECRET/), fake.lines.join('\n'));
    assert.equal(fake.lines.length, 3);
    assert.equal(log.name, 'fake');
    log.dispose();
    assert.equal(fake.disposed, true, 'members using private state still work through the wrapper');
  });
});
