import { describe, expect, it } from 'vitest';
import { finishedSummary, type FinishedCounts } from '../../../shared/jobs/finished-summary.ts';

const jobs = { succeeded: 0, failed: 0, canceled: 0 };
const finished = (patch: Partial<FinishedCounts> = {}): FinishedCounts => ({
  name: 'Spring',
  jobs,
  failures: {},
  downloads: { failed: 0 },
  partial: 0,
  ...patch,
});

describe('finishedSummary', () => {
  it.each([
    [{ jobs: { ...jobs, succeeded: 1200 } }, '1,200 done', true],
    [
      { jobs: { ...jobs, succeeded: 120, failed: 3 }, failures: { uncertain: 2 } },
      '120 done, 3 failed (2 uncertain: may have been charged)',
      false,
    ],
    [{ jobs: { ...jobs, succeeded: 2, canceled: 4 } }, '2 done, 4 canceled', false],
    // the prompts were answered, the files never arrived: generated, not done
    [
      { jobs: { ...jobs, succeeded: 9 }, downloads: { failed: 1 } },
      '9 generated, 1 download failed',
      false,
    ],
    [
      { jobs: { ...jobs, succeeded: 2 }, downloads: { failed: 2 } },
      '2 generated, 2 downloads failed',
      false,
    ],
    [{ jobs: { ...jobs, succeeded: 9 }, partial: 3 }, '9 done, 3 images missing', false],
    [
      { jobs: { ...jobs, failed: 7 }, failures: { uncertain: 7 } },
      '0 done, 7 failed (7 uncertain: may have been charged)',
      false,
    ],
  ])('%o → %s', (patch, detail, ok) => {
    expect(finishedSummary(finished(patch))).toEqual({
      title: 'Batch “Spring” finished',
      detail,
      ok,
    });
  });

  it('says a batch canceled before anything was made was canceled, not finished', () => {
    expect(finishedSummary(finished({ jobs: { ...jobs, canceled: 20 } })).title).toBe(
      'Batch “Spring” was canceled',
    );
  });
});
