import { describe, expect, it } from 'vitest';
import { exitCodeFor } from '../../../main/cli/run/exit-code.ts';
import { buildSummary, formatSummary, type SummaryInput } from '../../../main/cli/run/summary.ts';

function input(overrides: Partial<SummaryInput> = {}): SummaryInput {
  return {
    outcome: 'done',
    batch: { id: 3, name: 'Spring catalogue', dirName: 'spring-catalogue' },
    libraryDir: '/home/ada/atelier-library',
    jobs: { queued: 0, running: 0, retrying: 0, succeeded: 10, failed: 0, canceled: 0 },
    downloads: { pending: 0, downloading: 0, done: 12, failed: 0 },
    failures: {},
    partial: { jobs: 0, missingImages: 0 },
    topUps: 0,
    expiredLinks: 0,
    stats: { requestsSent: 10, imagesWritten: 12, bytesWritten: 34_000 },
    wallTimeMs: 4_321,
    paused: null,
    notes: ['Sending requests to the embedded gateway.'],
    ...overrides,
  };
}

const text = (summary: ReturnType<typeof buildSummary>, suffix = '') =>
  formatSummary(summary, { commandSuffix: suffix, failedExamples: [], expiredExamples: [] });

describe('buildSummary', () => {
  it('holds what --json promises: counts per state, images, failed downloads, partial results, requests, wall time', () => {
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
      videoJobs: 0,
      failures: {},
      images: {
        written: 12,
        onDisk: 12,
        failedDownloads: 0,
        pendingDownloads: 0,
        expiredLinks: 0,
        notImages: 0,
      },
      partial: { jobs: 0, missingImages: 0 },
      topUps: 0,
      requestsSent: 10,
      bytesWritten: 34_000,
      wallTimeMs: 4_321,
      paused: null,
      notes: ['Sending requests to the embedded gateway.'],
      spend: { units: 0, money: null, unpriced: 0, uncertainUnits: 0 },
    });
  });

  it('says what was spent, what is unpriced and what may have been charged', () => {
    const spent = buildSummary(
      input({
        spend: {
          units: 3000,
          money: { code: 'USD', amount: 0.006 },
          unpriced: 2,
          uncertainUnits: 300,
        },
      }),
    );
    expect(text(spent)).toContain(
      'Spent: 3,000 quota units (≈ $0.006); 2 results of unpriced models; up to 300 quota ' +
        'units more may have been charged.',
    );
    expect(text(buildSummary(input()))).not.toContain('Spent:');
  });

  it('names the kind of a pause (auth, balance…) and drops a pause once all is done', () => {
    const paused = buildSummary(
      input({
        outcome: 'paused',
        paused: {
          reason: 'Insufficient balance.',
          code: 'insufficient_user_quota',
          kind: 'balance',
        },
      }),
    );
    expect(paused.paused).toEqual({
      reason: 'Insufficient balance.',
      code: 'insufficient_user_quota',
      kind: 'balance',
    });
    expect(
      buildSummary(input({ paused: { reason: 'x', code: 'manual', kind: 'manual' } })).paused,
    ).toBeNull();
  });
});

describe('exitCodeFor', () => {
  const facts = {
    outcome: 'done' as const,
    jobs: input().jobs,
    images: { written: 1, onDisk: 1, failedDownloads: 0, pendingDownloads: 0 },
    partial: { missingImages: 0 },
  };
  const { jobs, images } = facts;
  it('is 0 only when every prompt succeeded and every image is on disk', () => {
    expect(exitCodeFor(facts)).toBe(0);
  });
  it('is 1 for failed prompts, failed or unfinished downloads, unfinished prompts and pauses', () => {
    expect(exitCodeFor({ ...facts, jobs: { ...jobs, failed: 1 } })).toBe(1);
    expect(exitCodeFor({ ...facts, images: { ...images, failedDownloads: 1 } })).toBe(1);
    expect(exitCodeFor({ ...facts, images: { ...images, pendingDownloads: 1 } })).toBe(1);
    expect(exitCodeFor({ ...facts, jobs: { ...jobs, queued: 2 } })).toBe(1);
    expect(exitCodeFor({ ...facts, outcome: 'paused' })).toBe(1);
  });
  it('is 1 when a prompt returned fewer images than asked and no top-up asked for the rest', () => {
    expect(exitCodeFor({ ...facts, partial: { missingImages: 2 } })).toBe(1);
  });
  it('is 130 after Ctrl+C, as a shell reports an interrupted command', () => {
    expect(exitCodeFor({ ...facts, outcome: 'interrupted' })).toBe(130);
  });
});

