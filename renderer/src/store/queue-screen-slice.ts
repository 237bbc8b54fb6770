import { MAX_DETAILS } from '../../../shared/api/paging.ts';
import type { Api, InputOf, OutputOf } from '../../../shared/api/types.ts';
import type { FailureKind } from '../../../shared/jobs/outcomes.ts';
import { inChunks } from './in-chunks.ts';
import type { JobSummary, SliceCreator } from './state.ts';

export type BatchDetail = OutputOf<'batches', 'get'>;
export type JobDetail = OutputOf<'jobs', 'get'>;
export type AttemptSummary = OutputOf<'jobs', 'attempts'>['items'][number];
export type RetryReport = OutputOf<'queue', 'retry'>;
export type LimitsInput = InputOf<'queue', 'setLimits'>;
export type BatchCommand = 'pause' | 'resume' | 'cancel' | 'front' | 'back';
export type JobsCommand =
  'front' | 'back' | 'hold' | 'release' | 'cancel' | 'retry' | 'retry-anyway' | 'top-up';

/** Attempts shown for one job; more than this is a job support reads in the CLI. */
const MAX_ATTEMPTS = 200;

/**
 * The queue screen's actions: they throw the service's error (the screen shows it as a toast)
 * and leave the state to the events they cause, except what no event reports (holds, order).
 */
export interface QueueScreenSlice {
  selectedBatchId: number | null;
  selectBatch(id: number | null): void;
  /** `batches.get` answers: failures by kind, partial results, expired links. */
  batchDetails: ReadonlyMap<number, BatchDetail>;
  loadBatchDetail(id: number): Promise<void>;
  batchCommand(id: number, command: BatchCommand): Promise<number | null>;
  cancelAll(): Promise<number>;
  setLimits(input: LimitsInput): Promise<void>;
  /** Over any number of ids (sent MAX_ID_PAGE at a time); resolves to how many changed. */
  jobsCommand(command: JobsCommand, ids: readonly number[]): Promise<number>;
  retryBatch(input: InputOf<'queue', 'retry'>): Promise<RetryReport>;
  /** The selected jobs' failed downloads again (no new generation). */
  retryJobDownloads(ids: readonly number[]): Promise<OutputOf<'jobs', 'retryDownloads'>>;
  jobDetail(id: number): Promise<JobDetail>;
  jobAttempts(id: number): Promise<AttemptSummary[]>;
  /** Failed downloads of a batch with these failure codes. */
  countDownloadFailures(batchId: number, codes: string[]): Promise<number>;
  /** Up to a screenful of a batch's failed jobs of these kinds. */
  failedJobsSample(batchId: number, kinds: FailureKind[]): Promise<JobSummary[]>;
  /** Every id of a list, paging until the end (for "select all"). */
  loadAllIds(key: string): Promise<readonly number[]>;
  /** Fetches again the details of jobs on screen (events bring states, not tries or errors). */
  refreshJobs(ids: readonly number[]): Promise<void>;
  /** Drops cached details (a hold changed them, and no event says so). */
  forgetJobs(ids: readonly number[]): void;
}

export const createQueueScreenSlice: SliceCreator<QueueScreenSlice> = (api) => (set, get) => {
  const sendJobs = sendJobsWith(api);
  return {
    selectedBatchId: null,
    batchDetails: new Map(),

    selectBatch(id) {
      set({ selectedBatchId: id });
    },

    async loadBatchDetail(id) {
      const detail = await api.batches.get({ id });
      set((s) => ({ batchDetails: new Map(s.batchDetails).set(id, detail) }));
    },

    async batchCommand(id, command) {
      switch (command) {
        case 'pause':
        case 'resume':
          await api.batches[command]({ id });
          await get().loadBatches(); // the held flag comes with the list, not with events
          return null;
        case 'cancel':
          return (await api.batches.cancel({ id })).canceled;
        case 'front':
        case 'back':
          await api.batches.move({ id, position: command });
          await get().loadBatches();
          return null;
      }
    },

    async cancelAll() {
      return (await api.queue.cancelAll()).canceled;
    },

    async setLimits(input) {
      const limits = await api.queue.setLimits(input);
      set({ limits });
    },

    async jobsCommand(command, ids) {
      const changed = await inChunks(ids, (chunk) => sendJobs(command, chunk));
      get().forgetJobs(ids);
      return changed.reduce((sum, n) => sum + n, 0);
    },

    async retryBatch(input) {
      return api.queue.retry(input);
    },

    async retryJobDownloads(ids) {
      const reports = await inChunks(ids, (chunk) => api.jobs.retryDownloads({ ids: chunk }));
      return {
        queued: reports.reduce((sum, r) => sum + r.queued, 0),
        expired: reports.reduce((sum, r) => sum + r.expired, 0),
      };
    },

    jobDetail: (id) => api.jobs.get({ id }),

    async jobAttempts(id) {
      const items: AttemptSummary[] = [];
      let cursor: string | null = null;
      do {
        const page = await api.jobs.attempts({ jobId: id, cursor, limit: 100 });
        items.push(...page.items);
        cursor = page.next;
      } while (cursor !== null && items.length < MAX_ATTEMPTS);
      return items;
    },

    async countDownloadFailures(batchId, codes) {
      const answer = await api.images.count({
        query: { batchId, downloadStates: ['failed'], failureCodes: codes },
      });
      return answer.total;
    },

    async failedJobsSample(batchId, kinds) {
      const page = await api.jobs.ids({ batchId, failureKinds: kinds, limit: MAX_DETAILS });
      return page.ids.length === 0 ? [] : api.jobs.byIds({ ids: page.ids });
    },

    async loadAllIds(key) {
      const state = get();
      if (!state.jobIdsByKey.get(key)) await state.fetchIds(key);
      while (get().jobIdsByKey.get(key)?.next) await get().fetchMoreIds(key);
      return get().jobIdsByKey.get(key)?.ids ?? [];
    },

    async refreshJobs(ids) {
      const cached = ids.filter((id) => get().jobsById.has(id)).slice(0, MAX_DETAILS);
      if (cached.length === 0) return;
      const before = new Map(cached.map((id) => [id, get().jobsById.get(id)?.state]));
      const jobs = await api.jobs.byIds({ ids: cached });
      set((s) => {
        const jobsById = new Map(s.jobsById);
        for (const job of jobs) {
          const now = s.jobsById.get(job.id);
          if (!now) continue;
          // an event that moved the job while this call was out is newer than its answer
          const moved = now.state !== before.get(job.id);
          jobsById.set(job.id, moved ? { ...job, state: now.state } : job);
        }
        return { jobsById };
      });
    },

    forgetJobs(ids) {
      set((s) => {
        if (!ids.some((id) => s.jobsById.has(id))) return {};
        const jobsById = new Map(s.jobsById);
        for (const id of ids) jobsById.delete(id);
        return { jobsById };
      });
    },
  };
};

function sendJobsWith(api: Api) {
  return async (command: JobsCommand, ids: number[]): Promise<number> => {
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
}
