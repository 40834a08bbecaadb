// The client's spacing measured where it counts: at the server. A strict front end (2 per second, no burst)
// takes the time a request arrives; the gap between two arrivals must never be under 500 ms, whatever each
// request spent getting there (a new connection, a busy event loop: simulated by holding some requests back
// before they are sent) and after a retry of a 504.
import * as assert from 'node:assert/strict';
import { defaultFetch, type HttpFetch } from '../../../src/shared/http';
import { WATER_MIN_INTERVAL_MS } from '../../../src/shared/wire/waterData';
import { WaterClient } from '../../../src/waterData/core/client';
import { WaterApiError } from '../../../src/waterData/core/errors';
import { RateLimiter } from '../../../src/waterData/core/rateLimiter';
import { startWaterEmulator } from './emulatorServer';

describe('water-data client: requests arrive at the server at least 500 ms apart', function () {
  this.timeout(60_000);

  it('with uneven delays before sending, and a retry after a 504', async () => {
    const arrivals: number[] = [];
    // The front end reads the clock once per request, as it arrives: that is the arrival time.
    const s = await startWaterEmulator({
      burst: 1,
      latencyMs: 0,
      maxScanRows: 5_000,
      now: () => {
        const t = Date.now();
        arrivals.push(t);
        return t;
      },
    });
    try {
      let n = 0;
      const slowToLeave: HttpFetch = async (url, init) => {
        // Every other request takes 30 ms to leave (its connection's set-up, a busy event loop).
        if (n++ % 2 === 0) await new Promise((r) => setTimeout(r, 30));
        return defaultFetch(url, init);
      };
      const statuses: number[] = [];
      const client = new WaterClient({
        baseUrl: s.baseUrl,
        apiKey: s.apiKey,
        fetch: slowToLeave,
        limiter: new RateLimiter(),
        maxThrottleRetries: 0,
        onRetry: (r) => statuses.push(r.status),
      });
      for (let i = 0; i < 4; i++) await client.get(`${s.baseUrl}/Locations?%24top=${i + 1}`);
      // Scans more rows than the emulator's budget: 504, retried once, 504 again.
      await assert.rejects(
        client.get(
          `${s.baseUrl}/Observations?%24filter=${encodeURIComponent("CharacteristicName eq 'pH'")}&%24count=true`,
        ),
        (e: unknown) => e instanceof WaterApiError && e.status === 504,
      );
      for (let i = 0; i < 2; i++) await client.get(`${s.baseUrl}/Locations?%24top=${i + 1}`);
      assert.deepEqual(statuses, [504], 'one retry, of the 504; no request was refused as too fast');
      assert.equal(arrivals.length, 8);
      const gaps = arrivals.slice(1).map((t, i) => t - arrivals[i]);
      assert.ok(
        gaps.every((g) => g >= WATER_MIN_INTERVAL_MS),
        `gaps at the server: ${gaps.join(', ')} ms`,
      );
    } finally {
      await s.close();
    }
  });
});
