import { describe, expect, it } from 'vitest';
import { countEligible, eligible, type JobFacts } from '../../../shared/jobs/eligibility.ts';

const job = (patch: Partial<JobFacts> = {}): JobFacts => ({
  state: 'queued',
  paused: false,
  failureKind: null,
  n: 1,
  returnedN: null,
  notImages: 0,
  failedDownloads: 0,
  toppedUp: false,
  ...patch,
});
const here = { engineHere: true };

describe('the job action table', () => {
  it('offers a never-sent job moving, holding and canceling; never a retry or a top-up', () => {
    const counts = countEligible([job(), job(), job({ paused: true })], here);
    expect(counts).toEqual({
      move: 3,
      hold: 2,
      release: 1,
      retry: 0,
      'retry-anyway': 0,
      'top-up': 0,
      'retry-downloads': 0,
      cancel: 3,
    });
  });

  it('sends again only what is safe, and the uncertain only with "anyway"', () => {
    expect(eligible('retry', job({ state: 'failed', failureKind: 'rejected' }), here)).toBe(true);
    expect(eligible('retry', job({ state: 'canceled' }), here)).toBe(true);
    expect(eligible('retry', job({ state: 'failed', failureKind: 'uncertain' }), here)).toBe(false);
    expect(eligible('retry-anyway', job({ state: 'failed', failureKind: 'uncertain' }), here)).toBe(
      true,
    );
    expect(eligible('retry-anyway', job({ state: 'failed', failureKind: 'auth' }), here)).toBe(
      false,
    );
  });

  it('tops up a short success once; cancels a running job only where it was sent', () => {
    const short = job({ state: 'succeeded', n: 4, returnedN: 2 });
    expect(eligible('top-up', short, here)).toBe(true);
    expect(eligible('top-up', { ...short, toppedUp: true }, here)).toBe(false);
    expect(eligible('top-up', job({ state: 'succeeded', n: 2, returnedN: 2 }), here)).toBe(false);
    expect(
      eligible('top-up', job({ state: 'succeeded', n: 2, returnedN: 2, notImages: 1 }), here),
    ).toBe(true);
    expect(eligible('cancel', job({ state: 'running' }), here)).toBe(true);
    expect(eligible('cancel', job({ state: 'running' }), { engineHere: false })).toBe(false);
    expect(eligible('cancel', job({ state: 'succeeded' }), here)).toBe(false);
  });
});
