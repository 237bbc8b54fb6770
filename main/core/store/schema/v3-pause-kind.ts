import type { PauseKind } from '../../../../shared/jobs/pause.ts';

/**
 * Before v3 only the pause's code was stored (the gateway's `invalid_api_key`,
 * `insufficient_user_quota`… or the engine's own); this reads the kind back from it, once,
 * for databases paused by an older Atelier. New pauses store their kind.
 */
export function guessPauseKind(code: string | null): PauseKind {
  const c = (code ?? '').toLowerCase();
  if (c === 'manual') return 'manual';
  if (c === 'rate-limit') return 'rate-limit';
  if (/quota|balance|credit|billing|payment/.test(c)) return 'balance';
  if (/permission|not_allowed|forbidden|access/.test(c)) return 'permission';
  if (/auth|key|token|401/.test(c)) return 'auth';
  if (c === 'disk-full' || c === 'unwritable' || c === 'io' || c.startsWith('data-folder-')) {
    return 'disk';
  }
  return 'other';
}
