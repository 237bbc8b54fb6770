/** The cost of a batch before it runs: images per model × the price per image. */
export interface EstimateLine {
  model: string;
  images: number;
  /** Quota units per image; null when no price is known. */
  perImage: number | null;
  /** Where the price comes from: the person's settings, or the catalogue's list price. */
  from: 'settings' | 'catalogue' | null;
  cost: number | null;
}

export interface Estimate {
  lines: EstimateLine[];
  images: number;
  /** Quota units for the models with a price. */
  total: number;
  /** Models with no known price: the total leaves them out. */
  unknown: string[];
  /** The total in money, when settings give a currency. */
  money: { code: string; amount: number } | null;
}

export interface PriceSources {
  /** settings.prices: the person's prices, by model id. */
  prices: Readonly<Record<string, { perImage: number }>>;
  /** The catalogue's list price per model (null when it has none). */
  listPrice(model: string): number | null;
  currency: { code: string; perUnit: number } | null;
}

export function estimate(
  imagesByModel: Readonly<Record<string, number>>,
  sources: PriceSources,
): Estimate {
  const lines = Object.entries(imagesByModel)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([model, images]): EstimateLine => {
      const own = sources.prices[model]?.perImage;
      const list = own === undefined ? sources.listPrice(model) : null;
      const perImage = own ?? list;
      return {
        model,
        images,
        perImage,
        from: own !== undefined ? 'settings' : list !== null ? 'catalogue' : null,
        cost: perImage === null ? null : perImage * images,
      };
    });
  const total = lines.reduce((sum, line) => sum + (line.cost ?? 0), 0);
  const { currency } = sources;
  return {
    lines,
    images: lines.reduce((sum, line) => sum + line.images, 0),
    total,
    unknown: lines.filter((line) => line.perImage === null).map((line) => line.model),
    money: currency ? { code: currency.code, amount: total * currency.perUnit } : null,
  };
}

// one way to write spend in every host: a small amount is never "$0.00"
export { formatMoney, formatUnits } from '../../../../shared/spend/money.ts';
