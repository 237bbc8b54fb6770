import { describe, expect, it } from 'vitest';
import { estimate, formatMoney } from '../../../renderer/src/screens/compose/estimate.ts';

describe('the estimate', () => {
  const listPrices: Record<string, number> = { 'flux-schnell': 300 };
  const sources = {
    prices: { 'gpt-image-1': { perImage: 4000 } },
    listPrice: (model: string) => listPrices[model] ?? null,
    currency: null,
  };

  it('prices images per model from settings, else the catalogue; unknown prices listed', () => {
    const result = estimate({ 'gpt-image-1': 2, 'flux-schnell': 10, mystery: 5 }, sources);
    expect(result.lines).toEqual([
      { model: 'flux-schnell', images: 10, perImage: 300, from: 'catalogue', cost: 3000 },
      { model: 'gpt-image-1', images: 2, perImage: 4000, from: 'settings', cost: 8000 },
      { model: 'mystery', images: 5, perImage: null, from: null, cost: null },
    ]);
    expect(result.total).toBe(11000);
    expect(result.images).toBe(17);
    expect(result.unknown).toEqual(['mystery']);
    expect(result.money).toBeNull();
  });

  it('converts to money when settings give a currency', () => {
    const result = estimate(
      { 'flux-schnell': 100 },
      {
        ...sources,
        currency: { code: 'USD', perUnit: 0.000002 },
      },
    );
    expect(result.money).toEqual({ code: 'USD', amount: expect.closeTo(0.06, 6) });
    expect(formatMoney({ code: 'USD', amount: 0.06 })).toBe('$0.06');
    expect(formatMoney({ code: 'credits!', amount: 1 })).toBe('1.00 credits!');
  });

  it('never shows a small amount as nothing: 1,000 units at $0.000002 is $0.002', () => {
    const result = estimate(
      { 'flux-schnell': 1 },
      {
        prices: { 'flux-schnell': { perImage: 1000 } },
        listPrice: () => null,
        currency: { code: 'USD', perUnit: 0.000002 },
      },
    );
    expect(formatMoney(result.money!)).toBe('$0.002');
  });
});
