import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterEach, describe, expect, it } from 'vitest';
import { engineRig, jobsOf, libraryFiles, type EngineRig } from '../../support/engine-harness.ts';
import { pollUntil } from '../../support/poll-until.ts';

// A download handed over while requests are in flight waits a moment (DownloadHold), so the
// requests reach the gateway first; with nothing in flight it starts at once. Here the hold
// is a minute long, so that what it holds is plain to see.

let rig: EngineRig | null = null;
afterEach(async () => {
  await rig?.close();
  rig = null;
});

type Seen = 'request' | 'answer' | 'download';

/** What undici writes and reads, in order: generation requests, their answers, downloads. */
function watchTheWire(): { seen: Seen[]; stop: () => void } {
  const seen: Seen[] = [];
  const generation = (request: { path?: string }) =>
    (request.path ?? '').includes('/images/generations');
  const sent = ({ request }: { request: { path?: string } }) =>
    seen.push(generation(request) ? 'request' : 'download');
  const answered = ({ request }: { request: { path?: string } }) => {
    if (generation(request)) seen.push('answer');
  };
  const channels = [
    ['undici:client:sendHeaders', sent],
    ['undici:request:headers', answered],
  ] as const;
  for (const [name, listener] of channels) subscribe(name, listener as (message: unknown) => void);
  return {
    seen,
    stop: () => {
      for (const [name, listener] of channels) {
        unsubscribe(name, listener as (message: unknown) => void);
      }
    },
  };
}

describe('downloads beside requests', () => {
  it('wait while a request is in flight, and all start once the last answer is in', async () => {
    const wire = watchTheWire();
    try {
      rig = await engineRig({
        gateway: { latencyMs: 100 },
        engine: { concurrency: 2, downloadHoldMs: 60_000 },
      });
      const batch = rig.batch(3);
      // (not the minute: the last answer leaves nothing in flight, which ends the hold)
      expect(await rig.engine.whenIdle()).toBe('done');
      expect(rig.store.jobs.counts(batch.id)).toMatchObject({ succeeded: 3 });
      expect(libraryFiles(rig.libraryDir)).toHaveLength(3);
    } finally {
      wire.stop();
    }
    const { seen } = wire;
    expect(seen.filter((s) => s === 'request')).toHaveLength(3);
    expect(seen.filter((s) => s === 'download')).toHaveLength(3);
    // the first two images were handed over while the third request was in flight
    expect(seen.indexOf('download')).toBeGreaterThan(seen.lastIndexOf('answer'));
  });

  it('a stop that aborts starts the held downloads as aborted: they wait, pending, for the next start', async () => {
    const wire = watchTheWire();
    try {
      rig = await engineRig({
        gateway: { latencyMs: 50 },
        engine: { concurrency: 1, downloadHoldMs: 60_000 },
      });
      const batch = rig.batch(2);
      const [first] = jobsOf(rig.store, batch.id);
      await pollUntil(
        () => rig!.gateway.ledger.entries().length === 1,
        'the first request arrived',
      );
      rig.gateway.setLatency({ fixedMs: 5000 }); // the second stays in flight
      // the first answered; its image was handed over with the second request, which arrived
      await pollUntil(() => rig!.gateway.ledger.entries().length === 2, 'the second arrived');
      expect(wire.seen).not.toContain('download'); // held
      const [image] = rig.store.images.listForJob(first!.id);
      expect(image!.downloadState).toBe('downloading');
      await rig.engine.stop({ abort: true });
      expect(rig.store.images.get(image!.id)!.downloadState).toBe('pending');
      expect(libraryFiles(rig.libraryDir)).toEqual([]);
    } finally {
      wire.stop();
    }
  });
});
