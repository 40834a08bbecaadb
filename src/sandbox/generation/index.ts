// The content generation emulator (v1beta): models.generateContent/streamGenerateContent/
// countTokens/list/get and the Files API, with the real service's key checks and error bodies.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EmulatorFactory } from '../types';
import { BodyTooLargeError, readJson, settleBodyAfterAnswer } from '../http';
import type { CountTokensRequest, GenerateContentRequest } from '../../shared/wire/generation';
import { CATALOG, findModel } from './catalog';
import { requestViolations, unknownTopLevelField } from './checks';
import {
  dailyQuotaExhausted,
  failedPrecondition,
  internal,
  invalidArgument,
  invalidJson,
  invalidKey,
  missingKey,
  modelNotFound,
  notFound,
  rateLimited,
  rpcError,
  sendError,
  unavailable,
  unknownField,
} from './errors';
import { wrongTypeIn } from './bodyTypes';
import { normaliseRequest, queryParam, type RequestMessage } from './fieldNames';
import { FileStore } from './files';
import { lastUserText, plan } from './reply';
import { writeStream, writeUnary } from './respond';
import { countContentTokens } from './tokens';
import { CONTROL_PATH, GenerationControls } from './controls';
import { parseTriggers } from './triggers';

const MODEL_METHOD = /^\/v1beta\/((?:models|tunedModels)\/[^/:]+):([A-Za-z]+)$/;

function sendPretty(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body, null, 2) + '\n';
  res.writeHead(status, {
    'content-type': 'application/json; charset=UTF-8',
    'content-length': String(Buffer.byteLength(text)),
  });
  res.end(text);
}

/** Where the first null element of a list is in a parsed request (`contents[0].parts[1]`), walked without recursion. */
function nullElement(body: object): string | undefined {
  const stack: [unknown, string][] = [[body, '']];
  while (stack.length) {
    const [value, at] = stack.pop()!;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        if (value[i] === null) return `${at}[${i}]`;
        stack.push([value[i], `${at}[${i}]`]);
      }
    } else if (typeof value === 'object' && value !== null) {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--)
        stack.push([(value as Record<string, unknown>)[keys[i]], at ? `${at}.${keys[i]}` : keys[i]]);
    }
  }
  return undefined;
}

function keyOf(req: IncomingMessage, url: URL): string | undefined {
  const h = req.headers['x-goog-api-key'];
  return (Array.isArray(h) ? h[0] : h) ?? url.searchParams.get('key') ?? undefined;
}

