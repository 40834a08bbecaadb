// Terms of use: every presentation of rows carries the citation, licence and DOI link of the datasets
// behind them. DOIs found in rows are resolved through /Metadata once per endpoint and cached.
import type { DatasetAttribution } from '../protocol';
import type { WaterClient } from './client';
import { quoteString } from './filter';
import { eachPage } from './pager';
import { buildUrl } from './url';

const CHUNK = 40;

export function doisOf(rows: readonly Record<string, unknown>[]): string[] {
  const out = new Set<string>();
  for (const r of rows) if (typeof r.DOI === 'string' && r.DOI) out.add(r.DOI);
  return [...out];
}

export function attributionFromMetadata(row: Record<string, unknown>): DatasetAttribution | undefined {
  if (typeof row.DOI !== 'string') return undefined;
  const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
  return {
    doi: row.DOI,
    datasetName: str(row.DatasetName),
    citation: str(row.Citation),
    licence: str(row.Licence),
    disclaimer: str(row.Disclaimer),
  };
}

export class AttributionCache {
  private readonly known = new Map<string, DatasetAttribution>();

  remember(a: DatasetAttribution): void {
    if (a.citation || a.licence) this.known.set(a.doi, a);
  }

  /** DOIs seen so far (offered as completions). */
  dois(): string[] {
    return [...this.known.keys()];
  }

  async resolve(client: WaterClient, dois: readonly string[], signal?: AbortSignal): Promise<DatasetAttribution[]> {
    const missing = dois.filter((d) => !this.known.has(d));
    for (let i = 0; i < missing.length; i += CHUNK) {
      const chunk = missing.slice(i, i + CHUNK);
      const url = buildUrl(client.baseUrl, {
        entitySet: 'Metadata',
        select: ['DOI', 'DatasetName', 'Citation', 'Licence', 'Disclaimer'],
        filter: `DOI in (${chunk.map(quoteString).join(', ')})`,
        top: chunk.length,
      });
      for await (const page of eachPage(client, url, signal)) {
        for (const row of page.rows) {
          const a = attributionFromMetadata(row);
          if (a) this.remember(a);
        }
      }
    }
    return dois.map((d) => this.known.get(d) ?? { doi: d });
  }
}
