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
  const [state, setState] = useState<CheckState>({ status: 'idle' });
  useEffect(() => {
    if (!input) {
      setState({ status: 'idle' });
      return;
    }
    let current = true;
    setState({ status: 'checking' });
    const timer = setTimeout(() => {
      checkComposed(input()).then(
        (check) => current && setState({ status: 'done', check }),
        (error: unknown) => current && setState({ status: 'failed', message: errorMessage(error) }),
      );
    }, delayMs);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [input, checkComposed, delayMs]);
  return state;
}