describe('formatSummary', () => {
  it('says where the images are when all went well', () => {
    const out = text(buildSummary(input()));
    expect(out).toContain('Done in 4.3 s: all 10 prompts succeeded, 12 images written.');
    const withTopUp = text(buildSummary(input({ topUps: 1 })));
    expect(withTopUp).toContain('all 10 requests (9 prompts, 1 top-up) succeeded');
    expect(withTopUp).toContain('Prompts: 10 succeeded (of 10, 1 of them top-up).');
    expect(out).toContain('Images:  12 in /home/ada/atelier-library/spring-catalogue');
    expect(out).not.toContain('Next:');
  });

  it('counts videos for a batch of videos, and results for a mixed one, aligned as images', () => {
    const videos = text(buildSummary(input({ videos: 10 })));
    expect(videos).toContain('all 10 prompts succeeded, 12 videos written.');
    expect(videos).toContain('Videos:  12 in /home/ada/atelier-library/spring-catalogue');
    expect(videos).not.toMatch(/images/i);
    const mixed = buildSummary(
      input({ videos: 4, downloads: { pending: 0, downloading: 0, done: 11, failed: 1 } }),
    );
    expect(mixed.videoJobs).toBe(4);
    const lines = text(mixed).split('\n');
    expect(lines).toContain('Results: 11 in /home/ada/atelier-library/spring-catalogue');
    expect(lines).toContain('         1 could not be downloaded.');
    expect(lines[0]).toMatch(/10 of 10 prompts succeeded, 12 images and videos written; not/);
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
      expiredExamples: [],
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
          paused: { reason: 'Paused with Ctrl+C.', code: 'manual', kind: 'manual' },
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
          paused: {
            reason: 'The gateway refused the API key.',
            code: 'invalid_api_key',
            kind: 'auth',
          },
        }),
      ),
    );
    expect(out).toContain('The queue paused after 4.3 s (auth): The gateway refused the API key.');
    expect(out).toContain('Check the key in ATELIER_API_KEY');
    expect(out).toContain('then: atelier resume');
  });

  it('for a pause on rate limits, says to wait (or slow down) before resuming', () => {
    const out = text(
      buildSummary(
        input({
          outcome: 'paused',
          jobs: { queued: 4, running: 0, retrying: 6, succeeded: 0, failed: 0, canceled: 0 },
          paused: {
            reason: 'The gateway keeps rate limiting: …',
            code: 'rate-limit',
            kind: 'rate-limit',
          },
        }),
      ),
    );
    expect(out).toContain('(rate-limit): The gateway keeps rate limiting');
    expect(out).toContain('Prompts: 0 succeeded, 10 not finished (of 10).');
    expect(out).toMatch(/Wait until the gateway accepts requests again.*then: atelier resume/);
  });

  it('reports prompts that returned fewer images than asked, and suggests retry --partial', () => {
    const summary = buildSummary(
      input({
        downloads: { pending: 0, downloading: 0, done: 10, failed: 0 },
        partial: { jobs: 1, missingImages: 2 },
      }),
    );
    expect(summary.exitCode).toBe(1);
    expect(summary.partial).toEqual({ jobs: 1, missingImages: 2 });
    const out = text(summary, ' --data ./work');
    expect(out).toContain('not everything worked');
    expect(out).toContain('2 not returned: 1 prompt(s) got fewer images than asked.');
    expect(out).toMatch(
      /atelier retry --partial --data \.\/work +asks for the 2 image\(s\) that 1 prompt\(s\) did not return \(new generation requests, charged\)/,
    );
  });

  it('reports expired links apart, and retry --downloads asks them again too', () => {
    const summary = buildSummary(
      input({
        downloads: { pending: 0, downloading: 0, done: 9, failed: 3 },
        expiredLinks: 2,
      }),
    );
    expect(summary.exitCode).toBe(1);
    expect(summary.images).toMatchObject({ failedDownloads: 3, expiredLinks: 2 });
    const out = formatSummary(summary, {
      commandSuffix: '',
      failedExamples: [],
      expiredExamples: [{ position: 7, prompt: 'a lighthouse at dusk', image: 2 }],
    });
    expect(out).toContain('         1 could not be downloaded.\n');
    expect(out).toContain('2 could not be downloaded because the link had expired.\n');
    expect(out).toContain('Link expired:\n  #7 "a lighthouse at dusk", image 2');
    expect(out).toContain('… and 1 more');
    expect(out).toMatch(
      /atelier retry --downloads +fetches the 3 failed download\(s\) again \(2 whose link had expired: some stores answer later\), without generating anything/,
    );
    expect(out).toContain('If a link still answers that it expired');
    expect(out).toContain('"atelier retry --failed" does not apply (their prompts succeeded)');
    expect(out).toContain('a new paid request: run those prompts again with "atelier run"');
  });

  it('suggests retry --downloads when every failed download had an expired link', () => {
    const out = text(
      buildSummary(
        input({ downloads: { pending: 0, downloading: 0, done: 10, failed: 2 }, expiredLinks: 2 }),
      ),
    );
    expect(out).toMatch(/atelier retry --downloads +fetches the 2 failed download\(s\) again/);
    expect(out).not.toMatch(/^ +\d+ could not be downloaded\.$/m);
    expect(out).not.toContain('lost');
  });
});

