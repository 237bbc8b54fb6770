import { describe, expect, it } from 'vitest';
import { API_ERROR_CODES, type ApiErrorCode } from '../../../shared/api/errors.ts';
import { failure, statusOf } from '../../../main/web/http-status.ts';

describe('statusOf', () => {
  it('gives every error code its status; the known failures of a valid call are 422', () => {
    const expected: Record<ApiErrorCode, number> = {
      'invalid-argument': 400,
      'key-invalid': 400,
      unauthorized: 401,
      forbidden: 403,
      'not-found': 404,
      conflict: 409,
      busy: 409,
      'library-busy': 409,
      internal: 500,
      'key-missing': 422,
      'encryption-unavailable': 422,
      'gateway-unreachable': 422,
      'gateway-error': 422,
      'settings-invalid': 422,
      'prompt-file': 422,
      'confirmation-required': 422,
      'store-version': 422,
      'store-damaged': 422,
      disk: 422,
      unsupported: 422,
    };
    for (const code of API_ERROR_CODES) {
      expect(statusOf(failure(code, 'x')), code).toBe(expected[code]);
    }
    expect(statusOf({ ok: true, value: null })).toBe(200);
  });

  it('builds failures in the contract shape, details only when given', () => {
    expect(failure('busy', 'm')).toEqual({ ok: false, error: { code: 'busy', message: 'm' } });
    expect(failure('busy', 'm', { a: 1 })).toEqual({
      ok: false,
      error: { code: 'busy', message: 'm', details: { a: 1 } },
    });
  });
});
