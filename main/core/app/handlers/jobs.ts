import type { Handlers } from '../../../../shared/api/types.ts';
import { countEligible, eligible, type JobAction } from '../../../../shared/jobs/eligibility.ts';
import type { AppContext } from '../app-context.ts';
import { retriedImages } from './images.ts';
import { attemptSummary, imageSummary, jobDetail, jobSummary } from '../views.ts';
import { cursorKeys, listScope, notFound, pageFrom } from './paging.ts';

/** The transitions a job's detail shows, the latest. */
const DETAIL_TRANSITIONS = 50;

export function jobHandlers(ctx: AppContext): Handlers['jobs'] {
  const { store } = ctx;
  /** The jobs of `ids` that exist and `action` applies to, each once (the one action table). */
  const subject = (action: JobAction, ids: readonly number[]) => {
    const context = { engineHere: ctx.session.engine !== null };
    return store.pages.jobFacts(ids).filter((job) => eligible(action, job, context));
  };
  type Job = { id: number; batchId: number };
  const batchesOf = (jobs: readonly Job[]) => [...new Set(jobs.map((j) => j.batchId))];
  const touched = (jobs: readonly Job[]) => ctx.hub.reopen(batchesOf(jobs));
  /** Held, released, moved, topped up: nothing the transition log says. */
  const updated = (jobs: readonly Job[]) =>
    ctx.hub.jobsUpdated(
      jobs.map((j) => j.id),
      batchesOf(jobs),
    );

  return {
    async ids({ batchId, states, failureKinds, cursor, limit }) {
      const query = {
        batchId,
        ...(states ? { states } : {}),
        ...(failureKinds ? { failureKinds } : {}),
      };
      const scope = listScope('jobs', query);
      const [position, id] = cursorKeys(cursor, ['number', 'number'] as const, scope) ?? [null, 0];
      const rows = store.pages.jobIds({
        ...query,
        ...(position === null ? {} : { after: { position, id } }),
        limit: limit + 1,
      });
      const page = pageFrom(
        rows,
        limit,
        scope,
        (r) => [r.position, r.id],
        (r) => r.id,
      );
      return { ids: page.items, next: page.next, total: store.pages.countJobs(query) };
    },
    async byIds({ ids }) {
      const now = ctx.now();
      const failed = store.pages.failedDownloadsOf(ids);
      return store.pages.jobsByIds(ids).map((job) => jobSummary(job, now, failed.get(job.id) ?? 0));
    },
    async get({ id }) {
      const job = store.jobs.get(id);
      if (!job) throw notFound('job', id);
      const thumbnails = ctx.settings.read().thumbnails;
      const images = store.gallery.byIds(store.images.listForJob(id).map((image) => image.id));
      const transitions = store.jobs.transitionsOf(id).slice(-DETAIL_TRANSITIONS);
      return jobDetail(
        job,
        ctx.now(),
        images.map((image) => imageSummary(image, thumbnails)),
        transitions,
        store.attempts.countForJob(id),
      );
    },
    async attempts({ jobId, cursor, limit }) {
      if (!store.jobs.get(jobId)) throw notFound('job', jobId);
      const scope = listScope('attempts', jobId);
      const [after] = cursorKeys(cursor, ['number'] as const, scope) ?? [0];
      const rows = store.pages.attempts(jobId, after, limit + 1);
      return pageFrom(rows, limit, scope, (a) => [a.id], attemptSummary);
    },
    async cancel({ ids }) {
      // a running job belongs to the engine that sent it: with none here (another Atelier runs
      // the queue), marking it canceled would throw away an answer that may be paid for
      const jobs = subject('cancel', ids);
      const controls = ctx.controls();
      for (const job of jobs) controls.cancelJob(job.id);
      touched(jobs);
      return { changed: jobs.length };
    },
    async hold({ ids }) {
      const jobs = subject('hold', ids);
      if (jobs.length > 0)
        ctx.controls().pauseJobs(
          jobs.map((j) => j.id),
          true,
        );
      updated(jobs);
      return { changed: jobs.length };
    },
    async release({ ids }) {
      const jobs = subject('release', ids);
      if (jobs.length > 0)
        ctx.controls().pauseJobs(
          jobs.map((j) => j.id),
          false,
        );
      touched(jobs);
      updated(jobs);
      ctx.wake();
      return { changed: jobs.length };
    },
    async move({ ids, position }) {
      const jobs = subject('move', ids);
      if (jobs.length === 0) return { changed: 0 };
      const { high, low } = store.pages.jobPriorities(jobs.map((j) => j.id));
      ctx.controls().setPriority(
        jobs.map((j) => j.id),
        position === 'front' ? high + 1 : low - 1,
      );
      updated(jobs);
      return { changed: jobs.length };
    },
    async retry({ ids, anyway }) {
      const now = ctx.now();
      const retried = new Set(subject('retry', ids).map((j) => j.id));
      const jobs = store.pages
        .jobFacts(ids)
        .filter(
          (j) => retried.has(j.id) || (anyway && eligible('retry-anyway', j, { engineHere: true })),
        );
      store.transaction(() => {
        for (const job of jobs) store.jobs.requeue(job.id, now, { anyway });
      });
      touched(jobs);
      ctx.wake();
      return { changed: jobs.length };
    },
    async topUp({ ids }) {
      const asked = { prompts: 0, images: 0 };
      const controls = ctx.controls();
      const jobs = subject('top-up', ids);
      for (const job of jobs) {
        try {
          asked.images += controls.topUp(job.id).n;
          asked.prompts += 1;
        } catch (error) {
          // already topped up, or no longer short: nothing to ask for
          ctx.logger.info(`top-up of job ${job.id} skipped: ${(error as Error).message}`);
        }
      }
      touched(jobs);
      updated(jobs);
      ctx.wake();
      return asked;
    },
    async retryDownloads({ ids }) {
      const { images, ...report } = store.images.retryFailedDownloadsOfJobs(ids, ctx.now());
      if (report.queued > 0) retriedImages(ctx, images);
      return report;
    },
    async actionable({ ids }) {
      return countEligible(store.pages.jobFacts(ids), { engineHere: ctx.session.engine !== null });
    },
  };
}
