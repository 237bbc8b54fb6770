import type { InputOf, OutputOf } from '../../../../shared/api/types.ts';
import { useAction } from '../../data/action.ts';
import { useApi } from '../../data/data-context.ts';
import { withConfirmedSpend, type SpendCheck } from '../../views/SpendConfirm.tsx';

/**
 * Queues the edit as one batch (`edits.create`); the editor says what it queued, with a way to
 * its results. The batch's events bring it into the queue and its images into the gallery.
 * Over the confirmation threshold the person is asked first (`spend`, the check's estimate),
 * and again if the service still refuses; null when they chose not to spend it.
 */
export function useCreateEdits(ask: (spend: SpendCheck) => Promise<boolean>) {
  const api = useApi();
  return useAction<
    { input: InputOf<'edits', 'create'>; spend: SpendCheck | null },
    OutputOf<'edits', 'create'> | null
  >({
    run: ({ input, spend }) =>
      withConfirmedSpend(input, (sent) => api.edits.create(sent), ask, spend),
    what: 'queue the edit',
  });
}
