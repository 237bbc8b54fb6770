import type { InputOf, OutputOf } from '../../../../shared/api/types.ts';
import { useAction } from '../../data/action.ts';
import { useApi } from '../../data/data-context.ts';
import { inChunks } from '../../data/in-chunks.ts';
import type { Settings } from '../../data/types.ts';
import { plural } from '../../format.ts';
import { withConfirmedSpend, type SpendCheck } from '../../views/SpendConfirm.tsx';
import { reorderPlan } from './reorder.ts';

/** One hook per action on the queue: the call, its toast, disabled while it cannot run. */

export function usePauseQueue() {
  const api = useApi();
  return useAction<string | undefined, null>({
    run: (reason) => api.queue.pause(reason === undefined ? {} : { reason }),
    what: 'pause the queue',
  });
}

export function useResumeQueue() {
  const api = useApi();
  return useAction<void, null>({ run: () => api.queue.resume(), what: 'resume the queue' });
}

/** "Run anyway": past the cap a budget pause stopped before (that batch's, day's, gateway's). */
export function useRunOverBudget() {
  const api = useApi();
  return useAction<void, null>({
    run: () => api.queue.resume({ overBudget: true }),
    done: () => 'Running past the cap.',
    what: 'run past the cap',
  });
}

/** A budget pause's cap raised in the settings: the queue resumes once it lets the next through. */
export function useRaiseCap() {
  const api = useApi();
  return useAction<Settings['budget'], unknown>({
    run: (budget) => api.settings.update({ budget }),
    done: () => 'Cap raised.',
    what: 'raise the cap',
  });
}

export function useCancelAll() {
  const api = useApi();
  return useAction<void, number>({
    run: async () => (await api.queue.cancelAll()).canceled,
    done: (n) => `Canceled ${plural(n, 'job')}.`,
    what: 'cancel the queue',
  });
}

export function useSetLimits() {
  const api = useApi();
  return useAction<InputOf<'queue', 'setLimits'>, unknown>({
    run: (limits) => api.queue.setLimits(limits),
    done: () => 'Limits applied.',
    what: 'change the limits',
  });
}

export function usePauseBatch() {
  const api = useApi();
  return useAction<number, null>({
    run: (id) => api.batches.pause({ id }),
    what: 'hold the batch',
  });
}

export function useResumeBatch(ask: (spend: SpendCheck) => Promise<boolean>) {
  const api = useApi();
  return useAction<number, null>({
    run: (id) => withConfirmedSpend({ id }, (input) => api.batches.resume(input), ask),
    what: 'resume the batch',
  });
}

export function useCancelBatch() {
  const api = useApi();
  return useAction<{ id: number; name: string }, number>({
    run: async ({ id }) => (await api.batches.cancel({ id })).canceled,
    done: (n, { name }) => `Canceled ${plural(n, 'job')} of “${name}”.`,
    what: 'cancel the batch',
  });
}

/** Moves a batch to place `to` of the run order, with the fewest front/back moves. */
export function useReorderBatches() {
  const api = useApi();
  return useAction<{ order: readonly number[]; id: number; to: number }, void>({
    run: async ({ order, id, to }) => {
      for (const move of reorderPlan(order, id, to)) await api.batches.move(move);
    },
    what: 'reorder the batches',
  });
}

export type JobsCommand =
  'front' | 'back' | 'hold' | 'release' | 'cancel' | 'retry' | 'retry-anyway' | 'top-up';

const DONE: Record<JobsCommand, string> = {
  front: 'Moved to the front',
  back: 'Moved to the back',
  hold: 'Held',
  release: 'Released',
  cancel: 'Canceled',
  retry: 'Retrying',
  'retry-anyway': 'Sent again',
  'top-up': 'Asked for the missing images of',
};

/** A bulk action on any number of jobs (sent MAX_ID_PAGE at a time); toasts how many changed. */
export function useJobsAction(command: JobsCommand) {
  const api = useApi();
  const send = async (ids: number[]): Promise<number> => {
    switch (command) {
      case 'front':
      case 'back':
        return (await api.jobs.move({ ids, position: command })).changed;
      case 'hold':
      case 'release':
      case 'cancel':
        return (await api.jobs[command]({ ids })).changed;
      case 'retry':
      case 'retry-anyway':
        return (await api.jobs.retry({ ids, anyway: command === 'retry-anyway' })).changed;
      case 'top-up':
        return (await api.jobs.topUp({ ids })).prompts;
    }
  };
  return useAction<readonly number[], number>({
    run: async (ids) => (await inChunks(ids, send)).reduce((sum, n) => sum + n, 0),
    done: (changed) => `${DONE[command]} ${plural(changed, 'job')}.`,
    what: `${command.replace('-', ' ')} the jobs`,
  });
}

/** The selected jobs' failed downloads, from the stored link or bytes (no new generation). */
export function useRetryJobDownloads() {
  const api = useApi();
  return useAction<readonly number[], number>({
    run: async (ids) =>
      (await inChunks(ids, (chunk) => api.jobs.retryDownloads({ ids: chunk }))).reduce(
        (sum, r) => sum + r.queued,
        0,
      ),
    done: (n) => `Retrying ${plural(n, 'download')}: no new generation.`,
    what: 'retry the downloads',
  });
}

export type BatchRetry = 'failed' | 'downloads' | 'partial' | 'uncertain';

/** A batch's failures of one kind again (queue.retry). */
export function useRetryBatch(kind: BatchRetry) {
  const api = useApi();
  return useAction<number, OutputOf<'queue', 'retry'>>({
    run: (batchId) => api.queue.retry({ batchId, [kind]: true }),
    done: (r) => {
      switch (kind) {
        case 'failed':
          return `Retrying ${plural(r.failed, 'failed job')}.`;
        case 'downloads':
          return `Retrying ${plural(r.downloads, 'download')}: no new generation.`;
        case 'partial':
          return `Asked for ${plural(r.topUps.images, 'missing image')}.`;
        case 'uncertain':
          return `Sent ${plural(r.uncertain, 'uncertain job')} again.`;
      }
    },
    what: 'retry',
  });
}
