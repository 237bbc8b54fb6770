import { useEffect, useState } from 'react';
import { useApi } from '../../data/data-context.ts';
import { errorMessage } from '../../data/error-message.ts';
import type { CheckState, EditInput } from './edit-form.ts';

/** How long typing must pause before the service checks the edit again. */
const CHECK_DELAY_MS = 400;

/**
 * The service's own check of the edit (`edits.check`: each picture, prompt, the mask and the
 * settings, each problem naming its row), asked again when typing pauses. A check of the
 * person's words, not server data to keep: no query to cache. Null input: nothing to check.
 */
export function useEditCheck(input: EditInput | null): CheckState {
  const api = useApi();
  // the answer is kept with the input it is for: a newer input is 'checking' from its first render
  const [answer, setAnswer] = useState<{ for: EditInput; state: CheckState } | null>(null);
  useEffect(() => {
    if (!input) return;
    let current = true;
    const timer = setTimeout(() => {
      api.edits.check(input).then(
        (check) => current && setAnswer({ for: input, state: { status: 'done', check } }),
        (error: unknown) =>
          current &&
          setAnswer({ for: input, state: { status: 'failed', message: errorMessage(error) } }),
      );
    }, CHECK_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [input, api]);
  if (!input) return { status: 'idle' };
  return answer?.for === input ? answer.state : { status: 'checking' };
}
