import { z } from 'zod';
import { BUDGET_SCOPES } from '../../spend/budget.ts';
import { Count, Id, lazy } from '../define.ts';

/** Quota units (a sum of prices: fractions are allowed). */
const Units = z.number().nonnegative();

export const MoneySchema = lazy(() =>
  z.object({ code: z.string(), amount: z.number().nonnegative() }),
);

/**
 * What was spent in some scope: the results that came back priced at the price then, those of
 * models with no known price (counted, not priced), and the requests that may have been
 * charged (uncertain outcomes: what they asked for, priced).
 */
export const SpendTotals = lazy(() =>
  z.object({
    /** Images (or videos) that came back: what a partial success costs. */
    results: Count,
    units: Units,
    /** `units` in the settings' currency; null when none is set. */
    money: MoneySchema.nullable(),
    /** Results of models with no known price: not in `units`. */
    unpriced: Count,
    /** Images asked for by requests that may have been charged (504, a time-out after sending). */
    uncertain: Count,
    uncertainUnits: Units,
  }),
);

/** One model's part of an estimate. */
export const EstimateLine = lazy(() =>
  z.object({
    model: z.string(),
    requests: Count,
    images: Count,
    /** Quota units per image; null when no price is known. */
    perImage: Units.nullable(),
    /** Where the price comes from: the person's settings, or the catalogue's list price. */
    from: z.enum(['settings', 'catalogue']).nullable(),
    units: Units.nullable(),
  }),
);

/**
 * What starting the work will spend, and whether the person must confirm it first: the
 * service refuses to start work over the threshold unless the call carries `confirmedSpend`
 * of at least `units` and `requests`.
 */
export const SpendCheck = lazy(() =>
  z.object({
    requests: Count,
    images: Count,
    /** Quota units for the models with a price. */
    units: Units,
    money: MoneySchema.nullable(),
    /** Models with no known price: `units` leaves them out. */
    unpriced: z.array(z.string()),
    lines: z.array(EstimateLine),
    confirm: z.object({
      needed: z.boolean(),
      /** What the confirmation must say, in a sentence, when it is needed. */
      reason: z.string().nullable(),
      threshold: z.object({ units: Units.nullable(), requests: Count.nullable() }),
    }),
  }),
);

/** The estimate the person confirmed (echo `units` and `requests` of the check they saw). */
export const ConfirmedSpend = lazy(() => z.object({ units: Units, requests: Count }));

/** The cap a budget pause stopped before: what was spent, what was in flight, the next cost. */
export const BudgetStopSchema = lazy(() =>
  z.object({
    scope: z.enum(BUDGET_SCOPES),
    /** The batch's id, the day (YYYY-MM-DD), `gateway|day`, or `run`. */
    key: z.string(),
    /** The batch's or the gateway's name. */
    label: z.string().nullable(),
    cap: Units,
    spent: Units,
    inFlight: Units,
    cost: Units,
  }),
);

/** A cap as it stands today: what it allows, what was spent against it, what is left. */
export const CapStanding = lazy(() =>
  z.object({
    cap: Units.nullable(),
    spent: Units,
    /** null when there is no cap. */
    left: Units.nullable(),
  }),
);

export const SpendSummaryInput = lazy(() =>
  z
    .object({
      /** Days back from today (today included) the days, models and gateways cover. */
      days: z.number().int().min(1).max(366).default(30),
      /** Also this batch's totals. */
      batchId: Id.optional(),
    })
    .prefault({}),
);

export const SpendSummary = lazy(() =>
  z.object({
    currency: z.object({ code: z.string(), perUnit: z.number().positive() }).nullable(),
    /** Today, in the service's local time (YYYY-MM-DD). */
    today: SpendTotals.unwrap().extend({ day: z.string() }),
    /** The period asked for, oldest day first. */
    period: SpendTotals.unwrap().extend({ fromDay: z.string(), toDay: z.string() }),
    /** Each day of the period with spend, newest first. */
    days: z.array(SpendTotals.unwrap().extend({ day: z.string() })),
    models: z.array(SpendTotals.unwrap().extend({ model: z.string() })),
    /** By gateway (a profile's name, `demo`; empty when not known). */
    gateways: z.array(SpendTotals.unwrap().extend({ gateway: z.string() })),
    batch: SpendTotals.unwrap().extend({ id: Id }).nullable(),
    budget: z.object({
      /** The gateway the queue sends to now, whose day cap `gatewayToday` is. */
      gateway: z.string(),
      perBatch: Units.nullable(),
      today: CapStanding,
      gatewayToday: CapStanding,
    }),
  }),
);
