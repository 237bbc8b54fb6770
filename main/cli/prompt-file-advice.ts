import { ApiRequestError } from '../../shared/api/api-request-error.ts';
import type { RowProblem } from '../../shared/prompts/row-problems.ts';
import { ConfigError } from './command.ts';

/**
 * The service says what is wrong with a prompt file in host-neutral words; the command line
 * adds its own way to fix what a flag fixes. Any other error is returned as it is.
 */
export function withFlagAdvice(error: unknown): unknown {
  if (!(error instanceof ApiRequestError) || error.code !== 'prompt-file') return error;
  const rows = (error.details?.rows ?? []) as Array<{ code?: RowProblem; model?: string }>;
  const advice: string[] = [];
  if (rows.some((row) => row.code === 'no-model')) {
    advice.push('Give --model M for the rows that name no model.');
  }
  if (rows.some((row) => row.code === 'too-long' && row.model === undefined)) {
    advice.push('Raise the longest prompt accepted with --max-prompt-chars N.');
  }
  return advice.length === 0 ? error : new ConfigError(`${error.message}\n${advice.join(' ')}`);
}
