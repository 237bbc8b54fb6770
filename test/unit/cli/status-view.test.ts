import { describe, expect, it } from 'vitest';
import { formatStatus, pausedView, type StatusView } from '../../../main/cli/status/status-view.ts';

const view: StatusView = {
  dataDir: '/w/.atelier-data',
  library: '/w/atelier-library',
  gateway: 'https://gw.example',
  paused: pausedView({
    paused: true,
    pauseReason: 'Balance exhausted.',
    pauseCode: 'insufficient_user_quota',
    pauseKind: 'balance',
  }),
  runner: null,
  batches: [
    {
      id: 2,
      name: 'posters',
      source: 'posters.csv',
      createdAt: '2026-11-22T10:00:00.000Z',
      folder: '/w/atelier-library/posters',
      paused: null,
      jobs: { queued: 3, running: 0, retrying: 1, succeeded: 5, failed: 1, canceled: 0, total: 10 },
      downloads: { pending: 1, downloading: 0, done: 5, failed: 2 },
      expiredLinks: 0,
      partial: { jobs: 0, missingImages: 0 },
      topUps: 0,
    },
  ],
};

describe('formatStatus', () => {
  it('shows each batch with its counts and downloads, and why the queue is paused', () => {
    const out = formatStatus(view, ' --data ./w');
    expect(out).toContain('Queue:       paused (balance): Balance exhausted.');
    expect(out).toContain('"atelier resume --data ./w" continues.');
    expect(out).toContain('#2 "posters" from posters.csv, 2026-11-22T10:00:00.000Z');
    expect(out).toContain('prompts: 5 succeeded, 1 failed, 4 waiting (of 10)');
    expect(out).toContain('images:  5 on disk, 2 downloads failed, 1 to download');
    expect(out).toContain('folder:  /w/atelier-library/posters');
    expect(out).not.toContain('paused:');
    expect(out).not.toContain('short:');
  });

  it("counts a video batch's results as videos, aligned with the other lines", () => {
    const clips = { ...view.batches[0]!, videos: 10 };
    const out = formatStatus({ ...view, batches: [clips] }, '');
    expect(out).toContain('   videos:  5 on disk, 2 downloads failed, 1 to download\n');
    expect(out).toContain('   prompts: 5 succeeded');
    expect(formatStatus({ ...view, batches: [{ ...clips, videos: 2 }] }, '')).toContain(
      '   results: 5 on disk',
    );
  });

  it("shows today's spend against the saved caps, and each batch's", () => {
    const out = formatStatus(
      {
        ...view,
        spend: {
          day: '2026-11-22',
          units: 3000,
          uncertainUnits: 300,
          money: { code: 'USD', amount: 0.006 },
          perDay: 5000,
          perBatch: null,
        },
        batches: [{ ...view.batches[0]!, spent: { units: 1200, uncertainUnits: 0 } }],
      },
      '',
    );
    expect(out).toContain(
      'Spent today: 3,000 quota units (≈ $0.006); up to 300 quota units more may have been ' +
        "charged (the day's cap 5,000 quota units, 1,700 quota units left)",
    );
    expect(out).toContain('spent:   1,200 quota units');
  });

  it('shows expired links apart from failed downloads, and prompts that came back short', () => {
    const batch = {
      ...view.batches[0]!,
      downloads: { pending: 0, downloading: 0, done: 5, failed: 3 },
      expiredLinks: 2,
      partial: { jobs: 1, missingImages: 3 },
      topUps: 1,
    };
    const out = formatStatus({ ...view, batches: [batch] }, ' --data ./w');
    expect(out).toContain('(of 10, 1 of them top-up)');
    expect(out).toContain('images:  5 on disk, 1 download failed, 2 failed on an expired link\n');
    expect(out).toContain(
      'short:   1 prompt(s) returned 3 image(s) fewer than asked; ' +
        '"atelier retry --partial --batch 2 --data ./w" asks for them',
    );
  });

  it('shows a paused batch: its prompts wait even while the queue runs', () => {
    const batch = { ...view.batches[0]!, paused: { reason: 'Paused.' } };
    const out = formatStatus({ ...view, paused: null, batches: [batch] }, '');
    expect(out).toContain('Queue:       not running');
    expect(out).toContain('paused:  Paused. Its waiting prompts are not sent until resumed.');
  });

  it('says how to start when there is no batch, and who runs the queue now', () => {
    const out = formatStatus(
      { ...view, paused: null, runner: { pid: 42, host: 'studio' }, batches: [] },
      '',
    );
    expect(out).toContain('Queue:       running now in process 42 on studio');
    expect(out).toContain('No batches yet. Start one with: atelier run prompts.csv --demo');
  });
});
