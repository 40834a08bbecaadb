// A fake notebook host: the RendererContext (messaging optional) and OutputItems VS Code would pass.
import { readFileSync } from 'node:fs';
import type { WaterPage } from '../../../src/shared/wire/waterData';
import { sharedData } from '../../support/sharedData';
import { parseAs } from '../../support/typedJson';
import type { OutputItem, RendererContext } from 'vscode-notebook-renderer';
import {
  WATER_RESULT_MIME,
  type EntitySet,
  type HostToRenderer,
  type RendererToHost,
  type WaterResult,
} from '../../../src/waterData/protocol';

export function fixtureRows(name: string): Record<string, unknown>[] {
  return parseAs<WaterPage>(readFileSync(sharedData('datastream', 'fixtures', name), 'utf8')).value;
}

export function result(
  entitySet: EntitySet,
  rows: Record<string, unknown>[],
  extra: Partial<WaterResult> = {},
): WaterResult {
  return {
    entitySet,
    requestUrl: `http://127.0.0.1:9/v1/odata/v4/${entitySet}?$top=10`,
    columns: rows.length ? Object.keys(rows[0]) : [],
    rows,
    pages: 1,
    attributions: [
      {
        doi: '10.25976/xxxx-xx00',
        datasetName: 'Sample Dataset A',
        citation:
          'Sample Organization A. 2024. "Sample Dataset A" (dataset). 1.0.0. DataStream. https://doi.org/10.25976/xxxx-xx00.',
        licence: 'https://opendatacommons.org/licenses/by/1-0/',
      },
    ],
    ...extra,
  };
}

let nextId = 0;
export function outputItem(value: unknown, mime = WATER_RESULT_MIME): OutputItem {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return {
    id: `out-${++nextId}`,
    mime,
    text: () => text,
    json: () => parseAs<unknown>(text),
    data: () => new TextEncoder().encode(text),
    blob: () => new Blob([text]),
    metadata: undefined,
  };
}

export interface FakeContext extends RendererContext<unknown> {
  posted: RendererToHost[];
  send(message: HostToRenderer): void;
}

export function fakeContext(messaging = true): FakeContext {
  const listeners = new Set<(m: unknown) => void>();
  const posted: RendererToHost[] = [];
  let state: unknown;
  const ctx: FakeContext = {
    posted,
    send: (m) => listeners.forEach((l) => l(m)),
    setState: (v) => (state = v),
    getState: () => state,
    getRenderer: () => Promise.resolve(undefined),
    workspace: { isTrusted: true },
  };
  if (messaging) {
    ctx.postMessage = (m) => posted.push(m as RendererToHost);
    ctx.onDidReceiveMessage = (listener: (m: unknown) => void) => {
      listeners.add(listener);
      return { dispose: () => listeners.delete(listener) };
    };
  }
  return ctx;
}

export function waitFor(cond: () => boolean, ms = 2000): Promise<void> {
  const start = Date.now();
  return new Promise((resolve, reject) => {
    const tick = () => {
      if (cond()) resolve();
      else if (Date.now() - start > ms) reject(new Error('timed out waiting for condition'));
      else setTimeout(tick, 5);
    };
    tick();
  });
}

/** `count` generated Observations rows with a few characteristics, locations and dates. */
export function generatedObservations(count: number): Record<string, unknown>[] {
  const chars = [
    ['pH', ''],
    ['Temperature, water', 'deg C'],
    ['Dissolved oxygen (DO)', 'mg/L'],
  ];
  const rows: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const [name, unit] = chars[i % chars.length];
    const day = new Date(Date.UTC(2020, 0, 1) + Math.floor(i / 3) * 86400000).toISOString().slice(0, 10);
    rows.push({
      Id: i + 1,
      DOI: '10.25976/xxxx-xx00',
      LocationId: 1000 + (i % 5),
      ActivityStartDate: day,
      ActivityStartTime: '10:30:00',
      CharacteristicName: name,
      ResultValue: Math.round((7 + Math.sin(i / 10) * (name === 'pH' ? 1 : 8)) * 100) / 100,
      ResultUnit: unit,
      ResultComment: i % 7 === 0 ? null : `row ${i}`,
    });
  }
  return rows;
}

type Renderer = ReturnType<typeof import('../../../src/waterData/renderer/index').createRenderer>;

export interface Mounted {
  el: HTMLElement;
  renderer: Renderer;
  item: OutputItem;
}

/** Activates the renderer like VS Code does and renders one output item into a fresh element. */
export function mount(
  mod: typeof import('../../../src/waterData/renderer/index'),
  ctx: RendererContext<unknown>,
  value: unknown,
): Mounted {
  const api = mod.activate(ctx) as unknown as Renderer;
  const el = document.createElement('div');
  document.body.append(el);
  const item = outputItem(value);
  api.renderOutputItem(item, el, new AbortController().signal);
  return { el, renderer: api, item };
}

export function dataRows(el: HTMLElement): HTMLElement[] {
  return [...el.querySelectorAll<HTMLElement>('.wq-data-row')].sort(
    (a, b) => Number(a.getAttribute('aria-rowindex')) - Number(b.getAttribute('aria-rowindex')),
  );
}

export function cellTexts(row: HTMLElement): string[] {
  return [...row.querySelectorAll('[role="gridcell"]')].map((c) => c.textContent ?? '');
}
