import type { InputOf, OutputOf } from '../../../../shared/api/types.ts';
import { useAction } from '../../data/action.ts';
import { useApi } from '../../data/data-context.ts';

/**
 * Queues the edit as one batch (`edits.create`); the editor says what it queued, with a way to
 * its results. The batch's events bring it into the queue and its images into the gallery.
 */
export function useCreateEdits() {
  const api = useApi();
  return useAction<InputOf<'edits', 'create'>, OutputOf<'edits', 'create'>>({
    run: (input) => api.edits.create(input),
    what: 'queue the edit',
  });
}
