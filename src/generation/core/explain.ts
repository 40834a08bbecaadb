// What each finish and block reason means for the user, and what to do about it.
import { ownValue } from '../../shared/wire/ownKeys';

export interface Explanation {
  label: string;
  meaning: string;
  advice?: string;
  /** Worth drawing attention to: the reply is cut short or missing. */
  warning: boolean;
}

const FINISH: Record<string, Omit<Explanation, 'warning'> & { warning?: boolean }> = {
  STOP: {
    label: 'Finished',
    meaning: 'The model ended its reply naturally or hit one of your stop sequences.',
    warning: false,
  },
  MAX_TOKENS: {
    label: 'Cut at the token limit',
    meaning: 'The reply reached maxOutputTokens and was cut off.',
    advice: 'Raise maxOutputTokens in the settings, or ask the model to continue.',
  },
  SAFETY: {
    label: 'Stopped for safety',
    meaning: 'The reply was flagged by a safety filter; the ratings below show which category.',
    advice: 'Rephrase the prompt, or relax the threshold for that category in the settings if appropriate.',
  },
  RECITATION: {
    label: 'Stopped for recitation',
    meaning: 'The reply was reproducing existing material too closely; the cited sources are listed below.',
    advice: 'Ask for a summary or an original formulation instead of a verbatim text.',
  },
  LANGUAGE: {
    label: 'Unsupported language',
    meaning: 'The reply would be in a language the model does not support.',
    advice: 'Ask in (or for) a supported language.',
  },
  OTHER: {
    label: 'Stopped (other reason)',
    meaning: 'The service stopped the reply for an unspecified reason.',
    advice: 'Resend; if it keeps happening, simplify the prompt or try another model.',
  },
  BLOCKLIST: {
    label: 'Blocked term',
    meaning: 'The reply contained a term from a blocklist.',
    advice: 'Rephrase the prompt.',
  },
  PROHIBITED_CONTENT: {
    label: 'Prohibited content',
    meaning: 'The reply was flagged as possibly prohibited content.',
    advice: 'Rephrase the prompt.',
  },
  SPII: {
    label: 'Sensitive personal data',
    meaning: 'The reply might contain sensitive personally identifiable information.',
    advice: 'Remove personal data from the prompt and context.',
  },
  MALFORMED_FUNCTION_CALL: {
    label: 'Malformed function call',
    meaning: 'The model produced a function call that does not fit the declarations.',
    advice: 'Check the tool declarations (names, parameter schemas) and resend.',
  },
  UNEXPECTED_TOOL_CALL: {
    label: 'Unexpected tool call',
    meaning: 'The model called a tool that is not enabled for this request.',
    advice: 'Declare the tool or change the tool config.',
  },
  TOO_MANY_TOOL_CALLS: {
    label: 'Too many tool calls',
    meaning: 'The model made too many consecutive tool calls.',
    advice: 'Simplify the task or answer some calls manually.',
  },
  IMAGE_SAFETY: {
    label: 'Image stopped for safety',
    meaning: 'A generated image was flagged by a safety filter.',
    advice: 'Rephrase the prompt.',
  },
};

export function explainFinishReason(reason: string | undefined): Explanation | undefined {
  if (!reason || reason === 'FINISH_REASON_UNSPECIFIED') return undefined;
  const known = ownValue(FINISH, reason);
  if (known) return { warning: true, ...known };
  return {
    label: reason,
    meaning: `The service reported finish reason ${reason}, which this version does not know.`,
    advice: 'Check the API documentation for this value.',
    warning: true,
  };
}

const BLOCK: Record<string, string> = {
  SAFETY: 'The prompt was blocked for safety; the ratings show which category triggered it.',
  OTHER: 'The prompt was blocked for an unspecified reason.',
  BLOCKLIST: 'The prompt contains a term from a blocklist.',
  PROHIBITED_CONTENT: 'The prompt was flagged as possibly prohibited content.',
  IMAGE_SAFETY: 'An image in the prompt was flagged by a safety filter.',
};

export function explainBlockReason(reason: string): Explanation {
  return {
    label: `Prompt blocked: ${reason}`,
    meaning: ownValue(BLOCK, reason) ?? `The prompt was blocked (${reason}).`,
    advice: 'Nothing was generated. Rephrase the prompt, remove the flagged content, or adjust the safety settings.',
    warning: true,
  };
}
