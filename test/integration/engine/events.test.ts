import { afterEach, describe, expect, it } from 'vitest';
import { engineRig, type EngineRig } from '../../support/engine-harness.ts';

// What the engine tells its listeners, and when: after the commit that made it true.

let rig: EngineRig | null = null;
afterEach(async () => {
  await rig?.close();
  rig = null;
});

describe('committed and progress', () => {
  it('says `committed` after every commit, and each progress event follows one', async () => {
    // no throttling: every commit may be followed by its progress event at once
    rig = await engineRig({ start: false, engine: { progressIntervalMs: 0 } });
    const batch = rig.batch(6);
    const heard: string[] = [];
    rig.engine.on('committed', () => heard.push('committed'));
    rig.engine.on('idle', () => heard.push('idle'));
    rig.engine.on('progress', () => heard.push('progress'));
    await rig.engine.start();
    expect(await rig.engine.whenIdle()).toBe('done');
    expect(rig.store.jobs.counts(batch.id)).toMatchObject({ succeeded: 6 });
    expect(heard[0]).toBe('committed');
    expect(heard).toContain('idle');
    // each progress event follows a commit, or is the final report just before `idle`
    heard.forEach((event, i) => {
      if (event !== 'progress') return;
      const afterCommit = heard[i - 1] === 'committed';
      const idleReport = heard[i + 1] === 'idle';
      expect(afterCommit || idleReport, `event ${i} of: ${heard.join(' ')}`).toBe(true);
    });
    expect(heard.filter((event) => event === 'committed').length).toBeGreaterThan(1);
    expect(heard.filter((event) => event === 'progress').length).toBeGreaterThan(1);
  });
});
