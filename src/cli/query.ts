// `api-workbench query`: runs one water-quality query (either cell syntax) and streams rows to stdout —
// JSON lines or CSV — with progress, citations and rate-limit waits on stderr. Thin over src/waterData/core.
import { WATER_PRODUCTION_BASE_URL } from '../shared/wire/waterData';
import { AttributionCache } from '../waterData/core/attribution';
import { WaterClient } from '../waterData/core/client';
import { WaterApiError } from '../waterData/core/errors';
import { withTop } from '../waterData/core/pager';
import { DEFAULT_PAGE_SIZE, displayColumns, parseCount, wireRequest } from '../waterData/core/run';
import { streamCsv, streamRows, writableSink } from '../waterData/core/stream';
import { citationWithLink, licenceName } from '../waterData/core/summary';
import { buildUrl, toRequest } from '../waterData/core/url';
import { analyzeQuery, hasErrors } from '../waterData/core/validate';
import { parseArgs, stringFlag, UsageError } from './args';
import { CLI_SET_WATER_KEY, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, type CliCommand } from './io';

export const QUERY_USAGE =
  'usage: api-workbench query [--base-url URL] [--api-key KEY] [--format json|csv] [--max-rows N] [--dry-run] "<query>"';

const HELP = `${QUERY_USAGE}

Runs a query against the water-quality OData API and streams the rows to stdout:
  --format json   one JSON object per line (default)
  --format csv    CSV with a header line
  --max-rows N    stop after N rows (default: every row; $top in the query is the page size, as in the
                  specification: paging follows @odata.nextLink until the service gives none)
  --dry-run       print the first request URL (fully encoded) and exit 0, or the validation error and exit 1
  --base-url URL  default ${WATER_PRODUCTION_BASE_URL} (or $API_WORKBENCH_WATER_BASE_URL)
  --api-key KEY   default $DATASTREAM_API_KEY or $API_WORKBENCH_WATER_API_KEY (sent as x-api-key, never printed)

The query is either form of a notebook cell, e.g. "/Locations?$top=5" or
"/Observations
 $filter = CharacteristicName eq 'pH'".
Requests are spaced 0.5 s apart, never in parallel; results over 1,000,000 rows are partitioned by location.
`;

