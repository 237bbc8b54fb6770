// @vitest-environment happy-dom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { countEligible, type JobFacts } from '../../../../shared/jobs/eligibility.ts';
import type { BatchSummary, JobSummary } from '../../../../renderer/src/data/types.ts';
import { QueueScreen } from '../../../../renderer/src/screens/queue/QueueScreen.tsx';
import { giveElementsASize } from '../sized-elements.ts';
import { batch, job, progress, type Handler } from '../fake-api.ts';
import { mount } from '../mount.tsx';

afterEach(cleanup);

giveElementsASize();

const queueState = (patch: object = {}) => ({
  paused: null,
  engine: 'running',
  runner: null,
  problem: null,
  limits: { concurrency: 8, current: 8, requestsPerMinute: null },
  progress: progress(),
  ...patch,
});

/** The queue screen over a fake service holding `batches` and their `jobs`. */
function mountQueue(
  batches: BatchSummary[] = [],
  jobs: JobSummary[] = [],
  handlers: Record<string, Handler> = {},
) {
  return mount(<QueueScreen />, {
    'queue.state': () => queueState(),
    'batches.list': () => ({ items: batches, next: null }),
    'batches.get': ({ id }: { id: number }) => ({
      ...batches.find((b) => b.id === id)!,
      failures: {},
      partial: 0,
      expiredLinks: 0,
      requests: 0,
      defaults: {},
      folder: '/library',
    }),
    'jobs.ids': ({ states }: { states?: string[] }) => {
      const ids = jobs.filter((j) => !states || states.includes(j.state)).map((j) => j.id);
      return { ids, next: null, total: ids.length };
    },
    'jobs.byIds': ({ ids }: { ids: number[] }) => jobs.filter((j) => ids.includes(j.id)),
    'jobs.actionable': ({ ids }: { ids: number[] }) =>
      countEligible(jobs.filter((j) => ids.includes(j.id)).map(facts), { engineHere: true }),
    'key.status': () => ({ set: false, source: null, last4: null, storable: true, refusal: null }),
    ...handlers,
  });
}

const facts = (j: JobSummary): JobFacts => ({
  state: j.state,
  paused: j.paused,
  failureKind: j.failureKind,
  n: j.n,
  returnedN: j.returnedN,
  notImages: 0,
  failedDownloads: 0,
  toppedUp: false,
});

