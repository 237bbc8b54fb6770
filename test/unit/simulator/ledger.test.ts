import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../main/simulator/http.ts';
import { KeyRing } from '../../../main/simulator/keys.ts';
import { Ledger } from '../../../main/simulator/ledger.ts';

function setup(balance = 10_000, quotaCap: number | null = null) {
  const keys = new KeyRing([{ key: 'sk-test', quotaCap }]);
  const key = keys.get('sk-test')!;
  return { ledger: new Ledger(balance), key };
}

describe('Ledger', () => {
  it('pre-deducts, then settles on what was delivered and gives back the rest', () => {
    const { ledger, key } = setup();
    const entry = ledger.preDeduct(key, 'r1', 'm', '/v1/images/generations', 4000);
    expect(ledger.balance).toBe(6000);
    expect(key.used).toBe(4000);
    ledger.settle(entry, 3000, 3);
    expect(entry).toMatchObject({ state: 'settled', charged: 3000, units: 3 });
    expect(ledger.balance).toBe(7000);
    expect(key.used).toBe(3000);
    expect(ledger.totalCharged()).toBe(3000);
  });

  it('refunds a pending entry in full, and reverses a settled one', () => {
    const { ledger, key } = setup();
    const pending = ledger.preDeduct(key, 'r1', 'm', 'e', 1000);
    ledger.refund(pending);
    expect(ledger.balance).toBe(10_000);
    const settled = ledger.preDeduct(key, 'r2', 'm', 'e', 1000);
    ledger.settle(settled, 1000, 1);
    ledger.refund(settled);
    expect(ledger.balance).toBe(10_000);
    expect(key.used).toBe(0);
    expect(ledger.totalCharged()).toBe(0);
    expect(ledger.find('r2')?.state).toBe('refunded');
  });

  it('refuses a call the account cannot pay with insufficient_user_quota', () => {
    const { ledger, key } = setup(500);
    const error = catchError(() => ledger.preDeduct(key, 'r', 'm', 'e', 501));
    expect(error).toMatchObject({ status: 403, code: 'insufficient_user_quota' });
    expect(ledger.balance).toBe(500);
    expect(ledger.entries()).toHaveLength(0);
  });

  it("refuses a call over the key's cap with pre_consume_token_quota_failed", () => {
    const { ledger, key } = setup(1e9, 1500);
    ledger.preDeduct(key, 'r1', 'm', 'e', 1000);
    const error = catchError(() => ledger.preDeduct(key, 'r2', 'm', 'e', 1000));
    expect(error).toMatchObject({ code: 'pre_consume_token_quota_failed' });
    expect(error.message).toMatch(/quota cap \(1500\)/);
  });
});

function catchError(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}
