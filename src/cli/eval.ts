// `api-workbench eval`: runs a .prompt file over a dataset and models with assertions, thin over the
// generation core (src/generation/core/prompt and eval). Exit 0: every assertion passed; 1: one failed;
// 2: usage, an unreadable dataset or an invalid prompt file (the message names the line); 3: cells failed
// after retries or were not run.
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { promptJudge } from '../generation/core/eval/judge';
import { itemLabel } from '../generation/core/eval/grid';
import { readEarlierRun, ResultsWriter, type EarlierRun } from '../generation/core/eval/outFile';
import { jsonReport, junitReport, summarise } from '../generation/core/eval/report';
import { EvalInputError, prepareEval } from '../generation/core/eval/prepare';
import { runEval, type EvalItem, type Variant } from '../generation/core/eval/runner';
import { metaPathOf, writeRunMeta } from '../generation/core/eval/runStore';
import { VariantError, variantsOf } from '../generation/core/eval/variants';
import { formatProblem, type PromptProblem } from '../generation/core/prompt/problems';
import { bareModel, PromptFile } from '../generation/core/prompt/promptFile';
import { parseArgs, stringFlag, UsageError } from './args';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, type CliCommand, type CliIO } from './io';

export const EXIT_CELLS_FAILED = 3;

export const EVAL_USAGE =
  'usage: api-workbench eval [--base-url URL] [--api-key KEY] [--model A,B,…] [--variant NAME=SETTINGS]…\n' +
  '                          [--dataset FILE.jsonl|FILE.csv] [--concurrency N] [--format json|junit] [--out FILE] [--resume] PROMPT_FILE\n' +
  '  --base-url     the API origin (default https://generativelanguage.googleapis.com)\n' +
  '  --api-key      defaults to $GEMINI_API_KEY or $GOOGLE_API_KEY\n' +
  "  --model        models to compare (bare names); default: the prompt file's model\n" +
  '  --variant      (repeatable) a named variant: NAME=k=v,k=v or NAME={JSON}; model=M picks its model (default:\n' +
  "                 the first --model, else the file's), other keys override the file's config, e.g.\n" +
  '                 --variant warm=temperature=1.2,topK=40 --variant short=\'{"maxOutputTokens": 64}\'\n' +
  '  --dataset      JSON Lines ({"input": {…}, "expect": […]} per line) or CSV (columns are input variables);\n' +
  "                 default: one item with the prompt's default input\n" +
  '  --concurrency  requests in flight at once (default 4)\n' +
  '  --format       json (default): {"cells": […], "summary": {…}}; junit: JUnit XML\n' +
  '  --out          append each cell to FILE (JSON Lines) as it completes, and the run (prompt, dataset, columns)\n' +
  '                 beside it in FILE.meta.json, which Open Evaluation Run… in the editor shows as a grid;\n' +
  '                 --resume runs only the cells missing from it\n' +
  'exit: 0 every assertion passed, 1 an assertion failed, 2 usage or invalid prompt/dataset, 3 cells failed after retries';

class InputError extends EvalInputError {}

async function readText(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputError(
      `cannot read the ${what} ${path}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (e as Error).message}`,
    );
  }
}

/** Partials are `_name.prompt` files beside the prompt (Dotprompt's convention). */
const partialsBeside = (dir: string) => async (name: string) => {
  try {
    return await readFile(join(dir, `_${name}.prompt`), 'utf8');
  } catch {
    return null;
  }
};

async function loadPromptFile(path: string, io: CliIO): Promise<PromptFile> {
  const text = await readText(path, 'prompt file');
  const { prompt, problems } = await PromptFile.load(text, { partials: partialsBeside(dirname(path)) });
  for (const p of problems) io.stderr.write(formatProblem(path, p) + '\n');
  if (!prompt || problems.some((p: PromptProblem) => p.severity === 'error'))
    throw new InputError(`${path} is not a valid prompt file`);
  return prompt;
}

