/** Why the whole queue paused: what the person must do before resuming depends on it. */
export const PAUSE_KINDS = [
  'auth',
  'permission',
  'balance',
  'rate-limit',
  'disk',
  'manual',
  'other',
] as const;

export type PauseKind = (typeof PAUSE_KINDS)[number];
