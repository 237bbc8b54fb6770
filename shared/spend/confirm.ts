import type { SpendEstimate } from './estimate.ts';
import { formatSpend } from './money.ts';

/** Above either of these a batch is started only once the person confirmed its spend. */
export interface ConfirmThreshold {
  /** Quota units; null: never asked for units. */
  units: number | null;
  /** Requests sent (one per prompt row); null: never asked for a count. */
  requests: number | null;
}

/** About $1 at the usual 500,000 units a dollar, and a batch larger than a glance. */
export const DEFAULT_CONFIRM_THRESHOLD: ConfirmThreshold = { units: 500_000, requests: 500 };

/** What the person confirmed: the estimate they were shown. */
export interface ConfirmedSpend {
  units: number;
  requests: number;
}

export interface Confirmation {
  needed: boolean;
  /** Why, in a sentence, when it is needed. */
  reason: string | null;
}

/** Whether starting work of this estimate needs the person's confirmation, and why. */
export function confirmationFor(
  estimate: SpendEstimate,
  threshold: ConfirmThreshold,
): Confirmation {
  const overUnits = threshold.units !== null && estimate.units > threshold.units;
  const overRequests = threshold.requests !== null && estimate.requests > threshold.requests;
  if (!overUnits && !overRequests) return { needed: false, reason: null };
  const requests = `${estimate.requests.toLocaleString('en-US')} request${estimate.requests === 1 ? '' : 's'}`;
  const spend = formatSpend(estimate.units, estimate.money);
  const unknown =
    estimate.unpriced.length > 0 ? ` plus ${estimate.unpriced.join(', ')} at an unknown price` : '';
  const over = [
    overUnits ? `more than ${formatSpend(threshold.units!, null)}` : null,
    overRequests ? `more than ${threshold.requests!.toLocaleString('en-US')} requests` : null,
  ]
    .filter(Boolean)
    .join(' and ');
  return {
    needed: true,
    reason: `This sends ${requests} and spends about ${spend}${unknown}: ${over} need your confirmation.`,
  };
}

/**
 * Whether what the person confirmed covers the estimate now: as much or more of both (the
 * file or the prices may have changed since they saw it; then they must see it again).
 */
export function confirmationCovers(
  confirmed: ConfirmedSpend | undefined,
  estimate: SpendEstimate,
): boolean {
  if (!confirmed) return false;
  // (units are sums of prices: a rounding of the last digit is the same estimate)
  return (
    confirmed.requests >= estimate.requests &&
    confirmed.units >= estimate.units - Math.max(1e-6, estimate.units * 1e-9)
  );
}
