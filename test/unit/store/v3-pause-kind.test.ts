import { describe, expect, it } from 'vitest';
import { guessPauseKind } from '../../../main/core/store/schema/v3-pause-kind.ts';

describe('guessPauseKind (the v3 backfill)', () => {
  it('reads the kind from gateway codes and engine kinds', () => {
    expect(guessPauseKind('invalid_api_key')).toBe('auth');
    expect(guessPauseKind('api_key_expired')).toBe('auth');
    expect(guessPauseKind('auth')).toBe('auth');
    expect(guessPauseKind('model_not_allowed')).toBe('permission');
    expect(guessPauseKind('insufficient_user_quota')).toBe('balance');
    expect(guessPauseKind('pre_consume_token_quota_failed')).toBe('balance');
    expect(guessPauseKind('disk-full')).toBe('disk');
    expect(guessPauseKind('unwritable')).toBe('disk');
    expect(guessPauseKind('io')).toBe('disk');
    expect(guessPauseKind('data-folder-full')).toBe('disk');
    expect(guessPauseKind('data-folder-read-only')).toBe('disk');
    expect(guessPauseKind('manual')).toBe('manual');
    expect(guessPauseKind('rate-limit')).toBe('rate-limit');
    // a gateway's own rate-limit code is not the engine's pause
    expect(guessPauseKind('rate_limit_exceeded')).toBe('other');
    expect(guessPauseKind(null)).toBe('other');
  });
});
