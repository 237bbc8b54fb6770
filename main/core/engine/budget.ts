import {
  budgetPauseReason,
  capPassed,
  type BudgetScope,
  type BudgetStop,
  type CapStanding,
} from '../../../shared/spend/budget.ts';
import { moneyOf } from '../../../shared/spend/prices.ts';
import { localDate } from '../store/gallery-runs.ts';
import type { SpendTotals } from '../store/spend-repository.ts';
import type { Store } from '../store/store.ts';

/** The caps in quota units; null: none. */
export interface BudgetCaps {
  /** One command's own cap (the CLI's --max-spend), counted from the engine's start. */
  run: number | null;
  perBatch: number | null;
  perDay: number | null;
  /** Today's cap for the gateway the queue sends to. */
  gatewayDay: number | null;
}

export interface BudgetRules {
  caps: BudgetCaps;
  /** The gateway the queue sends to: a profile's name, or `demo`. */
  gateway: string;
  /** For money beside units in the pause's reason. */
  currency: { code: string; perUnit: number } | null;
}

/** What a budget pause says and keeps. */
export interface BudgetPause {
  reason: string;
  code: string;
  stop: BudgetStop;
}

const spentOf = (totals: SpendTotals) => totals.units + totals.uncertainUnits;

/**
 * The queue's spending caps (see shared/spend/budget.ts). Before each claim the scheduler asks
 * `open`; the claim then admits job after job while none would pass a cap, counting each
 * admitted job's estimated cost as in flight, and stops at the first that would. Nothing is
 * read when no cap is set.
 */
export class BudgetKeeper {
  private readonly store: Store;
  private rules: BudgetRules | null;
  /** Everything spent when the run began: its cap counts from here. */
  private runBaseline = 0;

  constructor(store: Store, rules: BudgetRules | null) {
    this.store = store;
    this.rules = rules;
  }

  set(rules: BudgetRules | null): void {
    const runChanged = rules?.caps.run !== this.rules?.caps.run;
    this.rules = rules;
    if (runChanged) this.startRun();
  }

  /** At the engine's start (after a crash's leftovers are settled): the run counts from now. */
  startRun(): void {
    if (this.rules?.caps.run != null) this.runBaseline = this.store.spend.grandTotal();
  }

  /** One claim's budget, or null when no cap is set. Call inside the claim's transaction. */
  open(now: number): ClaimBudget | null {
    const rules = this.rules;
    if (!rules || Object.values(rules.caps).every((cap) => cap === null)) return null;
    return new ClaimBudget(this.store, rules, now, this.runBaseline);
  }

  /**
   * Whether the cap a budget pause stopped before would still stop the same request now (the
   * caps, the spend or the "run anyway" may have changed since). Reads; changes nothing.
   */
  stillStops(stop: BudgetStop, now: number): boolean {
    if (!this.rules) return false;
    const budget = new ClaimBudget(this.store, this.rules, now, this.runBaseline);
    return budget.wouldStop(stop);
  }
}

/** One claim's view of the caps: what was spent, what is in flight, and the jobs it admits. */
export class ClaimBudget {
  private readonly store: Store;
  private readonly rules: BudgetRules;
  private readonly day: string;
  private readonly runBaseline: number;
  private readonly overridden: Set<string>;
  private readonly inFlightByBatch: Map<number, number>;
  private inFlightTotal: number;
  private dayStanding: number | null = null;
  private gatewayStanding: number | null = null;
  private readonly batchSpent = new Map<number, number>();
  /** The cap the claim stopped before, once one would be passed. */
  stop: BudgetStop | null = null;

  constructor(store: Store, rules: BudgetRules, now: number, runBaseline: number) {
    this.store = store;
    this.rules = rules;
    this.day = localDate(now);
    this.runBaseline = runBaseline;
    this.overridden = new Set(store.spend.overrides().map((o) => `${o.scope}\n${o.key}`));
    this.inFlightByBatch = store.spend.inFlight();
    this.inFlightTotal = [...this.inFlightByBatch.values()].reduce((a, b) => a + b, 0);
  }

  /** Claims the job (true) unless its estimated cost would pass a cap; then stops (false). */
  admit(jobId: number): boolean {
    if (this.stop) return false;
    const cost = this.store.spend.jobCost(jobId);
    if (!cost || cost.units <= 0) return true;
    const stop = capPassed(this.standings(cost.batchId), cost.units);
    if (stop) {
      this.stop = stop;
      return false;
    }
    this.inFlightByBatch.set(
      cost.batchId,
      (this.inFlightByBatch.get(cost.batchId) ?? 0) + cost.units,
    );
    this.inFlightTotal += cost.units;
    return true;
  }

  /** Whether the request `stop` describes would pass the same cap now. */
  wouldStop(stop: BudgetStop): boolean {
    const batchId = stop.scope === 'batch' ? Number(stop.key) : null;
    const standing = this.standings(batchId).find(
      (s) => s.scope === stop.scope && s.key === stop.key,
    );
    return standing !== undefined && capPassed([standing], stop.cost) !== null;
  }

  /** The caps that apply to a job of this batch, as they stand, minus those run past. */
  private standings(batchId: number | null): CapStanding[] {
    const { caps, gateway } = this.rules;
    const standings: CapStanding[] = [];
    const add = (
      scope: BudgetScope,
      key: string,
      label: string | null,
      cap: number | null,
      spent: () => number,
      inFlight: number,
    ) => {
      if (cap === null || this.overridden.has(`${scope}\n${key}`)) return;
      standings.push({ scope, key, label, cap, spent: spent(), inFlight });
    };
    add(
      'run',
      'run',
      null,
      caps.run,
      () => this.store.spend.grandTotal() - this.runBaseline,
      this.inFlightTotal,
    );
    if (batchId !== null) {
      add(
        'batch',
        String(batchId),
        this.store.batches.get(batchId)?.name ?? null,
        caps.perBatch,
        () => this.spentOnBatch(batchId),
        this.inFlightByBatch.get(batchId) ?? 0,
      );
    }
    add(
      'day',
      this.day,
      null,
      caps.perDay,
      () => (this.dayStanding ??= spentOf(this.todayTotals())),
      this.inFlightTotal,
    );
    add(
      'gateway-day',
      `${gateway}|${this.day}`,
      gateway,
      caps.gatewayDay,
      () => (this.gatewayStanding ??= spentOf(this.todayTotals(gateway))),
      this.inFlightTotal,
    );
    return standings;
  }

  private spentOnBatch(batchId: number): number {
    let spent = this.batchSpent.get(batchId);
    if (spent === undefined) {
      spent = spentOf(this.store.spend.totals({ batchId }));
      this.batchSpent.set(batchId, spent);
    }
    return spent;
  }

  private todayTotals(gateway?: string): SpendTotals {
    return this.store.spend.totals({
      fromDay: this.day,
      toDay: this.day,
      ...(gateway === undefined ? {} : { gateway }),
    });
  }

  /** The pause this claim's stop makes: its reason (units and money), code and detail. */
  pause(): BudgetPause | null {
    const stop = this.stop;
    if (!stop) return null;
    const reason = budgetPauseReason(stop, (units) => moneyOf(units, this.rules.currency));
    return { reason, code: `budget-${stop.scope}`, stop };
  }
}