export const queryCommand: CliCommand = async (args, io) => {
  let format: 'json' | 'csv';
  let maxRows: number | undefined;
  let dryRun: boolean;
  let baseUrl: string;
  let apiKey: string | undefined;
  let text: string;
  try {
    const p = parseArgs(args, { values: ['base-url', 'api-key', 'format', 'max-rows'], booleans: ['dry-run', 'help'] });
    if (p.flags.has('help')) {
      io.stdout.write(HELP);
      return EXIT_OK;
    }
    const f = stringFlag(p, 'format') ?? 'json';
    if (f !== 'json' && f !== 'csv') throw new UsageError(`--format is json or csv, not ${f}`);
    format = f;
    const mr = stringFlag(p, 'max-rows');
    if (mr !== undefined) {
      if (!/^\d+$/.test(mr) || Number(mr) < 1)
        throw new UsageError(`--max-rows must be a positive whole number, got ${mr}`);
      maxRows = Number(mr);
    }
    dryRun = p.flags.has('dry-run');
    baseUrl = (stringFlag(p, 'base-url') ?? io.env.API_WORKBENCH_WATER_BASE_URL ?? WATER_PRODUCTION_BASE_URL).replace(
      /\/+$/,
      '',
    );
    if (!/^https?:\/\//.test(baseUrl)) throw new UsageError(`--base-url must be an http(s) URL ending in /v1/odata/v4`);
    apiKey = stringFlag(p, 'api-key') ?? io.env.DATASTREAM_API_KEY ?? io.env.API_WORKBENCH_WATER_API_KEY;
    if (p.positionals.length !== 1)
      throw new UsageError(p.positionals.length ? 'give the query as one argument (quote it)' : 'missing the query');
    text = p.positionals[0];
  } catch (err) {
    io.stderr.write(`api-workbench query: ${(err as Error).message}\n${QUERY_USAGE}\n`);
    return EXIT_USAGE;
  }

  const parsed = analyzeQuery(text);
  for (const d of parsed.diagnostics.filter((x) => x.severity !== 'error'))
    io.stderr.write(`${where(text, d.start)}: warning: ${d.message}\n`);
  if (hasErrors(parsed)) {
    // A dry run answers on stdout (the URL or the error); a real run keeps stdout for rows.
    const errors = parsed.diagnostics
      .filter((x) => x.severity === 'error')
      .map((d) => `${where(text, d.start)}: error: ${d.message}`);
    (dryRun ? io.stdout : io.stderr).write(errors.join('\n') + '\n');
    return EXIT_FAILURE;
  }
  const req = wireRequest(parsed);
  const columnsWanted = toRequest(parsed).select;
  // $top is the page size (spec §4.4 and every official client); only --max-rows caps the rows.
  const wanted = maxRows ?? Number.POSITIVE_INFINITY;
  const userTop = parsed.top;
  const pageSize = userTop ?? Math.min(DEFAULT_PAGE_SIZE[req.entitySet], Number.isFinite(wanted) ? wanted : 10000);
  const firstUrl = req.count
    ? buildUrl(baseUrl, { entitySet: req.entitySet, filter: req.filter, count: true })
    : withTop(buildUrl(baseUrl, { ...req, top: undefined }), pageSize);
  if (dryRun) {
    io.stdout.write(firstUrl + '\n');
    return EXIT_OK;
  }
  if (!apiKey) {
    io.stderr.write(`api-workbench query: no API key: ${CLI_SET_WATER_KEY}\n`);
    return EXIT_USAGE;
  }

  const abort = new AbortController();
  void io.interrupted.then(() => abort.abort());
  const client = new WaterClient({
    baseUrl,
    apiKey,
    userAgent: 'api-workbench-cli',
    setKey: CLI_SET_WATER_KEY,
    onRetry: (r) =>
      io.stderr.write(`HTTP ${r.status}: waiting ${(r.delayMs / 1000).toFixed(1)} s before retry ${r.attempt}\n`),
  });
  try {
    if (req.count) {
      const res = await client.get(firstUrl, abort.signal);
      const c = parseCount(res.body);
      io.stdout.write(
        format === 'json'
          ? JSON.stringify({ count: c.value, estimate: c.estimate }) + '\n'
          : `count,estimate\r\n${c.value},${c.estimate}\r\n`,
      );
      return EXIT_OK;
    }
    const progress = (p: { partition: number; partitions: number; pages: number; rows: number }) =>
      io.stderr.write(
        `${p.partitions > 1 ? `partition ${p.partition}/${p.partitions}, ` : ''}page ${p.pages}, ${p.rows} rows\n`,
      );
    const options = {
      maxRows: Number.isFinite(wanted) ? wanted : undefined,
      pageSize,
      keepTop: userTop !== undefined,
      partition: !Number.isFinite(wanted) || wanted > 1_000_000,
      signal: abort.signal,
      onProgress: progress,
      onStep: (m: string) => io.stderr.write(m + '\n'),
    };
    const out = writableSink(io.stdout);
    const summary =
      format === 'csv'
        ? await streamCsv(client, req, out, { ...options, columns: columnsWanted ?? displayColumns(req, []) })
        : await streamRows(
            client,
            req,
            async (rows) => {
              let chunk = '';
              for (const r of rows)
                chunk +=
                  JSON.stringify(columnsWanted ? Object.fromEntries(columnsWanted.map((c) => [c, r[c] ?? null])) : r) +
                  '\n';
              if (chunk) await out.write(chunk);
            },
            options,
          );
    io.stderr.write(
      `${summary.rows} rows in ${summary.pages} pages${summary.partitions > 1 ? ` across ${summary.partitions} partitions` : ''}\n`,
    );
    await writeCitations(client, summary.dois, io.stderr, abort.signal);
    return EXIT_OK;
  } catch (e) {
    if (e instanceof WaterApiError) {
      if (e.kind === 'cancelled') {
        io.stderr.write('interrupted\n');
        return EXIT_FAILURE;
      }
      io.stderr.write(`api-workbench query: ${e.message}\n${e.advice}\n`);
      return EXIT_FAILURE;
    }
    throw e;
  }
};

function where(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `${before.length}:${before[before.length - 1].length + 1}`;
}

async function writeCitations(
  client: WaterClient,
  dois: string[],
  err: NodeJS.WritableStream,
  signal: AbortSignal,
): Promise<void> {
  if (!dois.length) return;
  try {
    const list = await new AttributionCache().resolve(client, dois, signal);
    err.write('Data sources (cite with a link to the DOI):\n');
    for (const a of list) err.write(`  ${citationWithLink(a)}${a.licence ? ` — ${licenceName(a.licence)}` : ''}\n`);
  } catch (e) {
    err.write(
      `Could not fetch citations (${(e as Error).message}); cite the datasets by DOI: ${dois.map((d) => `https://doi.org/${d}`).join(' ')}\n`,
    );
  }
}
