import type { InputOf } from '../../../../../shared/api/types.ts';
import { useAction } from '../../../data/action.ts';
import { useData } from '../../../data/data-context.ts';
import { keys } from '../../../data/keys.ts';
import type { PromptHelp } from '../../../data/types.ts';

/** One question to a text model: prompts on a theme, a prompt expanded, or its variations. */
export type Ask =
  | { task: 'theme'; input: InputOf<'prompts', 'generate'> }
  | { task: 'expand'; input: InputOf<'prompts', 'expand'> }
  | { task: 'vary'; input: InputOf<'prompts', 'vary'> };

/**
 * Starts a prompt-help request. Its answer is the request itself, written into its query at
 * once; the query is then read again (`prompts.get`), for the events that came before this
 * window knew the request's id.
 */
export function useAskPromptHelp() {
  const { api, queries, refresher } = useData();
  return useAction<Ask, PromptHelp>({
    run: (ask) =>
      ask.task === 'theme'
        ? api.prompts.generate(ask.input)
        : ask.task === 'expand'
          ? api.prompts.expand(ask.input)
          : api.prompts.vary(ask.input),
    done: (help) => {
      queries.setQueryData(keys.promptHelp(help.id), help);
      refresher.refreshKey(keys.promptHelp(help.id));
      return null;
    },
    what: 'ask the text model',
  });
}

/** Stops a request at once; what arrived stays (its last event says `canceled`). */
export function useCancelPromptHelp() {
  const { api } = useData();
  return useAction<string, null>({
    run: (id) => api.prompts.cancel({ id }),
    what: 'cancel the request',
  });
}
