import { useEffect, useState } from 'react';
import type { BatchCheck, CheckInput } from '../../store/compose-slice.ts';
import { errorMessage } from '../../store/error-message.ts';
import { useAppStore } from '../../store/react.ts';

export type CheckState =
  | { status: 'idle' }
  | { status: 'checking' }
  | { status: 'done'; check: BatchCheck }
  | { status: 'failed'; message: string };

/** How long typing must pause before the service checks the batch again. */
export const CHECK_DELAY_MS = 400;

/**
 * The service's own check of what would be sent (`batches.check`), debounced: the
 * authoritative word on every row. `input` builds the source only when the check runs.
 */
export function useBatchCheck(
  input: (() => CheckInput) | null,
  delayMs = CHECK_DELAY_MS,
): CheckState {
  const checkComposed = useAppStore((s) => s.checkComposed);
  // the answer is kept with the input it is for: a newer input is 'checking' from its first render
  const [answer, setAnswer] = useState<{ for: unknown; state: CheckState } | null>(null);
  useEffect(() => {
    if (!input) return;
    let current = true;
    const timer = setTimeout(() => {
      checkComposed(input()).then(
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
  }, [input, checkComposed, delayMs]);
  if (!input) return { status: 'idle' };
  return answer?.for === input ? answer.state : { status: 'checking' };
}