describe('the queue screen', () => {
  it('teaches what to do when there is nothing in the queue', async () => {
    mountQueue();
    const link = await screen.findByRole('link', { name: 'Compose a batch' });
    expect(link.getAttribute('href')).toBe('#/compose');
  });

  it('says why the queue paused, what to do, and resumes', async () => {
    const { fake, emit } = mountQueue([], [], { 'queue.resume': () => null });
    await screen.findByRole('heading', { name: 'Queue' });
    await waitFor(() => expect(fake.calls.some((c) => c.name === 'queue.state')).toBe(true));
    emit([
      {
        type: 'queue.paused',
        payload: {
          kind: 'auth',
          reason: 'The gateway refused the key (401).',
          code: 'invalid_key',
        },
      },
    ]);
    const banner = await screen.findByRole('region', { name: 'Queue paused' });
    expect(banner.textContent).toContain('Check the key in Settings');
    expect(banner.textContent).toContain('refused the key (401)');
    await userEvent.click(within(banner).getByRole('button', { name: 'Resume' }));
    expect(fake.calls.map((c) => c.name)).toContain('queue.resume');
  });

  it('cancels a batch only after the confirmation', async () => {
    const { fake } = mountQueue([batch(1, { queued: 3, failed: 2 })], [], {
      'batches.cancel': () => ({ canceled: 3 }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel batch 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel “batch 1”?' });
    expect(fake.calls.some((c) => c.name === 'batches.cancel')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel batch' }));
    await waitFor(() =>
      expect(fake.calls.find((c) => c.name === 'batches.cancel')?.input).toEqual({ id: 1 }),
    );
  });

  it('says a batch canceled with nothing made was canceled, not finished or done', async () => {
    mountQueue([batch(1, { canceled: 20 })]);
    const card = await screen.findByRole('listitem', { name: 'batch 1' });
    expect(card.textContent).toContain('Canceled');
    expect(card.textContent).not.toContain('Finished');
    expect(card.textContent).toContain('0 / 20 done');
    expect(card.textContent).toContain('20 canceled');
  });

  it("counts a video batch's results as videos, and a batch of both as images and videos", async () => {
    const downloads = { pending: 0, downloading: 0, done: 1, failed: 0 };
    mountQueue([
      { ...batch(1, { running: 1 }), name: 'boats', videos: 1 },
      {
        ...batch(2, { succeeded: 1 }),
        name: 'kites',
        videos: 1,
        downloads: { ...downloads, done: 0, pending: 1 },
        spent: { results: 1, units: 0, money: null, unpriced: 1, uncertain: 0, uncertainUnits: 0 },
      },
      { ...batch(5, { succeeded: 1 }), name: 'gulls', videos: 1, downloads },
      { ...batch(3, { succeeded: 2, queued: 1 }), name: 'both', videos: 1, downloads },
      { ...batch(4, { succeeded: 1 }), name: 'stills', downloads },
    ]);
    const card = (name: string) => screen.findByRole('listitem', { name });
    // running, nothing written yet: no "0 images" under a video
    expect((await card('boats')).textContent).toContain('0 videos');
    expect((await card('boats')).textContent).not.toContain('image');
    // made, not saved yet, of a model with no price: each figure speaks of videos
    const kites = await card('kites');
    expect(kites.textContent).toContain('0 / 1 videos');
    expect(kites.textContent).toContain('1 video at an unknown price');
    expect(within(kites).getByRole('img', { name: '1 video to download' })).toBeTruthy();
    expect((await card('gulls')).textContent).toContain('1 video');
    expect(screen.getByRole('button', { name: 'Show the videos of gulls' }).textContent).toBe(
      'Videos',
    );
    expect((await card('both')).textContent).toContain('1 image or video');
    expect(screen.getByRole('button', { name: 'Show the images and videos of both' })).toBeTruthy();
    expect((await card('stills')).textContent).toContain('1 image');
    expect(screen.getByRole('button', { name: 'Show the images of stills' }).textContent).toBe(
      'Images',
    );
  });

  it('follows a rename and a move made elsewhere, and counts from the events', async () => {
    const batches = [batch(1, { queued: 4 }), batch(2, { queued: 4 })];
    const { emit } = mountQueue(batches);
    await screen.findByRole('listitem', { name: 'batch 2' });
    batches[0] = { ...batches[0]!, name: 'renamed elsewhere' };
    emit([{ type: 'batches.changed', payload: { ids: [1], deleted: [] } }]);
    await screen.findByRole('listitem', { name: 'renamed elsewhere' });
    const counts = { ...batches[1]!.jobs, queued: 1, succeeded: 3 };
    emit([
      {
        type: 'progress',
        payload: {
          ...progress(),
          paused: null,
          batches: [{ id: 2, jobs: counts, downloads: batches[1]!.downloads }],
        },
      },
    ]);
    const card = await screen.findByRole('listitem', { name: 'batch 2' });
    await waitFor(() => expect(card.textContent).toContain('3 / 4 done'));
  });

  it("marks a succeeded job whose download failed, and clears it when the job's event says so", async () => {
    const jobs = [job(1, 'succeeded'), { ...job(2, 'succeeded'), failedDownloads: 1 }];
    const { emit } = mountQueue([batch(1, { succeeded: 2 })], jobs);
    await userEvent.click(await screen.findByRole('button', { name: 'Show jobs of batch 1' }));
    const list = await screen.findByRole('listbox', { name: 'Jobs' });
    await waitFor(() => expect(within(list).getAllByRole('option')).toHaveLength(2));
    const [saved, notSaved] = within(list).getAllByRole('option');
    await waitFor(() => expect(notSaved!.textContent).toContain('download failed'));
    expect(saved!.textContent).toContain('succeeded');
    expect(notSaved!.textContent).not.toContain('succeeded');
    // retried and written: the service tells the job changed
    jobs[1] = { ...jobs[1]!, failedDownloads: 0 };
    emit([{ type: 'jobs.updated', payload: { ids: [2], batches: [1] } }]);
    await waitFor(() => expect(notSaved!.textContent).toContain('succeeded'));
  });

  it('offers only what applies to the selection, saying to how many, and asks before "retry anyway"', async () => {
    const jobs = [
      { ...job(1, 'failed'), failureKind: 'uncertain' as const },
      { ...job(2, 'failed'), failureKind: 'uncertain' as const },
      { ...job(3, 'failed'), failureKind: 'rejected' as const },
      job(4, 'queued'),
    ];
    const { fake } = mountQueue([batch(1, { queued: 1, failed: 3 })], jobs, {
      'jobs.get': ({ id }: { id: number }) => ({
        ...jobs.find((j) => j.id === id)!,
        params: { model: 'gpt-image-1' },
        stateReason: null,
        lastUpstreamRequestId: null,
        retryOf: null,
        images: [],
        transitions: [],
      }),
      'jobs.attempts': () => ({ items: [], next: null }),
      'jobs.retry': ({ ids }: { ids: number[] }) => ({ changed: ids.length }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Show jobs of batch 1' }));
    const list = await screen.findByRole('listbox', { name: 'Jobs' });
    await waitFor(() => expect(within(list).getAllByRole('option')).toHaveLength(4));
    await waitFor(() => expect(list.textContent).toContain('prompt 3'));
    const bar = screen.getByRole('toolbar', { name: 'Selected jobs' });

    // the queued job alone: no retry of any kind, no top-up
    const [first, , third, fourth] = within(list).getAllByRole('option');
    await userEvent.click(fourth!);
    await waitFor(() => expect(within(bar).queryByRole('button', { name: 'Hold 1' })).toBeTruthy());
    expect(within(bar).queryByRole('button', { name: /Retry/ })).toBeNull();
    expect(within(bar).queryByRole('button', { name: /Top up/ })).toBeNull();

    const user = userEvent.setup();
    await user.click(first!);
    await user.keyboard('{Shift>}');
    await user.click(third!);
    await user.keyboard('{/Shift}');
    expect(within(list).getAllByRole('option', { selected: true })).toHaveLength(3);
    expect(bar.textContent).toContain('3 selected');
    await waitFor(() => expect(within(bar).getByRole('button', { name: 'Retry 1' })).toBeTruthy());
    expect(within(bar).queryByRole('button', { name: /^Hold/ })).toBeNull();
    await userEvent.click(within(bar).getByRole('button', { name: 'Retry anyway 2…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Retry 2 uncertain jobs anyway?' });
    expect(dialog.textContent).toContain('These 2 requests may have finished and been charged');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Retry anyway' }));
    await waitFor(() =>
      expect(fake.calls.find((c) => c.name === 'jobs.retry')?.input).toEqual({
        ids: [1, 2, 3],
        anyway: true,
      }),
    );
  });
});
