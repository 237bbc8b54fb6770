import { afterEach, describe, expect, it } from 'vitest';
import { engineRig, jobsOf, type EngineRig } from '../../support/engine-harness.ts';
import { hostileRig, type HostileRig } from '../../support/hostile-gateway.ts';

// A failure's message is what a person reads after the run: once Atelier has given up, it
// must not say "it will be tried again".

let rig: EngineRig | null = null;
let hostile: HostileRig | null = null;
afterEach(async () => {
  await rig?.close();
  await hostile?.close();
  rig = null;
  hostile = null;
});

describe('messages of failures that are final', () => {
  it('a prompt whose retries ran out says so, not that it will be tried again', async () => {
    rig = await engineRig({ gateway: { faults: '500:1' } });
    const batch = rig.batch(1);
    expect(await rig.engine.whenIdle()).toBe('done');
    const [job] = jobsOf(rig.store, batch.id);
    expect(job).toMatchObject({ state: 'failed', failureKind: 'retries-exhausted', tries: 5 });
    expect(job!.errorMessage).toMatch(/temporary failure/);
    expect(job!.errorMessage).not.toMatch(/tried again/);
    expect(job!.errorMessage).toMatch(/Atelier gave up after 5 tries/);
    // the attempts before the last were retried, and say so
    const attempts = rig.store.attempts.listForJob(job!.id);
    expect(attempts[0]!.errorMessage).toMatch(/it will be tried again/);
    expect(attempts.at(-1)!.errorMessage).not.toMatch(/tried again/);
  });

  it('a download whose tries ran out says so, not that it will be tried again', async () => {
    rig = await engineRig({ gateway: { faults: 'url-500:1' } });
    const batch = rig.batch(1);
    expect(await rig.engine.whenIdle()).toBe('done');
    const [job] = jobsOf(rig.store, batch.id);
    const [image] = rig.store.images.listForJob(job!.id);
    expect(image).toMatchObject({ downloadState: 'failed', downloadTries: 5 });
    expect(image!.failureReason).not.toMatch(/tried again/);
    expect(image!.failureReason).toMatch(/Atelier gave up after 5 tries/);
  });

  it('a video task that could not be checked, time after time, does not promise another check', async () => {
    hostile = await hostileRig(
      (req, res) => {
        if (req.method === 'POST') {
          res.writeHead(200, { 'content-type': 'application/json' });
          return void res.end(JSON.stringify({ id: 'video_1', status: 'queued' }));
        }
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'busy' } }));
      },
      { engine: { videoPoll: { initialMs: 1, maxMs: 2 } } },
    );
    const id = hostile.store.batches.create(
      { name: 'video' },
      [{ kind: 'video', prompt: 'p', model: 'sora-2', size: '720x1280', params: { seconds: '4' } }],
      Date.now(),
    ).id;
    expect(await hostile.engine.whenIdle()).toBe('done');
    const [job] = jobsOf(hostile.store, id);
    expect(job).toMatchObject({ state: 'failed', failureKind: 'uncertain' });
    expect(job!.errorMessage).toMatch(/could not be checked 30 times in a row/);
    expect(job!.errorMessage).not.toMatch(/tried again/);
  });
});
