import { describe, expect, it } from 'vitest';
import { retryAfterMs } from '../../../main/core/gateway/classify/retry-after.ts';

const NOW = Date.parse('2026-11-22T10:00:00Z');
const CAP = 60_000;

describe('retryAfterMs', () => {
  it.each([
    ['seconds', { 'Retry-After': '3' }, 3000],
    ['fractional seconds', { 'Retry-After': '1.5' }, 1500],
    ['zero', { 'Retry-After': '0' }, 0],
    ['an HTTP date', { 'Retry-After': 'Sun, 22 Nov 2026 10:00:10 GMT' }, 10_000],
    ['an HTTP date in the past', { 'Retry-After': 'Sun, 22 Nov 2026 09:00:00 GMT' }, 0],
    ['retry-after-ms', { 'retry-after-ms': '250' }, 250],
    ['retry-after-ms over Retry-After', { 'retry-after-ms': '250', 'Retry-After': '9' }, 250],
    ['a bad retry-after-ms falls back', { 'retry-after-ms': 'soon', 'Retry-After': '2' }, 2000],
    ['capped', { 'Retry-After': '3600' }, CAP],
    ['nonsense', { 'Retry-After': 'later' }, null],
    ['negative', { 'Retry-After': '-5' }, null],
    ['nothing', {}, null],
  ])('%s', (_, headers, expected) => {
    expect(retryAfterMs(headers, NOW, CAP)).toBe(expected);
  });

  it('reads a Headers object, whatever the case', () => {
    expect(retryAfterMs(new Headers({ 'RETRY-AFTER': '4' }), NOW, CAP)).toBe(4000);
  });
});
