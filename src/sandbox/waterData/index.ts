// Emulator of the water-quality OData v4 API under /v1/odata/v4: key check, the 2 requests/s + no-parallel
// rule, strict query encoding, the four entity sets with $select/$filter/$top/$skiptoken/$count, paging by
// @odata.nextLink and Link header, 413 for oversize bodies and 408/504 for queries over the work budget.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Emulator, EmulatorFactory, SandboxContext } from '../types';
import {
  RECORDS_DATA_CONTEXT,
  WATER_API_KEY_HEADER,
  WATER_ENTITY_SETS,
  WATER_FILTER_FIELDS,
  WATER_MAX_TOP,
  WATER_DEFAULT_TOP,
  WATER_MIN_INTERVAL_MS,
  WATER_PATH_PREFIX,
  WATER_SELECT_FIELDS,
  type WaterEntitySet,
} from '../../shared/wire/waterData';
import { FilterError, fieldsOf, isNumericField, parseExpr, type Expr } from './filter';
import { Budget, BudgetExceeded, count, execute } from './engine';
import { FrontEnd } from './frontEnd';
import { World } from './world';
import { settleBodyAfterAnswer } from '../http';

export interface WaterEmulatorOptions {
  seed: number;
  datasets: number;
  /** Approximate number of observations; millions are fine, rows are generated on demand. */
  observations: number;
  /** Sustained spacing of one API key's requests (500 ms = 2 per second); 0 turns the rate rule off. */
  minIntervalMs: number;
  /** Tolerance: requests a key may send back to back after a pause (token bucket size); 1 is strict. */
  burst: number;
  /** Keys accepted besides the sandbox's own (several scripts or users sharing one sandbox, each with a key). */
  extraApiKeys: readonly string[];
  /** The specification says 403; the current public docs say 429. */
  rateLimitStatus: 403 | 429;
  /** Rows the emulator may generate for one request before it answers as if 30 s had passed. */
  maxScanRows: number;
  maxMillis: number;
  timeoutStatus: 408 | 504;
  /** Lambda-style response cap behind the 413. */
  maxResponseBytes: number;
  /** Counts above this are estimates. */
  estimateAbove: number;
  /** Simulated service time per request, so overlapping requests really overlap. */
  latencyMs: number;
  now: () => number;
}

export const DEFAULT_WATER_EMULATOR_OPTIONS: WaterEmulatorOptions = {
  seed: 20201029,
  datasets: 24,
  observations: 120_000,
  minIntervalMs: WATER_MIN_INTERVAL_MS,
  burst: 2,
  extraApiKeys: [],
  rateLimitStatus: 403,
  maxScanRows: 60_000_000,
  maxMillis: 30_000,
  timeoutStatus: 504,
  maxResponseBytes: 6 * 1024 * 1024,
  estimateAbove: 1_000_000,
  latencyMs: 15,
  now: () => Date.now(),
};

/** Options from the environment, so `api-workbench sandbox` can be switched to volume mode or 429. */
export function waterEmulatorOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): Partial<WaterEmulatorOptions> {
  const out: Partial<WaterEmulatorOptions> = {};
  const num = (name: string) => {
    const v = env[name];
    return v !== undefined && v !== '' && Number.isFinite(Number(v)) ? Number(v) : undefined;
  };
  const volume = num('API_WORKBENCH_WATER_VOLUME');
  if (volume !== undefined) out.observations = Math.max(1000, volume);
  const interval = num('API_WORKBENCH_WATER_MIN_INTERVAL_MS');
  if (interval !== undefined) out.minIntervalMs = interval;
  const burst = num('API_WORKBENCH_WATER_BURST');
  if (burst !== undefined) out.burst = Math.max(1, Math.floor(burst));
  if (env.API_WORKBENCH_WATER_RATE_STATUS === '429') out.rateLimitStatus = 429;
  const extra = env.API_WORKBENCH_WATER_EXTRA_KEYS;
  if (extra)
    out.extraApiKeys = extra
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean);
  const scan = num('API_WORKBENCH_WATER_MAX_SCAN_ROWS');
  if (scan !== undefined) out.maxScanRows = scan;
  if (env.API_WORKBENCH_WATER_TIMEOUT_STATUS === '408') out.timeoutStatus = 408;
  return out;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`HTTP ${status}`);
  }
}

function appError(status: number, title: string, detail: string, parameter?: string): HttpError {
  return new HttpError(status, {
    errors: [{ status: String(status), title, detail, ...(parameter ? { source: { parameter } } : {}) }],
  });
}

