import { describe, expect, it } from 'vitest';
import { exitCodeFor } from '../../../main/cli/run/exit-code.ts';
import { pauseKind } from '../../../main/cli/run/pause-kind.ts';
import { buildSummary, formatSummary, type SummaryInput } from '../../../main/cli/run/summary.ts';

function input(overrides: Partial<SummaryInput> = {}): SummaryInput {
  return {
    outcome: 'done',
    batch: { id: 3, name: 'Spring catalogue', dirName: 'spring-catalogue' },
    libraryDir: '/home/ada/atelier-library',
    jobs: { queued: 0, running: 0, retrying: 0, succeeded: 10, failed: 0, canceled: 0 },
    downloads: { pending: 0, downloading: 0, done: 12, failed: 0 },
    failures: {},
    stats: { requestsSent: 10, imagesWritten: 12, bytesWritten: 34_000 },
    wallTimeMs: 4_321,
    paused: null,
    ...overrides,
  };
}

const text = (summary: ReturnType<typeof buildSummary>, suffix = '') =>
  formatSummary(summary, { commandSuffix: suffix, failedExamples: [] });

describe('buildSummary', () => {
  it('holds what --json promises: counts per state, images, failed downloads, requests, wall time', () => {
    expect(buildSummary(input())).toEqual({
      outcome: 'done',
      exitCode: 0,
      batch: {
        id: 3,
        name: 'Spring catalogue',
        folder: '/home/ada/atelier-library/spring-catalogue',
      },
      library: '/home/ada/atelier-library',
      jobs: {
        queued: 0,
        running: 0,
        retrying: 0,
        succeeded: 10,
        failed: 0,
        canceled: 0,
        total: 10,
      },
      failures: {},
      images: { written: 12, onDisk: 12, failedDownloads: 0, pendingDownloads: 0 },
      requestsSent: 10,
      bytesWritten: 34_000,
      wallTimeMs: 4_321,
      paused: null,
    });
  });

  it('names the kind of a pause (auth, balance…) and drops a pause once all is done', () => {
    const paused = buildSummary(
      input({
        outcome: 'paused',
        paused: { reason: 'Insufficient balance.', code: 'insufficient_user_quota' },
      }),
    );
    expect(paused.paused).toEqual({
      reason: 'Insufficient balance.',
      code: 'insufficient_user_quota',
      kind: 'balance',
    });
    expect(buildSummary(input({ paused: { reason: 'x', code: 'manual' } })).paused).toBeNull();
  });
});

describe('exitCodeFor', () => {
  const counts = input().jobs;
  const images = { written: 1, onDisk: 1, failedDownloads: 0, pendingDownloads: 0 };
  it('is 0 only when every prompt succeeded and every image is on disk', () => {
    expect(exitCodeFor({ outcome: 'done', jobs: counts, images })).toBe(0);
  });
  it('is 1 for failed prompts, failed or unfinished downloads, unfinished prompts and pauses', () => {
    expect(exitCodeFor({ outcome: 'done', jobs: { ...counts, failed: 1 }, images })).toBe(1);
    expect(
      exitCodeFor({ outcome: 'done', jobs: counts, images: { ...images, failedDownloads: 1 } }),
    ).toBe(1);
    expect(
      exitCodeFor({ outcome: 'done', jobs: counts, images: { ...images, pendingDownloads: 1 } }),
    ).toBe(1);
    expect(exitCodeFor({ outcome: 'done', jobs: { ...counts, queued: 2 }, images })).toBe(1);
    expect(exitCodeFor({ outcome: 'paused', jobs: counts, images })).toBe(1);
  });
  it('is 130 after Ctrl+C, as a shell reports an interrupted command', () => {
    expect(exitCodeFor({ outcome: 'interrupted', jobs: counts, images })).toBe(130);
  });
});

describe('pauseKind', () => {
  it('reads the kind from gateway codes and engine kinds', () => {
    expect(pauseKind('invalid_api_key')).toBe('auth');
    expect(pauseKind('api_key_expired')).toBe('auth');
    expect(pauseKind('auth')).toBe('auth');
    expect(pauseKind('model_not_allowed')).toBe('permission');
    expect(pauseKind('insufficient_user_quota')).toBe('balance');
    expect(pauseKind('pre_consume_token_quota_failed')).toBe('balance');
    expect(pauseKind('disk-full')).toBe('disk');
    expect(pauseKind('manual')).toBe('manual');
    expect(pauseKind(null)).toBe('other');
  });
});

describe('formatSummary', () => {
  it('says where the images are when all went well', () => {
    const out = text(buildSummary(input()));
    expect(out).toContain('Done in 4.3 s: all 10 prompts succeeded, 12 images written.');
    expect(out).toContain('Images:  12 in /home/ada/atelier-library/spring-catalogue');
    expect(out).not.toContain('Next:');
  });

  it('lists what failed and the retry command for each kind, with the data folder', () => {
    const summary = buildSummary(
      input({
        jobs: { queued: 0, running: 0, retrying: 0, succeeded: 7, failed: 3, canceled: 0 },
        downloads: { pending: 0, downloading: 0, done: 6, failed: 2 },
        failures: { uncertain: 1, rejected: 2 },
      }),
    );
    const out = formatSummary(summary, {
      commandSuffix: ' --data ./work',
      failedExamples: [
        { position: 4, prompt: 'a cat', message: 'The gateway timed out.', requestId: 'req_1' },
        {
          position: 9,
          prompt: 'a dog',
          message: 'Bad size (request id req_2).',
          requestId: 'req_2',
        },
      ],
    });
    expect(out).toContain('Prompts: 7 succeeded, 3 failed (of 10).');
    expect(out).toContain('2 could not be downloaded.');
    expect(out).toContain('#4 "a cat": The gateway timed out. [request id req_1]');
    expect(out).toContain('#9 "a dog": Bad size (request id req_2).\n');
    expect(out).toContain('… and 1 more');
    expect(out).toMatch(/atelier retry --failed --data \.\/work +sends the 2 failed prompt/);
    expect(out).toMatch(/atelier retry --uncertain --data \.\/work +sends the 1 prompt/);
    expect(out).toMatch(/atelier retry --downloads --data \.\/work +fetches the 2 failed/);
    expect(summary.exitCode).toBe(1);
  });

  it('after Ctrl+C says so and that resume continues', () => {
    const out = text(
      buildSummary(
        input({
          outcome: 'interrupted',
          jobs: { queued: 6, running: 0, retrying: 0, succeeded: 4, failed: 0, canceled: 0 },
          paused: { reason: 'Paused with Ctrl+C.', code: 'manual' },
        }),
      ),
    );
    expect(out).toContain('Paused by Ctrl+C after 4.3 s');
    expect(out).toContain('6 not finished');
    expect(out).toContain('atelier resume');
  });

  it('for a pause on the key, says what to fix before resuming', () => {
    const out = text(
      buildSummary(
        input({
          outcome: 'paused',
          paused: { reason: 'The gateway refused the API key.', code: 'invalid_api_key' },
        }),
      ),
    );
    expect(out).toContain('The queue paused after 4.3 s (auth): The gateway refused the API key.');
    expect(out).toContain('Check the key in ATELIER_API_KEY');
    expect(out).toContain('then: atelier resume');
  });
});
