import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ImageWritten } from '../../../main/core/engine/engine.ts';
import { sidecarPathFor } from '../../../main/core/library/image-extras.ts';
import { thumbnailPath } from '../../../main/core/library/thumbnail.ts';
import { engineRig, jobsOf, type EngineRig } from '../../support/engine-harness.ts';
import { pollUntil } from '../../support/poll-until.ts';

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

describe('imageWritten', () => {
  it.each([
    { responseFormat: 'b64_json', thumbnails: true },
    { responseFormat: 'url', thumbnails: false },
  ] as const)(
    '$responseFormat, thumbnails $thumbnails: each image once it is committed done and its extras are on disk',
    async ({ responseFormat, thumbnails }) => {
      rig = await engineRig({
        start: false,
        engine: { responseFormat, thumbnails, sidecar: true },
      });
      const batch = rig.batch(3);
      const { store, libraryDir } = rig;
      // what was true when the event was heard
      const heard: Array<{ event: ImageWritten; state: unknown; relPath: unknown; on: unknown }> =
        [];
      rig.engine.on('imageWritten', (event) => {
        const image = store.images.get(event.imageId);
        const path = join(libraryDir, event.relPath);
        heard.push({
          event,
          state: image?.downloadState,
          relPath: image?.relPath,
          on: [existsSync(path), existsSync(sidecarPathFor(path)), existsSync(thumbnailPath(path))],
        });
      });
      await rig.engine.start();
      expect(await rig.engine.whenIdle()).toBe('done');
      await pollUntil(() => heard.length === 3, 'three images were announced');
      const images = jobsOf(store, batch.id).flatMap((job) => store.images.listForJob(job.id));
      expect(heard.map((h) => h.event.imageId).sort()).toEqual(images.map((i) => i.id).sort());
      for (const { event, state, relPath, on } of heard) {
        const image = images.find((i) => i.id === event.imageId)!;
        expect(event).toEqual({
          imageId: image.id,
          jobId: image.jobId,
          batchId: batch.id,
          relPath: image.relPath,
          thumbnail: thumbnails,
        });
        expect(state).toBe('done');
        expect(relPath).toBe(event.relPath);
        expect(on).toEqual([true, true, thumbnails]);
      }
    },
  );
});
