import type { z } from 'zod';
import type { SpendTotals } from '../../../shared/api/schemas/spend.ts';
import { formatSpend, formatUnits } from '../../../shared/spend/money.ts';
import { plural } from '../format.ts';

export type Spent = z.infer<typeof SpendTotals>;

/**
 * What was spent, in a line: "9,000 quota units (≈ $0.018)", with what may have been charged
 * (no answer came) and the images (or `results`: a video batch's videos) of models with no
 * known price; null when nothing was.
 */
export function spentText(
  spent: Spent | undefined | null,
  results: { one: string; many: string } = { one: 'image', many: 'images' },
): string | null {
  if (!spent || (spent.results === 0 && spent.uncertain === 0)) return null;
  const parts = [formatSpend(spent.units, spent.money)];
  if (spent.uncertainUnits > 0) {
    parts.push(`up to ${formatUnits(spent.uncertainUnits)} more may have been charged`);
  } else if (spent.uncertain > 0) {
    parts.push(`${plural(spent.uncertain, results.one, results.many)} may have been charged`);
  }
  if (spent.unpriced > 0) {
    parts.push(`${plural(spent.unpriced, results.one, results.many)} at an unknown price`);
  }
  return parts.join(' + ');
}