export const evalCommand: CliCommand = async (args, io) => {
  let promptPath: string;
  let baseUrl: string;
  let apiKey: string;
  let models: string[];
  let named: string[];
  let datasetPath: string | undefined;
  let concurrency: number;
  let format: 'json' | 'junit';
  let outPath: string | undefined;
  let resume: boolean;
  try {
    const p = parseArgs(args, {
      values: ['base-url', 'api-key', 'model', 'dataset', 'concurrency', 'format', 'out'],
      booleans: ['resume', 'help'],
      repeatable: ['variant'],
    });
    if (p.flags.has('help')) {
      io.stdout.write(`${EVAL_USAGE}\n`);
      return EXIT_OK;
    }
    if (p.positionals.length !== 1)
      throw new UsageError(p.positionals.length ? `one prompt file, not ${p.positionals.length}` : 'no prompt file');
    promptPath = p.positionals[0];
    baseUrl = stringFlag(p, 'base-url') ?? 'https://generativelanguage.googleapis.com';
    if (!/^https?:\/\/[^/]/.test(baseUrl)) throw new UsageError('--base-url must be an http(s) URL');
    apiKey = stringFlag(p, 'api-key') ?? io.env.GEMINI_API_KEY ?? io.env.GOOGLE_API_KEY ?? '';
    if (!apiKey) throw new UsageError('no API key: pass --api-key or set GEMINI_API_KEY');
    models = (stringFlag(p, 'model') ?? '')
      .split(',')
      .map((m) => m.trim())
      .filter(Boolean)
      .map(bareModel);
    if (new Set(models).size !== models.length) throw new UsageError('--model names a model twice');
    if (models.some((m) => !/^[\w.-]+$/.test(m)))
      throw new UsageError('--model takes bare model names, e.g. gemini-2.0-flash');
    named = p.lists.get('variant') ?? [];
    datasetPath = stringFlag(p, 'dataset');
    const c = stringFlag(p, 'concurrency') ?? '4';
    concurrency = Number(c);
    if (!/^\d+$/.test(c) || concurrency < 1 || concurrency > 64) throw new UsageError('--concurrency must be 1 to 64');
    const f = stringFlag(p, 'format') ?? 'json';
    if (f !== 'json' && f !== 'junit') throw new UsageError('--format must be json or junit');
    format = f;
    outPath = stringFlag(p, 'out');
    resume = p.flags.has('resume');
    if (resume && !outPath) throw new UsageError('--resume needs --out (the file of the run to resume)');
  } catch (err) {
    io.stderr.write(`api-workbench eval: ${(err as Error).message}\n${EVAL_USAGE}\n`);
    return EXIT_USAGE;
  }

  let prompt: PromptFile;
  let items: EvalItem[];
  let variants: Variant[];
  let earlier: EarlierRun = { cells: new Map(), validBytes: 0 };
  const judges = new Map<string, PromptFile>();
  try {
    prompt = await loadPromptFile(promptPath, io);
    const plain = models.length || named.length ? models : prompt.model ? [prompt.model] : [];
    try {
      variants = variantsOf(plain, named, prompt.model);
    } catch (e) {
      if (!(e instanceof VariantError)) throw e;
      io.stderr.write(`api-workbench eval: ${e.message}\n${EVAL_USAGE}\n`);
      return EXIT_USAGE;
    }
    if (!variants.length)
      throw new InputError(`${promptPath}: no model: set model: in the frontmatter or pass --model`);

    let dataset: { text: string; name: string } | undefined;
    if (datasetPath) dataset = { text: await readText(datasetPath, 'dataset'), name: datasetPath };
    const prepared = await prepareEval({
      prompt,
      promptLabel: promptPath,
      dataset,
      loadJudge: (p) => loadPromptFile(resolve(dirname(promptPath), p), io),
    });
    items = prepared.items;
    for (const [k, v] of prepared.judges) judges.set(k, v);
    if (outPath && resume) {
      try {
        earlier = await readEarlierRun(outPath);
      } catch (e) {
        throw new InputError((e as Error).message);
      }
    }
  } catch (err) {
    if (!(err instanceof EvalInputError)) throw err;
    io.stderr.write(`api-workbench eval: ${err.message}\n`);
    return EXIT_USAGE;
  }

  const controller = new AbortController();
  void io.interrupted.then(() => controller.abort());
  const connection = { baseUrl, apiKey, retry: { maxAttempts: 4 } };
  let writer: ResultsWriter | undefined;
  if (outPath) {
    try {
      writer = await ResultsWriter.open(outPath, earlier.validBytes);
      // Beside the results, what the editor needs to show them as a grid and open a cell in the chat (the prompt
      // and dataset files, the columns and rows). A resumed run keeps the meta it started with.
      const meta = metaPathOf(outPath);
      const kept = resume && (await stat(meta).catch(() => undefined)) !== undefined;
      if (!kept)
        await writeRunMeta(meta, {
          version: 1,
          prompt: resolve(promptPath),
          dataset: datasetPath ? resolve(datasetPath) : null,
          variants: variants.map((v) => v.name),
          items: items.map((i) => ({ index: i.index, label: itemLabel(i.input) })),
          startedAt: new Date().toISOString(),
          concurrency,
        });
    } catch (e) {
      io.stderr.write(`api-workbench eval: cannot write ${outPath}: ${(e as Error).message}\n`);
      return EXIT_USAGE;
    }
  }
  let outcome;
  try {
    outcome = await runEval({
      prompt,
      items,
      variants,
      connection,
      concurrency,
      signal: controller.signal,
      done: earlier.cells,
      onCell: writer ? (cell) => writer.append(cell) : undefined,
      judge: judges.size ? promptJudge(judges, connection, variants[0].model) : undefined,
    });
  } finally {
    await writer?.close();
  }
  const expected = items.length * variants.length;
  const summary = summarise(
    outcome.cells,
    variants.map((v) => v.name),
    expected,
  );
  const name = basename(promptPath).replace(/\.prompt$/, '');
  io.stdout.write(format === 'junit' ? junitReport(name, outcome.cells, summary) : jsonReport(outcome.cells, summary));
  for (const c of outcome.cells.filter((x) => x.error))
    io.stderr.write(`item ${c.item} [${c.variant}]: ${c.error!.code} ${c.error!.status}: ${c.error!.message}\n`);
  if (summary.missing)
    io.stderr.write(
      `stopped: ${summary.missing} of ${expected} cells not run${outPath ? `; --resume --out ${outPath} runs them` : ''}\n`,
    );
  io.stderr.write(
    `${summary.cells} cells, ${summary.assertionsPassed}/${summary.assertions} assertions passed, ${summary.errors} failed requests\n`,
  );
  if (summary.errors || summary.missing) return EXIT_CELLS_FAILED;
  return summary.assertionsFailed ? EXIT_FAILURE : EXIT_OK;
};
