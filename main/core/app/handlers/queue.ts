import type { Handlers } from '../../../../shared/api/types.ts';
import type { AppContext } from '../app-context.ts';
import { allowBudgetResume } from '../budget-pause.ts';
import { idleProgress, liveProgress, pauseOf, withBudget } from '../progress-view.ts';
import { retryWork } from '../retry-work.ts';

export function queueHandlers(ctx: AppContext): Handlers['queue'] {
  const { store, session } = ctx;
  const sources = () => ({ store, settings: ctx.settings.read(), now: ctx.now() });
  const limits = () => {
    const engine = session.engine;
    if (engine) return engine.limits();
    const settings = ctx.settings.read();
    return {
      concurrency: settings.concurrency,
      current: 0,
      requestsPerMinute: settings.requestsPerMinute,
    };
  };

  return {
    async state() {
      const engine = session.engine;
      const runner = store.queue.runner();
      return {
        paused: pauseOf(store),
        engine: session.state,
        runner: engine || !runner ? null : { pid: runner.pid, host: runner.host },
        problem: session.problem,
        limits: limits(),
        progress: engine ? liveProgress(engine.progress(), sources()) : idleProgress(sources()),
      };
    },
    async pause({ reason }) {
      const why = reason ?? 'Paused.';
      const engine = session.engine;
      // the engine announces its own pause; with none, say it only if this paused it
      if (engine) engine.pause(why, 'manual', 'manual');
      else if (ctx.writes.pause(why, 'manual', 'manual')) {
        ctx.hub.send({
          type: 'queue.paused',
          payload: withBudget({ reason: why, code: 'manual', kind: 'manual' }, store),
        });
      }
      return null;
    },
    async resume({ overBudget }) {
      allowBudgetResume(ctx, overBudget);
      ctx.controls().resume();
      ctx.hub.send({ type: 'queue.resumed', payload: {} });
      // a queue that could not start (no key, another Atelier held it) tries again now
      if (session.state === 'stopped') await ctx.startQueue();
      ctx.wake();
      return null;
    },
    async setLimits({ concurrency, requestsPerMinute }) {
      const settings = ctx.settings.read();
      ctx.settings.write({
        ...settings,
        ...(concurrency !== undefined ? { concurrency } : {}),
        ...(requestsPerMinute !== undefined ? { requestsPerMinute } : {}),
      });
      // the running pool follows at once; the settings keep them for the next start
      session.engine?.setLimits({
        ...(concurrency !== undefined ? { concurrency } : {}),
        ...(requestsPerMinute !== undefined ? { requestsPerMinute } : {}),
      });
      const now = limits();
      ctx.hub.send({ type: 'limits.changed', payload: now });
      return now;
    },
    async cancelAll() {
      const canceled = ctx.controls().cancelAll();
      ctx.hub.notify();
      return { canceled };
    },
    async retry(what) {
      const { regenerated, ...report } = retryWork(ctx.controls(), store, what);
      const batches = what.batchId === undefined ? store.pages.openBatches() : [what.batchId];
      ctx.hub.reopen(batches);
      // which images waits again is not told: every image of those batches may have changed
      if (report.downloads > 0) ctx.hub.imagesChanged([], batches);
      ctx.wake();
      const topUps = {
        prompts: report.topUps.prompts + regenerated.prompts,
        images: report.topUps.images + regenerated.images,
      };
      return { ...report, topUps };
    },
  };
}
