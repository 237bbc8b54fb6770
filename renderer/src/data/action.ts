import { useMutation } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ApiRequestError } from '../../../shared/api/api-request-error.ts';
import type { ApiErrorCode } from '../../../shared/api/errors.ts';
import { useConnection } from './data-context.ts';
import { errorMessage } from './error-message.ts';

export interface ActionOptions<I, O> {
  /** The call, through the API. */
  run(input: I): Promise<O>;
  /** What the toast says it did; null or left out: no toast (the screen shows it). */
  done?: (output: O, input: I) => string | null;
  /** What was being tried, for the error toast: "Could not <what>: <the service's words>". */
  what: string;
}

export interface Action<I, O> {
  /** Runs it; resolves to its output, or null when it failed (the toast said why). */
  run(input: I): Promise<O | null>;
  /**
   * Runs it for a form: the success toast as `run`, but a refusal comes back as text for the
   * form to show beside its field, not as a toast.
   */
  attempt(
    input: I,
  ): Promise<{ ok: true; value: O } | { ok: false; message: string; code: ApiErrorCode | null }>;
  /** While it runs, or while the window cannot reach the service. */
  disabled: boolean;
  pending: boolean;
}

/**
 * One way to do anything to the service's data: the call, its toast, its error (one
 * convention: a toast "Could not …: <the service's message>", or the form's own field), and a
 * disabled state while it runs or the window is not connected. The events that follow the
 * change refresh what shows it: an action never patches the cache itself.
 */
export function useAction<I = void, O = unknown>(options: ActionOptions<I, O>): Action<I, O> {
  const connection = useConnection();
  const mutation = useMutation<O, unknown, I>({ mutationFn: (input) => options.run(input) });
  const attempt = async (input: I) => {
    try {
      const value = await mutation.mutateAsync(input);
      const said = options.done?.(value, input);
      if (said) toast.success(said);
      return { ok: true as const, value };
    } catch (error) {
      const code = error instanceof ApiRequestError ? error.code : null;
      return { ok: false as const, message: errorMessage(error), code };
    }
  };
  return {
    async run(input: I) {
      const result = await attempt(input);
      if (result.ok) return result.value;
      toast.error(`Could not ${options.what}: ${result.message}`);
      return null;
    },
    attempt,
    disabled: mutation.isPending || connection !== 'live',
    pending: mutation.isPending,
  };
}
