import { describe, expect, it } from 'vitest';
import {
  groupFailures,
  isRateLimitCode,
} from '../../../../renderer/src/screens/queue/failure-groups.ts';

const none = { failures: {}, downloadsFailed: 0, expiredLinks: 0, diskFull: 0 };

describe('failures grouped by what happened', () => {
  it('shows nothing when nothing failed', () => {
    expect(groupFailures(none)).toEqual([]);
  });

  it('keeps uncertain jobs apart, behind "retry anyway"', () => {
    const [group, ...rest] = groupFailures({ ...none, failures: { uncertain: 3 } });
    expect(rest).toEqual([]);
    expect(group).toMatchObject({ id: 'uncertain', count: 3, action: 'retry-anyway' });
    expect(group!.advice).toContain('may have finished and been charged');
  });

  it('splits exhausted retries into rate limited and server errors', () => {
    const groups = groupFailures({
      ...none,
      failures: { 'retries-exhausted': 5, 'empty-result': 1 },
      rateLimited: 2,
    });
    expect(groups.map((g) => [g.id, g.count, g.action])).toEqual([
      ['rate-limited', 2, 'retry-failed'],
      ['server', 4, 'retry-failed'],
    ]);
  });

  it('never counts more rate-limited jobs than exhausted ones', () => {
    const groups = groupFailures({ ...none, failures: { 'retries-exhausted': 1 }, rateLimited: 9 });
    expect(groups.map((g) => [g.id, g.count])).toEqual([['rate-limited', 1]]);
  });

  it('sends key and quota refusals to Settings, rejected ones to the list', () => {
    const groups = groupFailures({
      ...none,
      failures: { rejected: 4, auth: 1, balance: 2, internal: 1 },
    });
    expect(groups.map((g) => [g.id, g.count, g.action])).toEqual([
      ['rejected', 4, 'show-jobs'],
      ['account', 3, 'open-settings'],
      ['other', 1, 'show-jobs'],
    ]);
  });

  it('splits failed downloads into expired links, a full disk and the rest, each retried as a download', () => {
    const groups = groupFailures({ ...none, downloadsFailed: 10, expiredLinks: 3, diskFull: 4 });
    expect(groups.map((g) => [g.id, g.count, g.action])).toEqual([
      ['download-failed', 3, 'retry-downloads'],
      ['link-expired', 3, 'retry-downloads'],
      ['disk-full', 4, 'retry-downloads'],
    ]);
    expect(groups[0]!.advice).toContain('no new generation');
  });

  it('does not count a download twice when the sub-counts overlap the total', () => {
    const groups = groupFailures({ ...none, downloadsFailed: 2, expiredLinks: 2, diskFull: 2 });
    expect(groups.map((g) => [g.id, g.count])).toEqual([['link-expired', 2]]);
  });

  it('offers a top-up for jobs that returned fewer images than asked', () => {
    const groups = groupFailures({ ...none, partial: 3 });
    expect(groups.map((g) => [g.id, g.count, g.action])).toEqual([['partial', 3, 'top-up']]);
  });

  it('recognizes the codes a rate-limited job keeps', () => {
    expect(isRateLimitCode('rate_limit_exceeded')).toBe(true);
    expect(isRateLimitCode('rate-limited')).toBe(true);
    expect(isRateLimitCode('429')).toBe(true);
    expect(isRateLimitCode('server_error')).toBe(false);
    expect(isRateLimitCode(null)).toBe(false);
  });
});
