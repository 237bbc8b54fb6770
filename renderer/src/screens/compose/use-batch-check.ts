import { useEffect, useState } from 'react';
import type { InputOf, OutputOf } from '../../../../shared/api/types.ts';
import { useApi } from '../../data/data-context.ts';
import { errorMessage } from '../../data/error-message.ts';

export type BatchCheck = OutputOf<'batches', 'check'>;
export type CheckInput = InputOf<'batches', 'check'>;

export type CheckState =
  | { status: 'idle' }
  | { status: 'checking' }
  | { status: 'done'; check: BatchCheck }
  | { status: 'failed'; message: string };

/** How long typing must pause before the service checks the batch again. */
export const CHECK_DELAY_MS = 400;

/**
 * The service's own check of what would be sent (`batches.check`), debounced while the person
 * types (a check of the person's words, not server data to keep: no query to cache). `input`
 * builds the source only when the check runs.
 */
export function useBatchCheck(
  input: (() => CheckInput) | null,
  delayMs = CHECK_DELAY_MS,
): CheckState {
  const api = useApi();
  // the answer is kept with the input it is for: a newer input is 'checking' from its first render
  const [answer, setAnswer] = useState<{ for: unknown; state: CheckState } | null>(null);
  useEffect(() => {
    if (!input) return;
    let current = true;
    const timer = setTimeout(() => {
      api.batches.check(input()).then(
        (check) => current && setAnswer({ for: input, state: { status: 'done', check } }),
        (error: unknown) =>
          current &&
          setAnswer({ for: input, state: { status: 'failed', message: errorMessage(error) } }),
      );
    }, delayMs);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [input, api, delayMs]);
  if (!input) return { status: 'idle' };
  return answer?.for === input ? answer.state : { status: 'checking' };
}