export const createGenerationEmulator: EmulatorFactory = (ctx) => {
  const files = new FileStore(() => ctx.origin());
  /** Request fingerprints → failures already served, for [[flaky:N]]. */
  const flaky = new Map<string, number>();
  /** Added latency, a failure storm and the log of served requests (sandbox-only, see controls.ts). */
  const controls = new GenerationControls();

  async function readRequest<T>(
    req: IncomingMessage,
    res: ServerResponse,
    sse: boolean,
    type: RequestMessage,
  ): Promise<T | undefined> {
    let body: unknown;
    try {
      body = await readJson(req);
    } catch (e) {
      // Oversized bodies are the shared server's 413, not a JSON error.
      if (e instanceof BodyTooLargeError) throw e;
      sendError(res, invalidJson('Unexpected token.'), sse);
      return undefined;
    }
    if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
      sendError(res, invalidJson('Expected an object as the request body.'), sse);
      return undefined;
    }
    const nullAt = nullElement(body);
    if (nullAt !== undefined) {
      // proto3 JSON: a null member means "unset", but a repeated field cannot hold a null element.
      sendError(res, invalidJson(`Invalid value at '${nullAt}' (null): a list cannot hold null.`), sse);
      return undefined;
    }
    // Both proto3 JSON spellings (generationConfig / generation_config) mean the same field.
    const request = normaliseRequest(body, type);
    const wrong = wrongTypeIn(request, type);
    if (wrong) {
      sendError(res, invalidJson(`Invalid value at '${wrong.path}': expected ${wrong.expected}.`), sse);
      return undefined;
    }
    return request as T;
  }

  async function generate(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    model: string,
    method: 'generateContent' | 'streamGenerateContent',
  ): Promise<void> {
    const sse = method === 'streamGenerateContent' && url.searchParams.get('alt') === 'sse';
    const info = findModel(model);
    if (!info || !info.supportedGenerationMethods?.includes('generateContent')) {
      sendError(res, modelNotFound(model, method === 'streamGenerateContent' ? 'generateContent' : method), sse);
      return;
    }
    const body = await readRequest<GenerateContentRequest>(req, res, sse, 'GenerateContentRequest');
    if (!body) return;
    const unknown = unknownTopLevelField(body);
    if (unknown) return sendError(res, unknownField(unknown), sse);
    const violations = requestViolations(body);
    if (body.generationConfig?.topK !== undefined && info.topK === undefined) {
      violations.push(
        `GenerateContentRequest.generation_config.top_k: ${model} uses nucleus sampling only; top_k cannot be set`,
      );
    }
    if (violations.length) return sendError(res, invalidArgument(violations), sse);

    for (const c of body.contents) {
      for (const p of c.parts ?? []) {
        if (!p.fileData?.fileUri?.startsWith(ctx.origin())) continue;
        const f = files.byUri(p.fileData.fileUri);
        const id = p.fileData.fileUri.replace(/^.*\/files\//, '');
        if (!f)
          return sendError(
            res,
            rpcError(
              403,
              'PERMISSION_DENIED',
              `You do not have permission to access the File ${id} or it may not exist.`,
            ),
            sse,
          );
        if (f.state !== 'ACTIVE')
          return sendError(
            res,
            failedPrecondition(`The File ${id} is not in an ACTIVE state and usage is not allowed.`),
            sse,
          );
      }
    }

    const fingerprint = controls.fingerprint(model, body);
    const storm = controls.stormFault(model);
    if (storm) {
      controls.record(model, fingerprint, storm.error.code);
      return sendError(res, storm, sse);
    }
    if (controls.latencyMs) await new Promise((r) => setTimeout(r, controls.latencyMs));

    const triggers = parseTriggers(lastUserText(body), req.headers['x-sandbox-fault']);
    if (triggers.has('quota-day')) return sendError(res, dailyQuotaExhausted(model), sse);
    if (triggers.has('429')) return sendError(res, rateLimited(model, Number(triggers.arg('429') ?? 1)), sse);
    if (triggers.has('503')) return sendError(res, unavailable(), sse);
    if (triggers.has('500')) return sendError(res, internal(), sse);
    if (triggers.has('flaky')) {
      const fingerprint = createHash('sha256')
        .update(model + JSON.stringify(body))
        .digest('hex');
      const served = flaky.get(fingerprint) ?? 0;
      if (served < Number(triggers.arg('flaky') ?? 1)) {
        flaky.set(fingerprint, served + 1);
        return sendError(res, rateLimited(model, 0.05), sse);
      }
      flaky.delete(fingerprint);
    }

    const p = plan(body, model, triggers);
    controls.record(model, fingerprint, 200);
    if (method === 'generateContent') writeUnary(res, p);
    else await writeStream(res, p, sse);
  }

  async function countTokens(req: IncomingMessage, res: ServerResponse, model: string): Promise<void> {
    const info = findModel(model);
    if (!info || !info.supportedGenerationMethods?.includes('countTokens'))
      return sendError(res, modelNotFound(model, 'countTokens'));
    const body = await readRequest<CountTokensRequest>(req, res, false, 'CountTokensRequest');
    if (!body) return;
    if (body.contents && body.generateContentRequest) {
      return sendError(
        res,
        invalidArgument([
          'CountTokensRequest: contents and generate_content_request are mutually exclusive; set only one.',
        ]),
      );
    }
    const gcr = body.generateContentRequest;
    if (gcr) {
      const violations = requestViolations(gcr);
      if (violations.length) return sendError(res, invalidArgument(violations));
    }
    const contents = gcr?.contents ?? body.contents ?? [];
    const system = gcr?.systemInstruction ? countContentTokens([gcr.systemInstruction]) : 0;
    const content = countContentTokens(contents);
    sendPretty(res, 200, {
      totalTokens: content + system,
      promptTokensDetails: [{ modality: 'TEXT', tokenCount: content + system }],
    });
  }

  function listModels(res: ServerResponse, url: URL): void {
    const pageSize = Math.min(1000, Math.max(1, Number(queryParam(url, 'pageSize') ?? 50) || 50));
    const token = queryParam(url, 'pageToken');
    const start = token ? Number(Buffer.from(token, 'base64url').toString()) || 0 : 0;
    const page = CATALOG.slice(start, start + pageSize);
    const body: { models: typeof page; nextPageToken?: string } = { models: page };
    if (start + pageSize < CATALOG.length)
      body.nextPageToken = Buffer.from(String(start + pageSize)).toString('base64url');
    sendPretty(res, 200, body);
  }

  return {
    name: 'generation',
    prefixes: ['/v1beta', '/upload/v1beta'],
    async handle(req, res, url) {
      settleBodyAfterAnswer(req, res);
      const path = url.pathname;
      const method = req.method ?? 'GET';

      // The upload URL itself is the capability (it carries upload_id), like the real service.
      if (path === '/upload/v1beta/files' && url.searchParams.has('upload_id')) {
        return files.chunk(req, res, url.searchParams.get('upload_id')!);
      }

      const sse = url.searchParams.get('alt') === 'sse';
      const key = keyOf(req, url);
      if (!key) return sendError(res, missingKey(), sse);
      if (key !== ctx.apiKey) return sendError(res, invalidKey(), sse);

      if (path === '/upload/v1beta/files' && method === 'POST') return files.start(req, res);
      if (path.startsWith(CONTROL_PATH)) return controls.handle(req, res, path);

      const m = MODEL_METHOD.exec(path);
      if (m && method === 'POST') {
        const [, model, verb] = m;
        if (verb === 'generateContent' || verb === 'streamGenerateContent') return generate(req, res, url, model, verb);
        if (verb === 'countTokens') return countTokens(req, res, model);
        return sendError(res, notFound(`Method ${verb} is not supported by the sandbox.`));
      }
      if (path === '/v1beta/models' && method === 'GET') return listModels(res, url);
      const get = /^\/v1beta\/((?:models|tunedModels)\/[^/:]+)$/.exec(path);
      if (get && method === 'GET') {
        const info = findModel(get[1]);
        if (!info) return sendError(res, notFound(`Model is not found: ${get[1]} for api version v1beta`));
        return sendPretty(res, 200, info);
      }
      if (path === '/v1beta/files' && method === 'GET') return files.list(res, url);
      const file = /^\/v1beta\/(files\/[^/:]+)$/.exec(path);
      if (file && method === 'GET') return files.get(res, file[1]);
      if (file && method === 'DELETE') return files.delete(res, file[1]);
      sendError(res, notFound(`Method ${method} ${path} is not found.`));
    },
  };
};
