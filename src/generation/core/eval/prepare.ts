// What an evaluation runs, from a loaded prompt file and a dataset's text: the items with their assertions (the
// item's `expect`, then the file's `metadata.expect`) and the judge prompt files the model-graded ones name. The
// CLI and the editor's Run Evaluation both prepare a run here, so both read datasets and assertions alike.
import { parseAssertion, type Assertion } from './assertions';
import { checkInputs, DatasetError, parseDataset, type DatasetItem } from './dataset';
import type { EvalItem } from './runner';
import type { PromptFile } from '../prompt/promptFile';

/** A problem with the prompt's assertions, the dataset or a judge file; the message names the file and line. */
export class EvalInputError extends Error {}

export function parseAssertions(list: unknown, outputSchema: unknown, where: string): Assertion[] {
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw new EvalInputError(`${where}: expect must be a list of assertions`);
  return list.map((raw, i) => {
    try {
      return parseAssertion(raw, outputSchema);
    } catch (e) {
      throw new EvalInputError(`${where}: assertion ${i + 1}: ${(e as Error).message}`);
    }
  });
}

export interface PreparedEval {
  items: EvalItem[];
  /** The dataset's items as read (their lines and inputs), or the one default item. */
  dataset: DatasetItem[];
  /** Judge prompt files by the path the assertions give (relative to the prompt file). */
  judges: Map<string, PromptFile>;
}

export async function prepareEval(opts: {
  prompt: PromptFile;
  /** How messages name the prompt file (a path). */
  promptLabel: string;
  /** The dataset's text and its file name (the extension says JSONL or CSV); none: one item, default input. */
  dataset?: { text: string; name: string };
  /** Loads a judge prompt file by the path an assertion gives; throws an EvalInputError when it cannot. */
  loadJudge: (path: string) => Promise<PromptFile>;
}): Promise<PreparedEval> {
  const { prompt, promptLabel } = opts;
  const fileExpect = prompt.expect;
  const fileAssertions = parseAssertions(
    fileExpect?.value,
    prompt.outputSchema,
    `${promptLabel}:${fileExpect?.line ?? 1}: metadata.expect`,
  );
  let dataset: DatasetItem[] = [{ index: 0, line: 1, input: {}, expect: [] }];
  if (opts.dataset) {
    const { text, name } = opts.dataset;
    try {
      dataset = parseDataset(text, name);
      checkInputs(dataset, prompt.inputSchema, /\.csv$/i.test(name), prompt.inputDefaults);
    } catch (e) {
      if (e instanceof DatasetError) throw new EvalInputError(`${name}:${e.message.replace(/^line /, '')}`);
      throw e;
    }
    if (!dataset.length) throw new EvalInputError(`${name}: the dataset has no items`);
  }
  const items = dataset.map((d) => ({
    index: d.index,
    input: d.input,
    assertions: [
      ...parseAssertions(d.expect, prompt.outputSchema, `${opts.dataset?.name ?? promptLabel}:${d.line}`),
      ...fileAssertions,
    ],
  }));
  const judges = new Map<string, PromptFile>();
  for (const a of items.flatMap((i) => i.assertions)) {
    if (a.type !== 'model-graded' || judges.has(a.prompt)) continue;
    judges.set(a.prompt, await opts.loadJudge(a.prompt));
  }
  return { items, dataset, judges };
}
