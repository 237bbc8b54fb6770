import { describe, expect, it } from 'vitest';
import {
  formatMoney,
  formatSpend,
  formatUnits,
  moneyDecimals,
} from '../../../shared/spend/money.ts';

describe('formatMoney', () => {
  it('never shows a small amount as nothing', () => {
    // 1,000 units at $0.000002 each: today's estimate said "$0.00"
    expect(formatMoney({ code: 'USD', amount: 1000 * 0.000002 })).toBe('$0.002');
    expect(formatMoney({ code: 'USD', amount: 0.0021234 })).toBe('$0.0021');
    expect(formatMoney({ code: 'USD', amount: 0.000002 })).toBe('$0.000002');
    expect(formatMoney({ code: 'EUR', amount: 0.00456 })).toBe('€0.0046');
  });

  it('keeps two significant digits under one unit of the currency, cents above', () => {
    expect(formatMoney({ code: 'USD', amount: 0.012 })).toBe('$0.012');
    expect(formatMoney({ code: 'USD', amount: 0.123 })).toBe('$0.12');
    expect(formatMoney({ code: 'USD', amount: 0.5 })).toBe('$0.50');
    expect(formatMoney({ code: 'USD', amount: 80 })).toBe('$80.00');
    expect(formatMoney({ code: 'USD', amount: 0.06 })).toBe('$0.06');
    expect(formatMoney({ code: 'USD', amount: 1234.5 })).toBe('$1,234.50');
    expect(formatMoney({ code: 'USD', amount: 0 })).toBe('$0.00');
  });

  it('writes the code after the amount when it is not a currency', () => {
    expect(formatMoney({ code: 'credits!', amount: 1 })).toBe('1.00 credits!');
    expect(formatMoney({ code: 'credits!', amount: 0.0003 })).toBe('0.0003 credits!');
  });

  it('needs two significant digits below one', () => {
    expect(moneyDecimals(0.5)).toBe(2);
    expect(moneyDecimals(0.012)).toBe(3);
    expect(moneyDecimals(0.002)).toBe(4);
    expect(moneyDecimals(0.000002)).toBe(7);
  });
});

describe('formatUnits and formatSpend', () => {
  it('groups whole units and keeps small fractions', () => {
    expect(formatUnits(40_000_000)).toBe('40,000,000');
    expect(formatUnits(0.5)).toBe('0.5');
    expect(formatUnits(0.001)).toBe('< 0.01');
    expect(formatUnits(0)).toBe('0');
  });

  it('says units, and money where a currency is set', () => {
    expect(formatSpend(1000, { code: 'USD', amount: 0.002 })).toBe('1,000 quota units (≈ $0.002)');
    expect(formatSpend(1, null)).toBe('1 quota unit');
  });
});
