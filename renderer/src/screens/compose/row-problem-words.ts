import type { BatchCheck } from './use-batch-check.ts';

type RowError = BatchCheck['errors'][number];

/**
 * A bad row of a prompt file in the window's words, by its code: what a person can do here
 * (never a flag of the command line). The service's own sentence, host-neutral, is the rest.
 */
export function rowProblemText(error: RowError, fileName: string | null): string {
  switch (error.code) {
    case 'not-text':
      return `${fileName ?? 'The file'} is not a text file (a picture or an archive, perhaps): open a .txt, .csv or .jsonl file of prompts.`;
    case 'too-long':
      if (error.limit !== undefined) {
        return error.model
          ? `The prompt is longer than ${error.limit.toLocaleString('en-US')} characters, the most ${error.model} takes: shorten it.`
          : `The prompt is longer than ${error.limit.toLocaleString('en-US')} characters, the most Atelier sends: shorten it.`;
      }
      break;
    case 'empty':
      return 'The file holds no prompt.';
    default:
      break;
  }
  return sentence(error.message);
}

/** The service's clause as a sentence: capitalised, with its full stop. */
function sentence(text: string): string {
  const trimmed = text.trim();
  const first = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?)]$/.test(first) ? first : `${first}.`;
}
