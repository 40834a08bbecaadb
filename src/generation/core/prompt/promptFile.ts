// A .prompt file (Dotprompt), parsed and rendered by the `dotprompt` package, and the one mapping of its
// rendered messages to a GenerateContentRequest: system → systemInstruction, user and model → contents,
// config → generationConfig, an output schema → responseMimeType application/json + responseSchema.
// Every problem names a line of the file (see source.ts for how the library's lines are translated).
import { Dotprompt, type Message, type ParsedPrompt, type PromptFunction, type Part as DotPart } from 'dotprompt';
import Handlebars from 'handlebars/dist/cjs/handlebars.js';
import type { Content, GenerateContentRequest, GenerationConfig, Part } from '../../../shared/wire/generation';
import type { PromptProblem } from './problems';
import { toResponseSchema, SchemaMappingError } from './responseSchema';
import { checkFrontmatter, pairOf } from './frontmatter';
import { templateVariables } from './variables';
import { splitPromptSource, yamlLine, type PromptSource } from './source';

/** Finds the source of a partial by name (`{{> name}}`); null when there is none. */
export type PartialResolver = (name: string) => Promise<string | null>;

/** `gemini-2.0-flash`, `models/gemini-2.0-flash` and `googleai/gemini-2.0-flash` all name the same model. */
export function bareModel(name: string): string {
  return name.replace(/^googleai\//, '').replace(/^models\//, '');
}

export interface RenderOverrides {
  /** A bare model name (or with a models/ or googleai/ prefix) instead of the frontmatter's. */
  model?: string;
  /** Generation settings merged over the frontmatter's `config`. */
  config?: Record<string, unknown>;
}

export interface RenderedRequest {
  /** Bare model name; the request goes to models/<model>. */
  model: string;
  request: GenerateContentRequest;
}

export class PromptRenderError extends Error {
  constructor(readonly problem: PromptProblem) {
    super(`line ${problem.line}: ${problem.message}`);
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Template line/column (Handlebars', 1-based line) → file line/column. */
function fileAt(source: PromptSource, line: number, column?: number): { line: number; column?: number } {
  return {
    line: source.templateLine + line - 1,
    column: column === undefined ? undefined : line === 1 ? column + source.templateColumn : column,
  };
}

/** Handlebars' errors: a parse error names a template line in its text, a compile error has lineNumber/column. */
export function templateProblem(source: PromptSource, err: unknown): PromptProblem {
  const e = err as { message?: unknown; lineNumber?: unknown; column?: unknown };
  const message = typeof e?.message === 'string' ? e.message : String(err);
  const parse = /^Parse error on line (\d+):\n[\s\S]*?\n(Expecting [^\n]*|[^\n]*)$/.exec(message);
  if (parse) {
    const at = fileAt(source, Number(parse[1]));
    return {
      ...at,
      severity: 'error',
      code: 'handlebars',
      message: `Handlebars: ${parse[2].replace(/^Expecting /, 'expected ')}`,
    };
  }
  if (typeof e.lineNumber === 'number') {
    const at = fileAt(source, e.lineNumber, typeof e.column === 'number' ? e.column : undefined);
    return {
      ...at,
      severity: 'error',
      code: 'handlebars',
      message: `Handlebars: ${message.replace(/ - \d+:\d+$/, '')}`,
    };
  }
  return { line: source.templateLine, severity: 'error', code: 'handlebars', message: `Handlebars: ${message}` };
}

/** The names of the partials a template uses (`{{> name}}`), read from Handlebars' syntax tree. */
export function partialNames(template: string): string[] {
  const names = new Set<string>();
  class Finder extends Handlebars.Visitor {
    override PartialStatement(p: hbs.AST.PartialStatement): void {
      const name = p.name as { original?: unknown };
      if (typeof name.original === 'string') names.add(name.original);
    }
    override PartialBlockStatement(p: hbs.AST.PartialBlockStatement): void {
      const name = p.name as { original?: unknown };
      if (typeof name.original === 'string') names.add(name.original);
      super.PartialBlockStatement(p);
    }
  }
  new Finder().accept(Handlebars.parse(template));
  return [...names];
}

export interface LoadOptions {
  partials?: PartialResolver;
}

/** A .prompt file that parsed: its metadata, and render() to a request. */
export class PromptFile {
  private constructor(
    readonly source: PromptSource,
    readonly parsed: ParsedPrompt,
    private readonly render$: PromptFunction<Record<string, unknown>>,
    private readonly partials: { dp: Dotprompt; sources: ReadonlyMap<string, string> },
    /** Input JSON Schema (Picoschema expanded), if the file declares one. */
    readonly inputSchema: Record<string, unknown> | undefined,
    /** Output JSON Schema (Picoschema expanded), if the file declares one. */
    readonly outputSchema: Record<string, unknown> | undefined,
    /** The frontmatter's output schema as the API's responseSchema. */
    private readonly responseSchema: GenerationConfig['responseSchema'],
    /** Non-fatal problems (unknown keys). */
    readonly warnings: PromptProblem[],
  ) {}

  /** The frontmatter's model, bare; undefined when the file names none. */
  get model(): string | undefined {
    return typeof this.parsed.model === 'string' ? bareModel(this.parsed.model) : undefined;
  }

  get config(): Record<string, unknown> {
    return isRecord(this.parsed.config) ? this.parsed.config : {};
  }

  get inputDefaults(): Record<string, unknown> {
    const d = this.parsed.input?.default;
    return isRecord(d) ? d : {};
  }

  /** `metadata.expect` of the frontmatter (checked by the evaluation's assertion parser). */
  get expect(): { value: unknown; line: number } | undefined {
    const meta = this.source.yaml?.get('metadata', true);
    const pair = pairOf(meta, 'expect');
    if (!pair) return undefined;
    const raw = this.parsed.raw?.metadata as Record<string, unknown> | undefined;
    return { value: raw?.expect, line: yamlLine(this.source, (pair.key as { range?: number[] }).range) };
  }

  /** The line of a top-level frontmatter key (or of the frontmatter when absent). */
  keyLine(key: string): number {
    const pair = pairOf(this.source.yaml?.contents, key);
    return yamlLine(this.source, (pair?.key as { range?: number[] } | undefined)?.range);
  }

  static async load(
    file: string,
    options: LoadOptions = {},
  ): Promise<{ prompt?: PromptFile; problems: PromptProblem[] }> {
    const split = splitPromptSource(file);
    if (!split.source) return { problems: split.problems };
    const source = split.source;
    const problems: PromptProblem[] = [];
    const warnings: PromptProblem[] = [];

    const top = source.yaml?.contents;
    const checked = checkFrontmatter(source);
    problems.push(...checked.problems);
    warnings.push(...checked.warnings);

    // Partials first: each is read now, so a changed or missing partial file is never taken from an earlier load.
    const partials = new Map<string, string>();
    const pending: string[] = [];
    try {
      pending.push(...partialNames(source.template));
    } catch (err) {
      problems.push(templateProblem(source, err));
    }
    while (pending.length) {
      const name = pending.shift()!;
      if (partials.has(name)) continue;
      const text = options.partials ? await options.partials(name) : null;
      if (text === null) {
        problems.push({
          line: source.templateLine,
          severity: 'error',
          code: 'partial',
          message: `The partial "${name}" was not found${options.partials ? ` (a file _${name}.prompt beside this one)` : ''}.`,
        });
        partials.set(name, '');
        continue;
      }
      partials.set(name, text);
      try {
        pending.push(...partialNames(text));
      } catch (err) {
        problems.push({
          line: source.templateLine,
          severity: 'error',
          code: 'partial',
          message: `The partial "${name}" does not parse: ${(err as Error).message.split('\n')[0]}`,
        });
      }
    }
    if (problems.length) return { problems: [...problems, ...warnings] };

    const dp = new Dotprompt({ partials: Object.fromEntries(partials) });
    const parsed = dp.parse(source.text);
    let inputSchema: Record<string, unknown> | undefined;
    let outputSchema: Record<string, unknown> | undefined;
    for (const which of ['input', 'output'] as const) {
      const declared = parsed[which]?.schema;
      if (declared === undefined || declared === null) continue;
      try {
        const meta = await dp.renderMetadata({ ...parsed, [which === 'input' ? 'output' : 'input']: undefined });
        const schema: unknown = meta[which]?.schema;
        if (!isRecord(schema)) throw new Error('the schema is empty');
        if (which === 'input') inputSchema = schema;
        else outputSchema = schema;
      } catch (err) {
        problems.push({
          line: yamlLine(source, (pairOf(pairOf(top, which)?.value, 'schema')?.key as { range?: number[] })?.range),
          severity: 'error',
          code: 'schema',
          message: `${which}.schema: ${(err as Error).message}`,
        });
      }
    }
    let responseSchema: GenerationConfig['responseSchema'];
    if (outputSchema) {
      try {
        responseSchema = toResponseSchema(outputSchema, 'output.schema');
      } catch (err) {
        if (!(err instanceof SchemaMappingError)) throw err;
        problems.push({
          line: yamlLine(source, (pairOf(pairOf(top, 'output')?.value, 'schema')?.key as { range?: number[] })?.range),
          severity: 'error',
          code: 'schema',
          message: err.message,
        });
      }
    }
    if (problems.length) return { problems: [...problems, ...warnings] };

    let render$: PromptFunction<Record<string, unknown>>;
    try {
      render$ = await dp.compile(parsed);
    } catch (err) {
      return { problems: [templateProblem(source, err), ...warnings] };
    }
    warnings.push(...undeclaredVariables(source, inputSchema, parsed.input?.default));
    const prompt = new PromptFile(
      source,
      parsed,
      render$,
      { dp, sources: partials },
      inputSchema,
      outputSchema,
      responseSchema,
      warnings,
    );
    // Handlebars compiles on first use: one render with the defaults surfaces unknown helpers and the like now.
    try {
      await prompt.messages({});
    } catch (err) {
      if (err instanceof PromptRenderError) return { problems: [err.problem, ...warnings] };
      throw err;
    }
    return { prompt, problems: warnings };
  }

  /** Renders the template with `input` over the defaults; throws PromptRenderError (with a file line). */
  async render(input: Record<string, unknown>, overrides: RenderOverrides = {}): Promise<RenderedRequest> {
    const messages = await this.messages(input);
    const model = overrides.model ? bareModel(overrides.model) : this.model;
    if (!model)
      throw new PromptRenderError({
        line: this.source.frontmatterLine || 1,
        severity: 'error',
        code: 'model',
        message: 'No model: set model: in the frontmatter or choose one.',
      });
    return { model, request: this.toRequest(messages, overrides.config) };
  }

  /** dotprompt's rendered messages for `input` over the defaults; throws PromptRenderError (with a file line). */
  async messages(input: Record<string, unknown>): Promise<Message[]> {
    let messages: Message[];
    // Handlebars keeps partials in one registry for every dotprompt instance: this file's go back in before
    // it renders, so a file loaded earlier with another partial of the same name renders with its own.
    for (const [name, text] of this.partials.sources) this.partials.dp.definePartial(name, text);
    try {
      const rendered = await this.render$({ input }, { input: { default: this.inputDefaults } });
      messages = rendered.messages;
    } catch (err) {
      throw new PromptRenderError(templateProblem(this.source, err));
    }
    return messages;
  }

  private toRequest(messages: Message[], override: Record<string, unknown> | undefined): GenerateContentRequest {
    const request: GenerateContentRequest = { contents: [] };
    const system: Part[] = [];
    for (const m of messages) {
      const parts = m.content.flatMap((p) => this.part(p));
      if (!parts.length) continue;
      if (m.role === 'system') system.push(...parts);
      else if (m.role === 'user' || m.role === 'model') request.contents.push({ role: m.role, parts });
      else
        throw new PromptRenderError({
          line: this.source.templateLine,
          severity: 'error',
          code: 'role',
          message: `The role "${m.role}" has no place in a GenerateContentRequest (use system, user or model).`,
        });
    }
    if (system.length) request.systemInstruction = { parts: system } satisfies Content;
    const { safetySettings, ...config } = { ...this.config, ...(override ?? {}) };
    if (Array.isArray(safetySettings))
      request.safetySettings = safetySettings as GenerateContentRequest['safetySettings'];
    const generationConfig: GenerationConfig = { ...config };
    const format = this.parsed.output?.format;
    if (this.responseSchema) {
      generationConfig.responseMimeType = 'application/json';
      generationConfig.responseSchema = this.responseSchema;
    } else if (format === 'json' && generationConfig.responseMimeType === undefined) {
      generationConfig.responseMimeType = 'application/json';
    }
    if (Object.keys(generationConfig).length) request.generationConfig = generationConfig;
    return request;
  }

  private part(p: DotPart): Part[] {
    if (typeof p.text === 'string') return [{ text: p.text }];
    if (p.media) {
      const { url, contentType } = p.media;
      const data = /^data:([^;,]+)?(;base64)?,(.*)$/s.exec(url);
      if (data) {
        const mimeType = contentType ?? data[1] ?? 'application/octet-stream';
        const bytes = data[2] ? data[3] : Buffer.from(decodeURIComponent(data[3])).toString('base64');
        return [{ inlineData: { mimeType, data: bytes } }];
      }
      return [{ fileData: contentType ? { mimeType: contentType, fileUri: url } : { fileUri: url } }];
    }
    // Section markers ({{section}}) and pending parts are placeholders for tooling: nothing is sent for them.
    return [];
  }
}

/** Variables the template reads that a declared input schema (and the defaults) do not name: a warning each. */
function undeclaredVariables(
  source: PromptSource,
  schema: Record<string, unknown> | undefined,
  defaults: unknown,
): PromptProblem[] {
  const props = schema?.properties;
  if (!isRecord(props)) return [];
  const known = new Set([...Object.keys(props), ...(isRecord(defaults) ? Object.keys(defaults) : [])]);
  const seen = new Set<string>();
  const out: PromptProblem[] = [];
  for (const v of templateVariables(source.template)) {
    if (known.has(v.name) || seen.has(v.name)) continue;
    seen.add(v.name);
    out.push({
      ...fileAt(source, v.line, v.column),
      severity: 'warning',
      code: 'undeclared-variable',
      message: `"${v.name}" is not in the input schema: it renders empty unless a dataset gives it.`,
    });
  }
  return out;
}
