import type { z } from 'zod';
import type {
  ConfirmedSpend,
  SpendCheck,
  SpendSummary,
  SpendTotals as SpendTotalsView,
} from '../../../shared/api/schemas/spend.ts';
import type { Catalogue } from '../../../shared/gateway/catalogue.ts';
import { confirmationCovers, confirmationFor } from '../../../shared/spend/confirm.ts';
import { estimateSpend } from '../../../shared/spend/estimate.ts';
import { moneyOf, type PriceSources } from '../../../shared/spend/prices.ts';
import type { BudgetRules } from '../engine/engine.ts';
import { localDate } from '../store/gallery-runs.ts';
import type { SpendTotals } from '../store/spend-repository.ts';
import type { Store } from '../store/store.ts';
import { AppError } from './app-error.ts';
import type { SettingsValue } from './settings-store.ts';

type SpendCheckValue = z.infer<typeof SpendCheck>;
type Totals = z.infer<typeof SpendTotalsView>;

/** The settings spend is priced and confirmed by. */
export type SpendSettings = Pick<SettingsValue, 'prices' | 'currency' | 'confirmSpend'>;

/** The settings' prices over the catalogue's list prices, and the currency. */
export function priceSources(settings: SpendSettings, catalogue: Catalogue): PriceSources {
  return {
    prices: settings.prices,
    listPrice: (model) => {
      const entry = catalogue.lookup(model);
      return entry.kind === 'image' ? entry.pricePerImage : null;
    },
    currency: settings.currency,
  };
}

/** Every price known now, by model: what the store's spend triggers and the budget read. */
export function pricesInForce(settings: SpendSettings, catalogue: Catalogue): Map<string, number> {
  const prices = new Map<string, number>();
  for (const entry of catalogue.entries()) {
    if (entry.kind === 'image' && entry.pricePerImage !== null) {
      prices.set(entry.id, entry.pricePerImage);
    }
  }
  for (const [model, { perImage }] of Object.entries(settings.prices)) prices.set(model, perImage);
  return prices;
}

/** The gateway the settings send to, as spend is counted against it: a profile's name or `demo`. */
export function gatewayName(settings: SettingsValue): string {
  return settings.gateway.kind === 'demo' ? 'demo' : settings.gateway.profile;
}

/** The caps the queue keeps, from the settings (and a run's own cap, the CLI's --max-spend). */
export function budgetRules(settings: SettingsValue, run: number | null = null): BudgetRules {
  const gateway = gatewayName(settings);
  return {
    caps: {
      run,
      perBatch: settings.budget.perBatch,
      perDay: settings.budget.perDay,
      gatewayDay: settings.budget.perGatewayDay[gateway] ?? null,
    },
    gateway,
    currency: settings.currency,
  };
}

/** What work of these jobs and images per model will spend, and whether it needs confirming. */
export function spendCheck(
  byModel: Readonly<Record<string, { jobs: number; images: number }>>,
  settings: SpendSettings,
  catalogue: Catalogue,
): SpendCheckValue {
  const estimate = estimateSpend(byModel, priceSources(settings, catalogue));
  const threshold = settings.confirmSpend;
  return { ...estimate, confirm: { ...confirmationFor(estimate, threshold), threshold } };
}

/**
 * Refuses to start work of these jobs and images past the confirmation threshold unless the
 * caller says the person confirmed at least its estimate (`confirmation-required`, the
 * estimate in details.spend). A confirmation that covers it is checked before the check is
 * worded: formatting its numbers loads ICU's data, some 10 ms of CPU at every CLI start.
 */
export function requireConfirmation(
  byModel: Readonly<Record<string, { jobs: number; images: number }>>,
  settings: SpendSettings,
  catalogue: Catalogue,
  confirmed: z.infer<typeof ConfirmedSpend> | undefined,
): void {
  if (
    confirmed &&
    confirmationCovers(confirmed, estimateSpend(byModel, priceSources(settings, catalogue)))
  ) {
    return;
  }
  const check = spendCheck(byModel, settings, catalogue);
  if (!check.confirm.needed) return;
  const seen = confirmed
    ? ' The spend confirmed is less than this estimate (the prompts or the prices changed): ' +
      'confirm the new one.'
    : ' Confirm it (confirmedSpend), or create the batch paused and resume it once confirmed.';
  throw new AppError('confirmation-required', `${check.confirm.reason}${seen}`, {
    spend: check,
  });
}

/** Store totals as the contract says them, with money where a currency is set. */
export function totalsView(totals: SpendTotals, settings: Pick<SettingsValue, 'currency'>): Totals {
  return { ...totals, money: moneyOf(totals.units, settings.currency) };
}

/** `spend.summary`: today, the last days, by model and gateway, a batch, and the caps. */
export function spendSummary(
  store: Store,
  settings: SettingsValue,
  input: { days: number; batchId?: number | undefined },
  now: number,
): z.infer<typeof SpendSummary> {
  const day = localDate(now);
  const fromDay = localDate(now - (input.days - 1) * 86_400_000);
  const period = { fromDay, toDay: day };
  const view = (totals: SpendTotals) => totalsView(totals, settings);
  const today = store.spend.totals({ fromDay: day, toDay: day });
  const gateway = gatewayName(settings);
  const gatewayToday = store.spend.totals({ fromDay: day, toDay: day, gateway });
  const standing = (cap: number | null, totals: SpendTotals) => {
    const spent = totals.units + totals.uncertainUnits;
    return { cap, spent, left: cap === null ? null : Math.max(0, cap - spent) };
  };
  return {
    currency: settings.currency,
    today: { day, ...view(today) },
    period: { ...period, ...view(store.spend.totals(period)) },
    days: store.spend.byDay(period).map(({ day: d, ...t }) => ({ day: d, ...view(t) })),
    models: store.spend.byModel(period).map(({ model, ...t }) => ({ model, ...view(t) })),
    gateways: store.spend.byGateway(period).map(({ gateway: g, ...t }) => ({
      gateway: g,
      ...view(t),
    })),
    batch:
      input.batchId === undefined
        ? null
        : { id: input.batchId, ...view(store.spend.totals({ batchId: input.batchId })) },
    budget: {
      gateway,
      perBatch: settings.budget.perBatch,
      today: standing(settings.budget.perDay, today),
      gatewayToday: standing(settings.budget.perGatewayDay[gateway] ?? null, gatewayToday),
    },
  };
}
