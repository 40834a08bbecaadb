// `api-workbench generate`: streams one reply from the content generation API, thin over the
// generation core. Text mode writes the reply text as it arrives; --json writes one line per
// chunk and a final line with the assembled response and the error (if any).
import { readFile } from 'node:fs/promises';
import {
  chunkDelta,
  explainBlockReason,
  explainFinishReason,
  errorAdvice,
  primaryCandidate,
  streamGenerateContent,
  textOf,
  validateRequest,
} from '../generation/core';
import type { GenerateContentRequest } from '../shared/wire/generation';
import { parseArgs, stringFlag, UsageError } from './args';
import { CLI_SET_GENERATION_KEY, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, type CliCommand } from './io';

/** Only "an object" is checked here: validateRequest then reports every rule the request breaks at once. */
function isJsonObject(v: unknown): v is GenerateContentRequest {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export const GENERATE_USAGE =
  'usage: api-workbench generate --base-url URL --model NAME [--api-key KEY] (--prompt TEXT | --request FILE.json) [--json] [--key-in-query]\n' +
  '  --model        models/<id> or tunedModels/<name> (a bare id means models/<id>)\n' +
  '  --api-key      defaults to $GEMINI_API_KEY or $GOOGLE_API_KEY; sent in the x-goog-api-key header\n' +
  '  --key-in-query send the key as the key= query parameter instead\n' +
  '  --json         one {"chunk": …} line per chunk, then {"response": …, "error": …} (+ "problems": malformed fields)\n' +
  'exit: 0 the stream ended without error (a blocked prompt is a result), 1 error, 2 usage';

export const generateCommand: CliCommand = async (args, io) => {
  let baseUrl: string;
  let model: string;
  let apiKey: string;
  let request: GenerateContentRequest;
  let json: boolean;
  let keyInQuery: boolean;
  try {
    const p = parseArgs(args, {
      values: ['base-url', 'model', 'api-key', 'prompt', 'request'],
      booleans: ['json', 'key-in-query', 'help'],
    });
    if (p.flags.has('help')) {
      io.stdout.write(`${GENERATE_USAGE}\n`);
      return EXIT_OK;
    }
    if (p.positionals.length) throw new UsageError(`unexpected argument ${p.positionals[0]}`);
    baseUrl = stringFlag(p, 'base-url') ?? '';
    if (!/^https?:\/\/[^/]/.test(baseUrl))
      throw new UsageError('--base-url must be an http(s) URL, e.g. https://generativelanguage.googleapis.com');
    const m = stringFlag(p, 'model');
    if (!m) throw new UsageError('--model is required');
    model = m.includes('/') ? m : `models/${m}`;
    apiKey = stringFlag(p, 'api-key') ?? io.env.GEMINI_API_KEY ?? io.env.GOOGLE_API_KEY ?? '';
    if (!apiKey) throw new UsageError('no API key: pass --api-key or set GEMINI_API_KEY');
    const prompt = stringFlag(p, 'prompt');
    const file = stringFlag(p, 'request');
    if ((prompt === undefined) === (file === undefined))
      throw new UsageError('give exactly one of --prompt and --request');
    if (prompt !== undefined) request = { contents: [{ role: 'user', parts: [{ text: prompt }] }] };
    else {
      let text: string;
      try {
        text = await readFile(file!, 'utf8');
      } catch (e) {
        throw new UsageError(`cannot read ${file}: ${(e as Error).message}`);
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (e) {
        throw new UsageError(`${file} is not valid JSON: ${(e as Error).message}`);
      }
      if (!isJsonObject(parsed)) throw new UsageError(`${file} must hold a JSON object with a contents array`);
      request = parsed;
    }
    json = p.flags.has('json');
    keyInQuery = p.flags.has('key-in-query');
  } catch (err) {
    io.stderr.write(`api-workbench generate: ${(err as Error).message}\n${GENERATE_USAGE}\n`);
    return EXIT_USAGE;
  }

  const problems = validateRequest(model, request);
  if (problems.length) {
    io.stderr.write(
      `api-workbench generate: the request breaks the API's rules:\n${problems.map((x) => `  - ${x}`).join('\n')}\n`,
    );
    return EXIT_USAGE;
  }

  const controller = new AbortController();
  void io.interrupted.then(() => controller.abort());
  const result = await streamGenerateContent(
    {
      baseUrl,
      apiKey,
      keyInQuery,
      model,
      request,
      signal: controller.signal,
      onRetry: ({ delayMs, error }) =>
        io.stderr.write(`${error.code} ${error.status}: retrying in ${(delayMs / 1000).toFixed(1)} s\n`),
    },
    (chunk) => {
      if (json) {
        io.stdout.write(JSON.stringify({ chunk }) + '\n');
        return;
      }
      const { text } = chunkDelta(chunk);
      if (text) io.stdout.write(text);
    },
  );

  const error = result.error
    ? { code: result.error.code, status: result.error.status, message: result.error.message }
    : null;
  const malformed = result.problems.map((p) => p.message);
  if (json) {
    io.stdout.write(
      JSON.stringify(
        malformed.length
          ? { response: result.response, error, problems: malformed }
          : { response: result.response, error },
      ) + '\n',
    );
  } else {
    const r = result.response;
    const c = primaryCandidate(r);
    const text = textOf(c).text;
    if (text && !text.endsWith('\n')) io.stdout.write('\n');
    if (r.promptFeedback?.blockReason) {
      const e = explainBlockReason(r.promptFeedback.blockReason);
      io.stderr.write(`${e.label}. ${e.meaning}\n`);
    }
    for (const p of c?.content?.parts ?? []) {
      if (p.functionCall)
        io.stderr.write(`function call: ${p.functionCall.name}(${JSON.stringify(p.functionCall.args ?? {})})\n`);
    }
    const finish = explainFinishReason(c?.finishReason);
    if (finish && c?.finishReason !== 'STOP')
      io.stderr.write(`${finish.label}. ${finish.meaning}${finish.advice ? ` ${finish.advice}` : ''}\n`);
    for (const s of c?.citationMetadata?.citationSources ?? [])
      io.stderr.write(`source: ${s.uri ?? '(no link)'} bytes ${s.startIndex ?? 0}-${s.endIndex ?? ''}\n`);
    for (const p of malformed) io.stderr.write(`warning: the reply had a malformed field: ${p}\n`);
    if (result.aborted) io.stderr.write('stopped: the reply above is partial\n');
    else if (result.incomplete && !result.error)
      io.stderr.write('incomplete: the stream ended without a finish reason\n');
    if (result.error)
      io.stderr.write(
        `error ${result.error.code} ${result.error.status}: ${result.error.message}\n${errorAdvice(result.error, CLI_SET_GENERATION_KEY)}\n`,
      );
  }
  return result.error || result.aborted ? EXIT_FAILURE : EXIT_OK;
};
