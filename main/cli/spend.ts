import { confirmationAsked, type SpendCheckValue } from '../../shared/api/spend-refusal.ts';
import { formatSpend } from '../../shared/spend/money.ts';
import { ConfigError, intFlag } from './command.ts';

/** What a command may spend: flags shared by run, edit, resume and retry. */
export const SPEND_FLAGS = {
  'max-spend': { type: 'string' },
  yes: { type: 'boolean' },
  'over-budget': { type: 'boolean' },
} as const;

export const SPEND_FLAGS_HELP = `  --max-spend UNITS  this command spends at most UNITS quota units: the queue pauses (budget)
                     before the request that would pass it, counting what is in flight.
                     The data folder's saved caps (per batch, per day, per gateway) apply too
  --yes              start a batch whose estimate passes the confirmation threshold (the
                     settings' confirmSpend; --max-spend confirms it as well)
  --over-budget      run anyway past the saved cap that paused the queue (that batch's, that
                     day's or that gateway's day's), as the app's "Run anyway"`;

export interface SpendFlagValues {
  'max-spend'?: string;
  yes?: boolean;
  'over-budget'?: boolean;
}

export interface SpendFlags {
  /** This command's own cap, in quota units; null: none. */
  maxSpend: number | null;
  /** The person confirmed a spend past the threshold. */
  yes: boolean;
  overBudget: boolean;
}

export function spendFlags(values: SpendFlagValues): SpendFlags {
  return {
    maxSpend: intFlag(values['max-spend'], '--max-spend', 1, Number.MAX_SAFE_INTEGER) ?? null,
    yes: values.yes ?? false,
    overBudget: values['over-budget'] ?? false,
  };
}

/**
 * The person's own command, so its flags are the confirmation: --yes, or --max-spend (the most
 * it may spend, named). Without either, work past the threshold is refused with the estimate.
 */
export function consentsTo(flags: SpendFlags): boolean {
  return flags.yes || flags.maxSpend !== null;
}

/** Why a command did not start work past the threshold, and what to add to it. */
export function confirmationRefusal(spend: SpendCheckValue): ConfigError {
  const unknown = spend.unpriced.length > 0 ? `, plus ${spend.unpriced.join(', ')} unpriced` : '';
  return new ConfigError(
    `Nothing was queued: ${spend.confirm.reason ?? 'the estimate needs a confirmation.'}\n` +
      `Estimate: ${spend.requests.toLocaleString('en-US')} request(s), about ` +
      `${formatSpend(spend.units, spend.money)}${unknown}. Add --yes to spend it, or ` +
      '--max-spend UNITS to cap what this command spends (the queue pauses before passing it).',
  );
}

/**
 * What --yes or --max-spend confirms: any estimate (the cap, if given, is what bounds the run).
 * Said up front, so a consented run is not read and estimated twice, once only to be refused.
 */
const ANY_ESTIMATE = { units: Number.MAX_SAFE_INTEGER, requests: Number.MAX_SAFE_INTEGER };

/**
 * Creates through `create`: confirmed whatever the estimate when the flags consent, else
 * refused with the estimate past the threshold.
 */
export async function createConfirmed<T>(
  flags: SpendFlags,
  create: (confirmedSpend?: { units: number; requests: number }) => Promise<T>,
): Promise<T> {
  if (consentsTo(flags)) return create(ANY_ESTIMATE);
  try {
    return await create();
  } catch (error) {
    const spend = confirmationAsked(error);
    throw spend ? confirmationRefusal(spend) : error;
  }
}
