import type { BudgetStop } from '../../../shared/spend/budget.ts';
import { capName } from '../../../shared/spend/budget.ts';
import { BudgetKeeper } from '../engine/budget.ts';
import type { AppContext } from './app-context.ts';
import { AppError } from './app-error.ts';
import { budgetRules } from './spend.ts';

/** What the queue's budget pause stopped before, when it is paused on a budget. */
export function budgetStopOf(ctx: AppContext): BudgetStop | null {
  const queue = ctx.store.queue.get();
  return queue.paused && queue.pauseKind === 'budget'
    ? (queue.pauseDetail as BudgetStop | null)
    : null;
}

/**
 * Whether the cap would still stop that request now: by the running engine's caps, or by the
 * settings' when no engine runs here (another process's run cap is not this one's to keep).
 */
export function stillStops(ctx: AppContext, stop: BudgetStop): boolean {
  const engine = ctx.session.engine;
  if (engine) return engine.budgetStillStops(stop);
  return new BudgetKeeper(ctx.store, budgetRules(ctx.settings.read())).stillStops(stop, ctx.now());
}

/**
 * Before a resume: "run anyway" (`overBudget`) lets the queue past the cap that stopped it,
 * for its scope (that batch, that day, that gateway's day); without it, a cap that still
 * stops the next request refuses the resume, saying so.
 */
export function allowBudgetResume(ctx: AppContext, overBudget: boolean): void {
  const stop = budgetStopOf(ctx);
  if (!stop) return;
  if (overBudget) {
    // (a run's own cap ends with its run: nothing to keep)
    if (stop.scope !== 'run') ctx.store.spend.addOverride(stop.scope, stop.key, ctx.now());
    return;
  }
  if (stillStops(ctx, stop)) {
    throw new AppError(
      'conflict',
      `The next request would still pass ${capName(stop)}: raise the cap, or choose to run ` +
        'anyway (overBudget).',
      { budget: stop },
    );
  }
}

/**
 * After the caps changed: a budget pause whose cap no longer stops the queue lifts. (Not a run's
 * own cap: that run ended with it, and its pause waits for a person's resume.)
 */
export function resumeIfBudgetAllows(ctx: AppContext): boolean {
  const stop = budgetStopOf(ctx);
  if (!stop || stop.scope === 'run' || stillStops(ctx, stop)) return false;
  ctx.controls().resume();
  ctx.hub.send({ type: 'queue.resumed', payload: {} });
  ctx.wake();
  return true;
}
