/** Why the queue paused, in the words the summary and `--json` use. */
export type PauseKind =
  'auth' | 'permission' | 'balance' | 'rate-limit' | 'disk' | 'manual' | 'other';

/**
 * The engine records the gateway's error code (`invalid_api_key`, `insufficient_user_quota`…)
 * or the failure's kind when there is none; gateways differ in their codes, so this reads
 * them by what they mention.
 */
export function pauseKind(code: string | null): PauseKind {
  const c = (code ?? '').toLowerCase();
  if (c === 'manual') return 'manual';
  // the engine's own code (RATE_LIMIT_PAUSE_CODE): the gateway kept refusing with 429
  if (c === 'rate-limit') return 'rate-limit';
  if (/quota|balance|credit|billing|payment/.test(c)) return 'balance';
  if (/permission|not_allowed|forbidden|access/.test(c)) return 'permission';
  if (/auth|key|token|401/.test(c)) return 'auth';
  if (c === 'disk-full' || c === 'unwritable' || c === 'io' || c.startsWith('data-folder-')) {
    return 'disk';
  }
  return 'other';
}

/** What the person must do before `atelier resume`. */
export const PAUSE_FIX: Record<PauseKind, string> = {
  auth: 'Check the key in ATELIER_API_KEY (a gateway key, "sk-…"),',
  permission: 'Check which models this key may use in the gateway console,',
  balance: "Top up the account or raise the key's quota in the gateway console,",
  'rate-limit':
    'Wait until the gateway accepts requests again (a lower --concurrency or an --rpm cap ' +
    'sends fewer),',
  disk: 'Free disk space, or make the folder named above writable again,',
  manual: 'When ready,',
  other: 'Fix the cause above,',
};
