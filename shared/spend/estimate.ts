import { moneyOf, priceOf, type PriceSources } from './prices.ts';

/** One model's part of a batch's cost before it runs. */
export interface EstimateLine {
  model: string;
  /** Requests it sends (one per prompt row). */
  requests: number;
  images: number;
  /** Quota units per image; null when no price is known. */
  perImage: number | null;
  from: 'settings' | 'catalogue' | null;
  /** images × perImage; null when no price is known. */
  units: number | null;
}

/** What a batch will spend: quota units (and money), and how many requests go out. */
export interface SpendEstimate {
  lines: EstimateLine[];
  requests: number;
  images: number;
  /** Quota units for the models with a price. */
  units: number;
  /** Models with no known price: `units` leaves them out. */
  unpriced: string[];
  money: { code: string; amount: number } | null;
}

/** The cost of jobs and images per model, priced by `priceOf`. */
export function estimateSpend(
  byModel: Readonly<Record<string, { jobs: number; images: number }>>,
  sources: PriceSources,
): SpendEstimate {
  const lines = Object.entries(byModel)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([model, { jobs, images }]): EstimateLine => {
      const price = priceOf(model, sources);
      return {
        model,
        requests: jobs,
        images,
        perImage: price?.perImage ?? null,
        from: price?.from ?? null,
        units: price === null ? null : price.perImage * images,
      };
    });
  const units = lines.reduce((sum, line) => sum + (line.units ?? 0), 0);
  return {
    lines,
    requests: lines.reduce((sum, line) => sum + line.requests, 0),
    images: lines.reduce((sum, line) => sum + line.images, 0),
    units,
    unpriced: lines.filter((line) => line.perImage === null).map((line) => line.model),
    money: moneyOf(units, sources.currency),
  };
}
