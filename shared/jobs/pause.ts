/** Why the whole queue paused: what the person must do before resuming depends on it. */
export const PAUSE_KINDS = [
  'auth',
  'permission',
  'balance',
  'rate-limit',
  'disk',
  /** A spending cap would be passed by the next request (see shared/spend/budget.ts). */
  'budget',
  'manual',
  'other',
] as const;

export type PauseKind = (typeof PAUSE_KINDS)[number];
