import { afterEach, describe, expect, it } from 'vitest';
import { engineRig, jobsOf, type EngineRig } from '../../support/engine-harness.ts';

// A failure's message is what a person reads after the run: once Atelier has given up, it
// must not say "it will be tried again".

let rig: EngineRig | null = null;
afterEach(async () => {
  await rig?.close();
  rig = null;
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
});
