/**
 * What one image (or video) of a model costs, in the gateway's quota units: the person's own
 * price from the settings, else the catalogue's list price, else unknown. The estimate, the
 * confirmation, the budget and the spend so far all price with this one rule.
 */

export interface PriceSources {
  /** settings.prices: the person's prices, by model id. */
  prices: Readonly<Record<string, { perImage: number }>>;
  /** The catalogue's list price per model (null when it has none). */
  listPrice(model: string): number | null;
  /** Quota units to a currency (settings.currency), for money beside units. */
  currency: { code: string; perUnit: number } | null;
}

export interface ModelPrice {
  perImage: number;
  /** The person's settings, or the catalogue's list price. */
  from: 'settings' | 'catalogue';
}

export function priceOf(model: string, sources: PriceSources): ModelPrice | null {
  const own = sources.prices[model]?.perImage;
  if (own !== undefined) return { perImage: own, from: 'settings' };
  const list = sources.listPrice(model);
  return list === null ? null : { perImage: list, from: 'catalogue' };
}

/** Units in the settings' currency, or null when none is set. */
export function moneyOf(
  units: number,
  currency: PriceSources['currency'],
): { code: string; amount: number } | null {
  return currency ? { code: currency.code, amount: units * currency.perUnit } : null;
}
