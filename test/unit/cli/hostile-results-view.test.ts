import { describe, expect, it } from 'vitest';
import { buildSummary, formatSummary, type SummaryInput } from '../../../main/cli/run/summary.ts';
import { formatStatus, type StatusView } from '../../../main/cli/status/status-view.ts';

// What a person reads about results that were not images and downloads that failed for good.

const input: SummaryInput = {
  outcome: 'done',
  batch: { id: 3, name: 'posters', dirName: 'posters' },
  libraryDir: '/lib',
  jobs: { queued: 0, running: 0, retrying: 0, succeeded: 2, failed: 1, canceled: 0 },
  downloads: { pending: 0, downloading: 0, done: 0, failed: 2 },
  failures: { 'not-an-image': 1 },
  partial: { jobs: 0, missingImages: 0 },
  topUps: 0,
  expiredLinks: 0,
  notImages: 1,
  stats: { requestsSent: 3, imagesWritten: 0, bytesWritten: 0 },
  wallTimeMs: 1000,
  paused: null,
  notes: [],
};

describe('the run summary', () => {
  it('--json counts the prompts that got no image and the links that gave none', () => {
    const summary = buildSummary(input);
    expect(summary.failures).toEqual({ 'not-an-image': 1 });
    expect(summary.images).toMatchObject({ failedDownloads: 2, notImages: 1 });
    expect(summary.exitCode).toBe(1);
  });

  it('names why each failed, and which command asks again', () => {
    const text = formatSummary(buildSummary(input), {
      commandSuffix: '',
      failedExamples: [
        {
          position: 1,
          prompt: 'a cat',
          message: 'The gateway answered 200, but image 1 is not an image Atelier can use (…).',
          requestId: 'req_1',
        },
      ],
      expiredExamples: [],
      failedDownloadExamples: [
        {
          position: 2,
          prompt: 'a dog',
          image: 1,
          reason: 'The image is larger than the 1 MB limit.',
        },
        { position: 3, prompt: 'a bird', image: 1, reason: 'What the gateway gave… not an image.' },
      ],
    });
    expect(text).toContain('1 could not be downloaded.');
    expect(text).toContain('1 were not images: the link gave something else (below).');
    expect(text).toContain('#1 "a cat": The gateway answered 200, but image 1 is not an image');
    expect(text).toContain(
      'Downloads that failed:\n  #2 "a dog", image 1: The image is larger than the 1 MB limit.\n' +
        '  #3 "a bird", image 1: What the gateway gave… not an image.',
    );
    expect(text).toMatch(/atelier retry --failed +sends the 1 failed prompt\(s\) again/);
  });
});

describe('atelier status', () => {
  it('shows failed prompts by kind with the command for them, and images that were none', () => {
    const view: StatusView = {
      dataDir: '/w/.atelier-data',
      library: null,
      gateway: null,
      paused: null,
      runner: null,
      batches: [
        {
          id: 3,
          name: 'posters',
          source: null,
          createdAt: '2026-11-22T10:00:00.000Z',
          folder: null,
          paused: null,
          jobs: {
            queued: 0,
            running: 0,
            retrying: 0,
            succeeded: 2,
            failed: 3,
            canceled: 0,
            total: 5,
          },
          downloads: { pending: 0, downloading: 0, done: 1, failed: 2 },
          expiredLinks: 0,
          notImages: 1,
          failures: { 'not-an-image': 2, uncertain: 1 },
          partial: { jobs: 0, missingImages: 0 },
          topUps: 0,
        },
      ],
    };
    const out = formatStatus(view, '');
    expect(out).toContain('images:  1 on disk, 1 download failed, 1 not an image\n');
    expect(out).toContain(
      'failed:  2 not-an-image, 1 uncertain; "atelier retry --failed --batch 3" sends them again; ' +
        '"atelier retry --uncertain --batch 3" the uncertain ones',
    );
  });
});
