import type { PauseKind } from '../../../shared/jobs/pause.ts';

/** What the person must do before `atelier resume`. */
export const PAUSE_FIX: Record<PauseKind, string> = {
  auth: 'Check the key in ATELIER_API_KEY (a gateway key, "sk-…"),',
  permission: 'Check which models this key may use in the gateway console,',
  balance: "Top up the account or raise the key's quota in the gateway console,",
  'rate-limit':
    'Wait until the gateway accepts requests again (a lower --concurrency or an --rpm cap ' +
    'sends fewer),',
  disk: 'Free disk space, or make the folder named above writable again,',
  budget:
    'Raise the cap (the budget in the settings, or a larger --max-spend), or choose to run ' +
    'anyway with "atelier resume --over-budget",',
  manual: 'When ready,',
  other: 'Fix the cause above,',
};