function sendCompact(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

interface Parsed {
  set: WaterEntitySet;
  select?: string[];
  filter?: Expr;
  filterText?: string;
  top: number;
  topGiven: boolean;
  after?: string | number;
  count: boolean;
}

const REMOVED_OPTIONS: Record<string, string> = {
  $orderby: '$orderby was removed on 2022-12-09',
  $skip: '$skip was removed on 2022-12-09; page with $skiptoken from @odata.nextLink',
};

function parseRequest(set: WaterEntitySet, rawQuery: string): Parsed {
  const params = new Map<string, string>();
  for (const part of rawQuery.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const rawName = eq < 0 ? part : part.slice(0, eq);
    const rawValue = eq < 0 ? '' : part.slice(eq + 1);
    let name: string;
    let value: string;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      value = decodeURIComponent(rawValue.replace(/\+/g, ' '));
    } catch {
      throw new HttpError(400, { message: null });
    }
    if (Object.hasOwn(REMOVED_OPTIONS, name)) throw appError(400, 'Bad Request', REMOVED_OPTIONS[name], name);
    if (params.has(name)) throw appError(400, 'Bad Request', `${name} given more than once`, name);
    params.set(name, value);
  }
  for (const name of params.keys()) {
    if (name.startsWith('$') && !['$select', '$filter', '$top', '$skiptoken', '$count'].includes(name)) {
      throw appError(400, 'Bad Request', `Unknown query option ${name}`, name);
    }
  }
  const out: Parsed = { set, top: WATER_DEFAULT_TOP, topGiven: false, count: false };

  const select = params.get('$select');
  if (select !== undefined) {
    const fields = select.split(',').map((s) => s.trim());
    const allowed = WATER_SELECT_FIELDS[set];
    for (const f of fields) {
      if (!allowed.includes(f))
        throw appError(400, 'Bad Request', `Unknown $select field '${f}' for ${set}`, '$select');
    }
    out.select = [...new Set(fields)];
  }

  const filter = params.get('$filter');
  if (filter !== undefined) {
    let expr: Expr;
    try {
      expr = parseExpr(filter);
    } catch (e) {
      throw appError(400, 'Bad Request', `Malformed $filter: ${(e as FilterError).message}`, '$filter');
    }
    const allowed = WATER_FILTER_FIELDS[set];
    for (const f of fieldsOf(expr)) {
      if (!allowed.includes(f))
        throw appError(400, 'Bad Request', `Field '${f}' cannot be filtered on ${set}`, '$filter');
    }
    checkNumeric(expr, set);
    out.filter = expr;
    out.filterText = filter;
  }

  const top = params.get('$top');
  if (top !== undefined) {
    if (!/^\d+$/.test(top) || Number(top) < 1)
      throw appError(400, 'Bad Request', '$top must be an integer from 1 to 10000', '$top');
    if (Number(top) > WATER_MAX_TOP)
      throw appError(400, 'Bad Request', `$top ${top} is above the maximum of ${WATER_MAX_TOP}`, '$top');
    out.top = Number(top);
    out.topGiven = true;
  }

  const count = params.get('$count');
  if (count !== undefined) {
    if (count !== 'true' && count !== 'false')
      throw appError(400, 'Bad Request', '$count must be true or false', '$count');
    out.count = count === 'true';
  }

  const token = params.get('$skiptoken');
  if (token !== undefined) {
    const m = /^Id:(.+)$/.exec(token);
    if (!m) throw appError(400, 'Bad Request', '$skiptoken must look like Id:<id>', '$skiptoken');
    if (set === 'Metadata') {
      if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(m[1]))
        throw appError(400, 'Bad Request', 'Metadata $skiptoken ids are UUIDs', '$skiptoken');
      out.after = m[1].toLowerCase();
    } else {
      if (!/^\d+$/.test(m[1])) throw appError(400, 'Bad Request', `${set} $skiptoken ids are integers`, '$skiptoken');
      out.after = Number(m[1]);
    }
  }
  return out;
}

function checkNumeric(e: Expr, set: WaterEntitySet): void {
  if (e.kind === 'and' || e.kind === 'or') {
    for (const x of e.items) checkNumeric(x, set);
    return;
  }
  if (!isNumericField(e.field) || (set === 'Metadata' && e.field === 'Id')) return;
  const values = e.kind === 'cmp' ? [e.value] : e.kind === 'in' ? e.values : [];
  for (const v of values) {
    if (v !== null && (typeof v === 'boolean' || !Number.isFinite(Number(v)) || String(v).trim() === '')) {
      throw appError(400, 'Bad Request', `'${String(v)}' is not a number for ${e.field}`, '$filter');
    }
  }
}

