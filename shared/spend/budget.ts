import { formatSpend, type Money } from './money.ts';

/**
 * Spending caps, checked by the engine before each request: the queue pauses (kind `budget`)
 * before the request whose estimated cost would take what was spent past a cap.
 * - run: one command's own cap (the CLI's --max-spend); not kept.
 * - batch: each batch's spend (settings.budget.perBatch).
 * - day: everything spent today, in this process's local day (settings.budget.perDay).
 * - gateway-day: what one gateway profile spent today (settings.budget.perGatewayDay).
 */
export const BUDGET_SCOPES = ['run', 'batch', 'day', 'gateway-day'] as const;
export type BudgetScope = (typeof BUDGET_SCOPES)[number];

/** One cap as it stands when a request is about to leave. */
export interface CapStanding {
  scope: BudgetScope;
  /** What the cap is about: the batch's id, the day (YYYY-MM-DD), `profile|day`, the run. */
  key: string;
  /** For a person: the batch's name, the gateway's name. */
  label: string | null;
  cap: number;
  /** Spent so far in its scope (results, and what may have been charged). */
  spent: number;
  /** The estimated cost of the requests in flight in its scope. */
  inFlight: number;
}

/** The cap a request would pass: the standing and the request's estimated cost. */
export interface BudgetStop extends CapStanding {
  cost: number;
}

/**
 * The first cap that the next request would pass: spent + in flight + its cost above the cap.
 * A request with no known price (cost 0) passes no cap.
 */
export function capPassed(caps: readonly CapStanding[], cost: number): BudgetStop | null {
  if (cost <= 0) return null;
  for (const standing of caps) {
    if (standing.spent + standing.inFlight + cost > standing.cap) return { ...standing, cost };
  }
  return null;
}

/** The cap, what it is about, in a person's words. */
export function capName(stop: Pick<CapStanding, 'scope' | 'label' | 'key'>): string {
  switch (stop.scope) {
    case 'run':
      return "this run's cap";
    case 'batch':
      return `the cap of the batch "${stop.label ?? stop.key}"`;
    case 'day':
      return "today's cap";
    case 'gateway-day':
      return `today's cap for the gateway "${stop.label ?? stop.key}"`;
  }
}

/** Why the queue paused before a request, with what was spent and the cap. */
export function budgetPauseReason(
  stop: BudgetStop,
  money: (units: number) => Money | null,
): string {
  const say = (units: number) => formatSpend(units, money(units));
  const name = capName(stop);
  const inFlight = stop.inFlight > 0 ? ` (and ${say(stop.inFlight)} in flight)` : '';
  return (
    `The next request would pass ${name} of ${say(stop.cap)}: ${say(stop.spent)} spent so far` +
    `${inFlight}, and it costs about ${say(stop.cost)}. Nothing more is sent until the cap is ` +
    'raised or you choose to run anyway.'
  );
}
