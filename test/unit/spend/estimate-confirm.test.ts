import { describe, expect, it } from 'vitest';
import {
  confirmationCovers,
  confirmationFor,
  DEFAULT_CONFIRM_THRESHOLD,
} from '../../../shared/spend/confirm.ts';
import { estimateSpend } from '../../../shared/spend/estimate.ts';
import { priceOf, type PriceSources } from '../../../shared/spend/prices.ts';

const listPrices: Record<string, number> = { 'gpt-image-1': 4000, 'flux-schnell': 300 };
const sources: PriceSources = {
  prices: { 'flux-schnell': { perImage: 250 } },
  listPrice: (model) => listPrices[model] ?? null,
  currency: { code: 'USD', perUnit: 0.000002 },
};

describe('prices and the estimate', () => {
  it("prefers the person's price, then the list price", () => {
    expect(priceOf('flux-schnell', sources)).toEqual({ perImage: 250, from: 'settings' });
    expect(priceOf('gpt-image-1', sources)).toEqual({ perImage: 4000, from: 'catalogue' });
    expect(priceOf('mystery', sources)).toBeNull();
  });

  it('counts requests, images, units and money; unknown prices listed apart', () => {
    const estimate = estimateSpend(
      {
        'gpt-image-1': { jobs: 10_000, images: 10_000 },
        mystery: { jobs: 2, images: 4 },
      },
      sources,
    );
    expect(estimate).toMatchObject({
      requests: 10_002,
      images: 10_004,
      units: 40_000_000,
      unpriced: ['mystery'],
      money: { code: 'USD', amount: expect.closeTo(80, 6) },
    });
    expect(estimate.lines[1]).toEqual({
      model: 'mystery',
      requests: 2,
      images: 4,
      perImage: null,
      from: null,
      units: null,
    });
  });
});

describe('the confirmation', () => {
  const big = estimateSpend({ 'gpt-image-1': { jobs: 10_000, images: 10_000 } }, sources);
  const small = estimateSpend({ 'flux-schnell': { jobs: 4, images: 4 } }, sources);

  it('is needed above the threshold, and says what will be spent and why', () => {
    const confirmation = confirmationFor(big, DEFAULT_CONFIRM_THRESHOLD);
    expect(confirmation.needed).toBe(true);
    expect(confirmation.reason).toBe(
      'This sends 10,000 requests and spends about 40,000,000 quota units (≈ $80.00): more ' +
        'than 500,000 quota units and more than 500 requests need your confirmation.',
    );
    expect(confirmationFor(small, DEFAULT_CONFIRM_THRESHOLD)).toEqual({
      needed: false,
      reason: null,
    });
  });

  it('counts requests when no price is known', () => {
    const unknown = estimateSpend({ mystery: { jobs: 600, images: 600 } }, sources);
    const confirmation = confirmationFor(unknown, DEFAULT_CONFIRM_THRESHOLD);
    expect(confirmation.needed).toBe(true);
    expect(confirmation.reason).toContain('plus mystery at an unknown price');
    expect(confirmationFor(unknown, { units: null, requests: null }).needed).toBe(false);
  });

  it('is covered only by a confirmation of as much or more', () => {
    expect(confirmationCovers(undefined, big)).toBe(false);
    expect(confirmationCovers({ units: 40_000_000, requests: 10_000 }, big)).toBe(true);
    expect(confirmationCovers({ units: 39_999_000, requests: 10_000 }, big)).toBe(false);
    expect(confirmationCovers({ units: 40_000_000, requests: 9_999 }, big)).toBe(false);
  });
});
