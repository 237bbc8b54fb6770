import { ApiError } from './http.ts';
import type { KeyState } from './keys.ts';

export type LedgerState = 'pending' | 'settled' | 'refunded';

/** One billed call: pre-deducted first, then settled on what was delivered, or refunded. */
export interface LedgerEntry {
  requestId: string;
  key: string;
  model: string;
  endpoint: string;
  preDeducted: number;
  charged: number;
  state: LedgerState;
  /** What was delivered: images, tokens or video seconds. */
  units: number;
  createdAt: number;
}

/**
 * Quota accounting as the interface describes it: pre-deduct, settle, refund.
 * Readable in-process so tests can assert exactly what was charged.
 */
export class Ledger {
  private readonly list: LedgerEntry[] = [];
  private readonly keyOf = new Map<LedgerEntry, KeyState>();
  /** The account's remaining quota (the "user quota"). */
  balance: number;

  constructor(balance: number) {
    this.balance = balance;
  }

  preDeduct(
    key: KeyState,
    requestId: string,
    model: string,
    endpoint: string,
    amount: number,
  ): LedgerEntry {
    if (amount > this.balance) {
      throw new ApiError(
        403,
        'new_api_error',
        'insufficient_user_quota',
        `Insufficient account balance: this call needs ${amount} quota and ${this.balance} remains. Top up in the console.`,
      );
    }
    const cap = key.config.quotaCap;
    if (cap != null && key.used + amount > cap) {
      throw new ApiError(
        403,
        'new_api_error',
        'pre_consume_token_quota_failed',
        `Pre-deduction failed: this key's quota cap (${cap}) would be exceeded (${key.used} used, ${amount} needed). Raise the key's cap in the console.`,
      );
    }
    this.balance -= amount;
    key.used += amount;
    const entry: LedgerEntry = {
      requestId,
      key: key.config.key,
      model,
      endpoint,
      preDeducted: amount,
      charged: 0,
      state: 'pending',
      units: 0,
      createdAt: Date.now(),
    };
    this.list.push(entry);
    this.keyOf.set(entry, key);
    return entry;
  }

  /** Charges `amount` for `units` delivered and gives back the rest of the pre-deduction. */
  settle(entry: LedgerEntry, amount: number, units: number): void {
    this.adjust(entry, amount);
    entry.units = units;
    entry.state = 'settled';
  }

  /** Nothing delivered: nothing charged. Also reverses a settled entry whose body never arrived. */
  refund(entry: LedgerEntry): void {
    this.adjust(entry, 0);
    entry.units = 0;
    entry.state = 'refunded';
  }

  entries(): readonly LedgerEntry[] {
    return this.list;
  }

  find(requestId: string): LedgerEntry | undefined {
    return this.list.find((entry) => entry.requestId === requestId);
  }

  /** Total finally charged, optionally for one key. */
  totalCharged(key?: string): number {
    return this.list.reduce(
      (sum, e) => sum + (key === undefined || e.key === key ? e.charged : 0),
      0,
    );
  }

  private adjust(entry: LedgerEntry, charged: number): void {
    const held = entry.state === 'pending' ? entry.preDeducted : entry.charged;
    const delta = held - charged;
    this.balance += delta;
    const key = this.keyOf.get(entry);
    if (key) key.used -= delta;
    entry.charged = charged;
  }
}
