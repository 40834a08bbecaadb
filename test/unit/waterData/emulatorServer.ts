// Mounts only the water-data emulator on a loopback port, with test-chosen options.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWaterDataEmulatorWith, type WaterEmulatorOptions } from '../../../src/sandbox/waterData';

export interface TestServer {
  baseUrl: string;
  apiKey: string;
  close(): Promise<void>;
}

export async function startWaterEmulator(options: Partial<WaterEmulatorOptions> = {}): Promise<TestServer> {
  const apiKey = 'test-key-123';
  let origin = '';
  const emulator = createWaterDataEmulatorWith(options)({ apiKey, accessToken: 'unused', origin: () => origin });
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    Promise.resolve(emulator.handle(req, res, url)).catch((e) => {
      res.writeHead(500);
      res.end(String(e));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: `${origin}/v1/odata/v4`,
    apiKey,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