/** Encodes a query value so that the link is valid input for this same emulator (no raw `$`). */
function enc(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

export function createWaterDataEmulatorWith(overrides: Partial<WaterEmulatorOptions> = {}): EmulatorFactory {
  return (ctx: SandboxContext): Emulator => {
    const options: WaterEmulatorOptions = { ...DEFAULT_WATER_EMULATOR_OPTIONS, ...overrides };
    let world: World | undefined;
    const getWorld = () =>
      (world ??= new World({ seed: options.seed, datasets: options.datasets, observations: options.observations }));
    const frontEnd = new FrontEnd({ intervalMs: options.minIntervalMs, burst: options.burst, now: options.now });

    const handle = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
      settleBodyAfterAnswer(req, res);
      // The front end sits before everything else and limits per API key (per address without one).
      const header = req.headers[WATER_API_KEY_HEADER];
      const who = typeof header === 'string' && header ? `key:${header}` : `ip:${req.socket.remoteAddress ?? 'local'}`;
      const release = frontEnd.admit(who);
      if (!release) {
        // Refused before reaching the service: the front end's bare body, no application `errors`.
        sendCompact(res, options.rateLimitStatus, JSON.stringify({ message: null }));
        return;
      }
      // In flight until the response has left, not just until the handler returns.
      res.once('finish', release);
      res.once('close', release);
      try {
        if (options.latencyMs > 0) await new Promise((r) => setTimeout(r, options.latencyMs));
        serve(req, res, url);
      } catch (e) {
        release();
        throw e;
      }
    };

    const serve = (req: IncomingMessage, res: ServerResponse, url: URL): void => {
      try {
        if (req.method !== 'GET') throw new HttpError(405, { message: 'Method Not Allowed' });
        const key = req.headers[WATER_API_KEY_HEADER];
        if (key === undefined || key === '') throw new HttpError(401, { message: 'Missing API key' });
        if (key !== ctx.apiKey && !(typeof key === 'string' && options.extraApiKeys.includes(key))) {
          throw new HttpError(403, { message: 'Invalid API key' });
        }
        const rawUrl = req.url ?? '';
        const q = rawUrl.indexOf('?');
        const rawQuery = q < 0 ? '' : rawUrl.slice(q + 1);
        // The service's gateway rejects reserved characters left unencoded, `$` above all.
        if (/[$ '"]/.test(rawQuery)) throw new HttpError(400, { message: null });
        const setName = url.pathname.slice(WATER_PATH_PREFIX.length).replace(/^\/+|\/+$/g, '');
        if (!(WATER_ENTITY_SETS as readonly string[]).includes(setName)) {
          throw new HttpError(404, {
            message: `Resource not found: /${setName} (entity sets: ${WATER_ENTITY_SETS.join(', ')})`,
          });
        }
        const set = setName as WaterEntitySet;
        const p = parseRequest(set, rawQuery);
        const budget = new Budget(options.maxScanRows, options.maxMillis);
        const w = getWorld();
        if (p.count) {
          const c = count(w, { set, filter: p.filter }, budget, options.estimateAbove);
          sendCompact(
            res,
            200,
            JSON.stringify({
              value: c.value,
              'odata.count': c.value,
              ...(c.estimate ? { '@odata.count.estimate': true } : {}),
            }),
          );
          return;
        }
        const rows: Record<string, unknown>[] = [];
        let lastId: string | number | undefined;
        let more = false;
        for (const hit of execute(w, { set, filter: p.filter, after: p.after }, budget)) {
          if (rows.length === p.top) {
            more = true;
            break;
          }
          const full = hit.row();
          rows.push(p.select ? Object.fromEntries(p.select.map((f) => [f, full[f] ?? null])) : full);
          lastId = hit.id;
        }
        const headers: Record<string, string> = {};
        const body: Record<string, unknown> = {};
        if (set === 'Records') body['@data.context'] = RECORDS_DATA_CONTEXT;
        body.value = rows;
        if (more && lastId !== undefined) {
          const parts = [`${enc('$skiptoken')}=${enc(`Id:${lastId}`)}`, `${enc('$top')}=${p.top}`];
          if (p.select) parts.push(`${enc('$select')}=${enc(p.select.join(','))}`);
          if (p.filterText !== undefined) parts.push(`${enc('$filter')}=${enc(p.filterText)}`);
          const next = `${ctx.origin()}${WATER_PATH_PREFIX}/${set}?${parts.join('&')}`;
          body['@odata.nextLink'] = next;
          headers.link = `<${next}>; rel="next"`;
        }
        const text = JSON.stringify(body);
        if (Buffer.byteLength(text) > options.maxResponseBytes) {
          throw appError(
            413,
            'Payload Too Large',
            `The result is larger than ${options.maxResponseBytes} bytes: lower $top or $select fewer fields`,
          );
        }
        sendCompact(res, 200, text, headers);
      } catch (e) {
        if (e instanceof HttpError) {
          sendCompact(res, e.status, JSON.stringify(e.body));
        } else if (e instanceof BudgetExceeded) {
          const body =
            options.timeoutStatus === 504 ? { message: 'Endpoint request timed out' } : { message: 'Request Timeout' };
          sendCompact(res, options.timeoutStatus, JSON.stringify(body));
        } else {
          throw e;
        }
      }
    };

    return { name: 'waterData', prefixes: [WATER_PATH_PREFIX], handle };
  };
}

/** The environment's settings, and over them those given on the command line (SandboxContext.water). */
export const createWaterDataEmulator: EmulatorFactory = (ctx) => {
  const given: Partial<WaterEmulatorOptions> = {};
  if (ctx.water?.burst !== undefined) given.burst = Math.max(1, Math.floor(ctx.water.burst));
  if (ctx.water?.minIntervalMs !== undefined) given.minIntervalMs = Math.max(0, ctx.water.minIntervalMs);
  return createWaterDataEmulatorWith({ ...waterEmulatorOptionsFromEnv(), ...given })(ctx);
};
