// Prompt triggers and the `x-sandbox-fault` header select behaviours that tests and demos need
// but a deterministic echo model would never produce on its own (blocked prompts, faults…).
//
//   [[block]] [[block-other]]   prompt blocked: promptFeedback only, no candidates
//   [[safety]]                  candidate stopped for SAFETY after partial text
//   [[recitation]]              citations on a middle chunk, then a content-less RECITATION chunk
//   [[cite]]                    a normal reply with citations on a middle chunk
//   [[other]] [[language]]      finishReason OTHER (with finishMessage) / LANGUAGE
//   [[thinking]]                thought parts with a thoughtSignature before the answer
//   [[call]]                    force a functionCall when tools are declared
//   [[long:N]]                  an N-chunk reply (one line per chunk)
//   [[slow:MS]] [[fast]]        delay between chunks (default 15 ms) / none
//   [[midstream-error]]         raw JSON 503 error after two events, no `data:` prefix
//   [[reset]]                   connection destroyed after two events
//   [[429]] [[quota-day]]       429 before streaming, per-minute (RetryInfo) / per-day
//   [[flaky:N]]                 the first N identical requests get 429 with a short RetryInfo
//   [[503]] [[500]]             server errors before streaming
//   [[xss]]                     a reply full of HTML/script that a client must keep inert
export interface Triggers {
  has(name: string): boolean;
  arg(name: string): string | undefined;
  names: string[];
}

const PATTERN = /\[\[([a-z0-9-]+)(?::([^\]\s]+))?\]\]/g;

export function parseTriggers(prompt: string, header: string | string[] | undefined): Triggers {
  const found = new Map<string, string | undefined>();
  for (const m of prompt.matchAll(PATTERN)) found.set(m[1], m[2]);
  const headerText = Array.isArray(header) ? header.join(',') : (header ?? '');
  for (const item of headerText.split(',')) {
    const m = /^\s*([a-z0-9-]+)(?:[=:](\S+))?\s*$/.exec(item);
    if (m) found.set(m[1], m[2]);
  }
  return {
    has: (n) => found.has(n),
    arg: (n) => found.get(n),
    names: [...found.keys()],
  };
}

export function stripTriggers(prompt: string): string {
  return prompt
    .replace(PATTERN, '')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}