describe('the human summary after a second Ctrl+C', () => {
  it('says the run was stopped at once and how many prompts were still in flight', () => {
    const summary = buildSummary(
      input({
        outcome: 'interrupted',
        jobs: { queued: 3, running: 2, retrying: 0, succeeded: 5, failed: 0, canceled: 0 },
        downloads: { pending: 0, downloading: 0, done: 5, failed: 0 },
        stats: { requestsSent: 7, imagesWritten: 5, bytesWritten: 1 },
        wallTimeMs: 2_000,
        paused: { reason: 'Paused with Ctrl+C.', code: 'manual', kind: 'manual' },
      }),
    );
    expect(summary.exitCode).toBe(130);
    const options = { commandSuffix: '', failedExamples: [], expiredExamples: [] };
    const stopped = formatSummary(summary, { ...options, stoppedAtOnce: true });
    expect(stopped.split('\n')[0]).toBe(
      'Stopped at once by a second Ctrl+C after 2.0 s, 2 prompt(s) still in flight.',
    );
    expect(stopped).toContain('atelier resume');
    // the first Ctrl+C's summary is unchanged
    expect(formatSummary(summary, options).split('\n')[0]).toMatch(/^Paused by Ctrl\+C after/);
  });
});

describe('the summary after SIGTERM or SIGHUP', () => {
  const interrupted = (signal: 'SIGTERM' | 'SIGHUP') =>
    buildSummary(
      input({
        outcome: 'interrupted',
        jobs: { queued: 3, running: 0, retrying: 0, succeeded: 2, failed: 0, canceled: 0 },
        wallTimeMs: 2_000,
        paused: { reason: 'Paused by SIGTERM.', code: 'manual', kind: 'manual' },
        signal,
      }),
    );
  const options = { commandSuffix: '', failedExamples: [], expiredExamples: [] };

  it('carries 128 + the signal number as its exit code, and names the signal', () => {
    expect(interrupted('SIGTERM').exitCode).toBe(143);
    expect(interrupted('SIGHUP').exitCode).toBe(129);
    const text = formatSummary(interrupted('SIGTERM'), { ...options, signal: 'SIGTERM' });
    expect(text.split('\n')[0]).toBe(
      'Paused by SIGTERM after 2.0 s; the requests in flight were allowed to finish.',
    );
    expect(text).toContain('atelier resume');
    const stopped = formatSummary(interrupted('SIGHUP'), {
      ...options,
      signal: 'SIGHUP',
      stoppedAtOnce: true,
    });
    expect(stopped.split('\n')[0]).toBe('Stopped at once by SIGHUP after 2.0 s.');
  });
});

describe('the human summary quoting prompts and gateway messages', () => {
  it('escapes their control characters: a prompt cannot redraw the terminal', () => {
    const summary = buildSummary(
      input({
        jobs: { queued: 0, running: 0, retrying: 0, succeeded: 0, failed: 1, canceled: 0 },
        failures: { rejected: 1 },
      }),
    );
    const out = formatSummary(summary, {
      commandSuffix: '',
      expiredExamples: [{ position: 2, prompt: 'b\u0007', image: 1 }],
      failedExamples: [
        {
          position: 1,
          prompt: 'a\u001b[2J\nfox',
          message: 'refused:\u0000 \u001b]0;title\u0007',
          requestId: null,
        },
      ],
    });
    expect(out).toContain('#1 "a\\u001b[2J\\nfox": refused:\\0 \\u001b]0;title\\u0007');
    // eslint-disable-next-line no-control-regex
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });
});
