import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { createCatalogue } from '../../../shared/gateway/catalogue.ts';
import { createEdits } from '../../../main/core/edits/create-edits.ts';
import type { EditSpec } from '../../../main/core/edits/edit-plan.ts';
import { EditInputFiles } from '../../../main/core/edits/input-files.ts';
import { filePicture, galleryPictures } from '../../../main/core/edits/sources.ts';
import { readEmbeddedMetadataFromFile } from '../../../main/core/library/read-metadata.ts';
import type { Image } from '../../../main/core/store/rows.ts';
import { pixels, rectMask, solid } from '../../support/edit-pictures.ts';
import { engineRig, jobsOf, type EngineRig } from '../../support/engine-harness.ts';

// Edit jobs in the one queue: what the gateway receives, where results land, what a crash,
// a retry and a top-up send again.

const catalogue = createCatalogue();
let rig: EngineRig | null = null;
afterEach(async () => {
  await rig?.close();
  rig = null;
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Generates gallery images (flux-schnell, b64) of the given sizes and returns them written. */
async function galleryImages(sizes: string[]): Promise<Image[]> {
  const batch = rig!.batch(
    sizes.map((size) => ({ size, params: { response_format: 'b64_json' } })),
  );
  await rig!.engine.start();
  expect(await rig!.engine.whenIdle()).toBe('done');
  return jobsOf(rig!.store, batch.id).map((job) => rig!.store.images.listForJob(job.id)[0]!);
}

function editSpec(patch: Partial<EditSpec>): EditSpec {
  return {
    pictures: [],
    prompts: 'make it glow',
    mask: null,
    model: 'flux-schnell',
    response_format: 'b64_json',
    keepOutsideMask: false,
    ...patch,
  };
}

const maskFile = (bytes: Buffer | Promise<Buffer>) => ({
  label: 'the mask',
  read: async () => bytes,
});

async function runEdits(spec: EditSpec) {
  const { batch } = await createEdits(rig!.store, spec, { catalogue });
  rig!.engine.wake();
  expect(await rig!.engine.whenIdle()).toBe('done');
  await rig!.gateway.idle();
  return jobsOf(rig!.store, batch.id);
}

describe('edit jobs', () => {
  it('send a gallery image with a mask for each prompt, and land linked to their source', async () => {
    rig = await engineRig({ start: false });
    const [source] = await galleryImages(['64x48']);
    const jobs = await runEdits(
      editSpec({
        pictures: galleryPictures(rig.store, rig.libraryDir, [source!.id]),
        prompts: 'a red hat\na blue scarf',
        mask: maskFile(rectMask(64, 48, { left: 0, top: 0, width: 32, height: 48 })),
      }),
    );
    expect(jobs.map((job) => [job.prompt, job.state])).toEqual([
      ['a red hat', 'succeeded'],
      ['a blue scarf', 'succeeded'],
    ]);

    // what the gateway received: the picture as a PNG of the image's size, a hard-edged mask
    // with alpha, of the same size, covering half of it; the picture's part named "image"
    const received = rig.gateway.receivedEdits();
    // (both jobs are in flight at once: the gateway may receive them in either order)
    expect(received.map((edit) => edit.fields.prompt).toSorted()).toEqual([
      'a blue scarf',
      'a red hat',
    ]);
    const edit = rig.store.edits.ofJob(jobs[0]!.id)!;
    for (const each of received) {
      expect(each).toMatchObject({
        body: 'multipart',
        imageField: 'image',
        fields: { model: 'flux-schnell', prompt: expect.any(String), response_format: 'b64_json' },
        image: { sha256: edit.imageSha256, width: 64, height: 48, format: 'png' },
        mask: {
          sha256: edit.maskSha256,
          width: 64,
          height: 48,
          format: 'png',
          hasAlpha: true,
          transparent: 32 * 48,
          partial: 0,
        },
      });
    }

    // the results: in the gallery, linked to the source, their files saying so
    for (const job of jobs) {
      const [result] = rig.store.images.listForJob(job.id);
      expect(result).toMatchObject({ downloadState: 'done', width: 64, height: 48 });
      expect(rig.store.edits.ofImage(result!.id)).toMatchObject({
        sourceImageId: source!.id,
        sourceLabel: `image ${source!.id} (${source!.relPath})`,
      });
      const embedded = await readEmbeddedMetadataFromFile(join(rig.libraryDir, result!.relPath!));
      expect(embedded.metadata?.parameters).toMatchObject({
        edited_from: `image ${source!.id} (${source!.relPath})`,
        mask: true,
      });
      expect(embedded.metadata?.parameters).not.toHaveProperty('kept_outside_mask');
    }
  });

  it('edit many images with one prompt: one job each, the mask scaled to each', async () => {
    rig = await engineRig({ start: false });
    const sources = await galleryImages(['40x20', '80x40', '120x60']);
    const jobs = await runEdits(
      editSpec({
        pictures: galleryPictures(
          rig.store,
          rig.libraryDir,
          sources.map((image) => image.id),
        ),
        mask: maskFile(rectMask(40, 20, { left: 0, top: 0, width: 20, height: 20 })),
      }),
    );
    expect(jobs.map((job) => job.state)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    const received = rig.gateway.receivedEdits().sort((a, b) => a.image.width - b.image.width);
    expect(received.map((edit) => [edit.image.width, edit.mask!.width])).toEqual([
      [40, 40],
      [80, 80],
      [120, 120],
    ]);
    // half of each picture, whatever its size (to a column, as the edge is cut after scaling)
    for (const { mask } of received) {
      expect(Math.abs(mask!.transparent - (mask!.width * mask!.height) / 2)).toBeLessThanOrEqual(
        mask!.height,
      );
    }
    expect(jobs.map((job) => rig!.store.edits.ofJob(job.id)!.sourceImageId)).toEqual(
      sources.map((image) => image.id),
    );
  });

  it('keep outside the mask: the picture comes back exactly where the mask kept it, and the file says so', async () => {
    rig = await engineRig({ start: false });
    const picture = await solid(64, 64, [40, 90, 160]);
    const mask = rectMask(64, 64, { left: 32, top: 0, width: 32, height: 64 });
    const results = async (keepOutsideMask: boolean) => {
      const [job] = await runEdits(
        editSpec({
          pictures: [
            {
              label: '/photos/lake.png',
              name: 'lake.png',
              imageId: null,
              read: async () => picture,
            },
          ],
          mask: maskFile(mask),
          seed: undefined,
          keepOutsideMask,
        }),
      );
      const [image] = rig!.store.images.listForJob(job!.id);
      const path = join(rig!.libraryDir, image!.relPath!);
      return {
        view: await pixels(readFileSync(path)),
        embedded: await readEmbeddedMetadataFromFile(path),
      };
    };
    await rig.engine.start();

    const raw = await results(false);
    // the simulator drifts what the mask keeps, as models do
    expect(raw.view.at(5, 30).slice(0, 3)).toEqual([46, 96, 166]);

    const kept = await results(true);
    expect(kept.view.at(5, 30).slice(0, 3)).toEqual([40, 90, 160]);
    expect(kept.view.at(26, 30).slice(0, 3)).toEqual([40, 90, 160]);
    // inside the mask, the edit stays (the picture's negative, tinted: far from it)
    const [r, g, b] = kept.view.at(50, 30);
    expect(Math.abs(r! - 40) + Math.abs(g! - 90) + Math.abs(b! - 160)).toBeGreaterThan(60);
    expect(kept.embedded.metadata?.parameters).toMatchObject({
      edited_from: 'lake.png',
      mask: true,
      kept_outside_mask: true,
    });
  });

  it('send the name the profile asks for: image[] to a gateway that reads only image[]', async () => {
    rig = await engineRig({
      start: false,
      gateway: { editImageField: 'image[]' },
      profile: { multipartImageField: 'image[]' },
    });
    await rig.engine.start();
    const [job] = await runEdits(editSpec({ pictures: [filePicture(await writePicture())] }));
    expect(job!.state).toBe('succeeded');
    expect(rig.gateway.receivedEdits()[0]).toMatchObject({ imageField: 'image[]' });
  });

  it("fail as rejected, with the gateway's reason, when the gateway reads another name", async () => {
    rig = await engineRig({ start: false, gateway: { editImageField: 'image[]' } });
    await rig.engine.start();
    const [job] = await runEdits(editSpec({ pictures: [filePicture(await writePicture())] }));
    expect(job).toMatchObject({
      state: 'failed',
      failureKind: 'rejected',
      errorMessage: expect.stringContaining('send the picture as "image[]"'),
    });
  });

  it('fail before sending anything when an input is gone from the data folder', async () => {
    rig = await engineRig({ start: false });
    const { batch } = await createEdits(
      rig.store,
      editSpec({ pictures: [filePicture(await writePicture())] }),
      { catalogue },
    );
    const [job] = jobsOf(rig.store, batch.id);
    const inputs = EditInputFiles.of(rig.store);
    rmSync(inputs.pathOf(rig.store.edits.ofJob(job!.id)!.imageSha256));
    await rig.engine.start();
    expect(await rig.engine.whenIdle()).toBe('done');
    expect(rig.store.jobs.get(job!.id)).toMatchObject({
      state: 'failed',
      failureKind: 'rejected',
      errorMessage: expect.stringContaining('is missing from the data folder'),
    });
    await rig.gateway.idle();
    expect(rig.gateway.ledger.entries()).toEqual([]);
  });

  it('a top-up of a partial edit edits the same picture with the same mask', async () => {
    rig = await engineRig({ start: false, gateway: { faults: 'partial@1' } });
    await rig.engine.start();
    const [job] = await runEdits(
      editSpec({
        pictures: [filePicture(await writePicture())],
        mask: maskFile(rectMask(32, 32, { left: 0, top: 0, width: 8, height: 8 })),
        n: 3,
      }),
    );
    expect(job!.returnedN).toBeLessThan(3);
    const topUp = rig.engine.topUp(job!.id);
    expect(rig.store.edits.ofJob(topUp.id)).toEqual({
      ...rig.store.edits.ofJob(job!.id),
      jobId: topUp.id,
    });
    expect(await rig.engine.whenIdle()).toBe('done');
    await rig.gateway.idle();
    const [first, second] = rig.gateway.receivedEdits();
    expect(second!.image.sha256).toBe(first!.image.sha256);
    expect(second!.mask!.sha256).toBe(first!.mask!.sha256);
    expect(second!.fields.n).toBe(String(3 - job!.returnedN!));
  });
});

describe('an edit job across a crash', () => {
  const child = resolve('test/support/engine-crash-child.ts');

  it('is never resent by itself; "retry anyway" sends the very bytes first sent, whatever became of the source', async () => {
    rig = await engineRig({ start: false });
    const [source] = await galleryImages(['48x48']);
    rig.gateway.setLatency({ fixedMs: 60_000 });
    const { batch } = await createEdits(
      rig.store,
      editSpec({
        pictures: galleryPictures(rig.store, rig.libraryDir, [source!.id]),
        mask: maskFile(rectMask(48, 48, { left: 8, top: 8, width: 16, height: 16 })),
      }),
      { catalogue },
    );
    await rig.engine.stop();
    const [job] = jobsOf(rig.store, batch.id);

    // another process runs the queue and is killed once the edit is at the gateway
    await new Promise<void>((done, fail) => {
      const proc = spawn(
        process.execPath,
        [child, rig!.dbFile, rig!.libraryDir, rig!.gateway.url, rig!.gateway.key],
        { stdio: 'ignore' },
      );
      const timer = setInterval(() => {
        if (rig!.gateway.receivedEdits().length === 1) proc.kill('SIGKILL');
      }, 10);
      proc.on('exit', (_, signal) => {
        clearInterval(timer);
        if (signal === 'SIGKILL') done();
        else fail(new Error('the child exited by itself'));
      });
    });
    const [first] = rig.gateway.receivedEdits();

    // the source changes on disk meanwhile: what was checked is what is sent
    writeFileSync(join(rig.libraryDir, source!.relPath!), await solid(48, 48, [0, 0, 0]));

    rig.gateway.setLatency({ fixedMs: 0 });
    const engine = rig.newEngine();
    const report = await engine.start();
    expect(report.uncertain).toEqual([job!.id]);
    expect(await engine.whenIdle()).toBe('done');
    expect(rig.store.jobs.get(job!.id)).toMatchObject({
      state: 'failed',
      failureKind: 'uncertain',
    });
    expect(rig.gateway.receivedEdits()).toHaveLength(1);

    expect(engine.retryFailed({ anyway: true })).toBe(1);
    expect(await engine.whenIdle()).toBe('done');
    await rig.gateway.idle();
    const [, again] = rig.gateway.receivedEdits();
    expect(again!.image).toEqual(first!.image);
    expect(again!.mask).toEqual(first!.mask);
    expect(rig.store.jobs.get(job!.id)!.state).toBe('succeeded');
    const edit = rig.store.edits.ofJob(job!.id)!;
    const kept = readFileSync(EditInputFiles.of(rig.store).pathOf(edit.imageSha256));
    expect(sha256(kept)).toBe(first!.image.sha256);
    expect(existsSync(join(rig.dir, 'edit-inputs'))).toBe(true);
  });
});

/** A 32×32 picture as a file outside the library (as the CLI is given). */
async function writePicture(): Promise<string> {
  const path = join(rig!.dir, `picture-${Math.random().toString(36).slice(2)}.jpg`);
  writeFileSync(
    path,
    await sharp(await solid(32, 32, [200, 120, 40]))
      .jpeg()
      .toBuffer(),
  );
  return path;
}
