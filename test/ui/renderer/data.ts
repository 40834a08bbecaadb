// Deterministic, realistic-looking results for the browser tests and the bench.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { DatasetAttribution, WaterResult } from '../../../src/waterData/protocol';

// The shared real data lives beside the repository (../shared); API_WORKBENCH_DATA overrides.
const FIXTURES = process.env.API_WORKBENCH_DATA
  ? join(process.env.API_WORKBENCH_DATA, 'datastream', 'fixtures')
  : resolve(__dirname, '../../../../shared/data/datastream/fixtures');

export function fixtureRows(name: string): Record<string, unknown>[] {
  const page: unknown = JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'));
  if (!isPage(page)) throw new Error(`fixture ${name} is not a {"value": [rows]} page`);
  return page.value;
}

function isPage(v: unknown): v is { value: Record<string, unknown>[] } {
  const rows = typeof v === 'object' && v !== null ? (v as { value?: unknown }).value : undefined;
  return Array.isArray(rows) && rows.every((r) => typeof r === 'object' && r !== null && !Array.isArray(r));
}

/** Small linear congruential generator: the same data on every run. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export const ATTRIBUTIONS: DatasetAttribution[] = [
  {
    doi: '10.25976/xxxx-xx00',
    datasetName: 'Sample Dataset A',
    citation:
      'Sample Organization A. 2024. "Sample Dataset A" (dataset). 1.0.0. DataStream. https://doi.org/10.25976/xxxx-xx00.',
    licence: 'https://opendatacommons.org/licenses/by/1-0/',
  },
  {
    doi: '10.81029/ab12-cd34',
    datasetName: 'Provincial Lakes Monitoring',
    citation:
      'Government of Sample Province. 2023. "Provincial Lakes Monitoring" (dataset). 2.1.0. DataStream. https://doi.org/10.81029/ab12-cd34.',
    licence: 'ogl',
    disclaimer: 'The Government of Sample Province makes no warranty as to the accuracy of these data.',
  },
];

const CHARACTERISTICS: [string, string, number, number][] = [
  ['Temperature, water', 'deg C', 9, 9],
  ['pH', 'None', 7.6, 0.5],
  ['Dissolved oxygen (DO)', 'mg/L', 9.5, 2],
  ['Specific conductance', 'uS/cm', 320, 80],
];

export function observationRows(count: number, seed = 7): Record<string, unknown>[] {
  const r = rng(seed);
  const rows: Record<string, unknown>[] = [];
  const template = fixtureRows('apidocs-sample-observations.json')[0];
  for (let i = 0; i < count; i++) {
    const [name, unit, mean, amp] = CHARACTERISTICS[i % CHARACTERISTICS.length];
    const loc = 3271776 + Math.floor(r() * 6);
    const day = Math.floor(i / CHARACTERISTICS.length) % 1460;
    const date = new Date(Date.UTC(2020, 3, 1) + day * 86400000);
    const season = Math.sin(((date.getUTCMonth() + date.getUTCDate() / 31 - 4) / 12) * 2 * Math.PI);
    rows.push({
      ...template,
      Id: 500000 + i,
      DOI: i % 3 === 0 ? '10.81029/ab12-cd34' : '10.25976/xxxx-xx00',
      LocationId: loc,
      ActivityStartDate: date.toISOString().slice(0, 10),
      ActivityStartTime: `${String(8 + (i % 9)).padStart(2, '0')}:${String((i * 7) % 60).padStart(2, '0')}:00`,
      CharacteristicName: name,
      ResultValue:
        Math.round(
          (mean +
            amp * (name === 'Temperature, water' ? season : season * 0.4) +
            (r() - 0.5) * amp * 0.3 +
            (loc % 6) * amp * 0.05) *
            100,
        ) / 100,
      ResultUnit: unit,
      ResultComment: i === 3 ? '<img src=x onerror=alert(1)>' : i % 11 === 0 ? 'Field duplicate' : null,
    });
  }
  return rows;
}

const SITES: [string, number, number][] = [
  ['Bow River at Calgary', 51.05, -114.07],
  ['Red River at Winnipeg', 49.9, -97.13],
  ['Fraser River at Hope', 49.38, -121.44],
  ['Athabasca River at Fort McMurray', 56.73, -111.38],
  ['Lake Winnipeg North Basin', 52.9, -98.0],
  ['Mackenzie River at Inuvik', 68.36, -133.72],
  ['Great Slave Lake at Yellowknife', 62.45, -114.37],
  ['LaHave River at Bridgewater', 44.38, -64.52],
  ['Saint John River at Fredericton', 45.96, -66.64],
  ['Ottawa River at Ottawa', 45.42, -75.7],
  ['Lake Ontario at Toronto', 43.63, -79.38],
  ['Yukon River at Whitehorse', 60.72, -135.05],
  ['Churchill River', 58.77, -94.17],
  ['Saskatchewan River at The Pas', 53.82, -101.25],
  ['Humber River, NL', 48.95, -57.93],
];

export function locationRows(extra = 60, seed = 11): Record<string, unknown>[] {
  const r = rng(seed);
  const template = fixtureRows('apidocs-sample-locations.json')[0];
  const rows: Record<string, unknown>[] = SITES.map(([name, lat, lon], i) => ({
    ...template,
    Id: 3271776 + i,
    ID: `SITE-${100 + i}`,
    Name: name,
    Latitude: lat,
    Longitude: lon,
  }));
  for (let i = 0; i < extra; i++) {
    const [name, lat, lon] = SITES[i % SITES.length];
    rows.push({
      ...template,
      Id: 3272000 + i,
      ID: `SITE-${200 + i}`,
      Name: `${name} tributary ${i + 1}`,
      Latitude: Math.round((lat + (r() - 0.5) * 3) * 1e4) / 1e4,
      Longitude: Math.round((lon + (r() - 0.5) * 5) * 1e4) / 1e4,
      MonitoringLocationType: i % 4 ? 'River/Stream' : 'Lake',
    });
  }
  return rows;
}

export function waterResult(
  entitySet: WaterResult['entitySet'],
  rows: Record<string, unknown>[],
  extra: Partial<WaterResult> = {},
): WaterResult {
  return {
    entitySet,
    requestUrl: `http://127.0.0.1:4010/v1/odata/v4/${entitySet}?%24top=10000`,
    columns: rows.length ? Object.keys(rows[0]) : [],
    rows,
    pages: 1,
    attributions: ATTRIBUTIONS,
    ...extra,
  };
}
